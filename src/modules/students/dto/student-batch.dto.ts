import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsBoolean, IsDefined, IsEmail, isEmail, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';

export const NAME_MAX = 50;
export const EMAIL_MAX = 254;

/** As the published StudentCreateRequest: email required; names default to "". */
export class StudentCreateAttributes {
  @ApiProperty({ format: 'email', maxLength: EMAIL_MAX })
  @IsString()
  @MaxLength(EMAIL_MAX)
  @IsEmail({}, { message: 'email must be a valid email address' })
  email: string;

  @ApiPropertyOptional({ maxLength: NAME_MAX, default: '' }) @IsOptional() @IsString() @MaxLength(NAME_MAX) first_name?: string | null = '';
  @ApiPropertyOptional({ maxLength: NAME_MAX, default: '' }) @IsOptional() @IsString() @MaxLength(NAME_MAX) last_name?: string | null = '';
}

/** As the published _StudentCreateData. */
export class StudentCreateItem {
  @ApiProperty({ enum: ['students'] }) @Allow() type: 'students';

  @ApiProperty({ type: StudentCreateAttributes })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => StudentCreateAttributes)
  attributes: StudentCreateAttributes;
}

/** As the published StudentUpdateRequest: every member optional; null is the same as omitted. */
export class StudentUpdateAttributes {
  @ApiPropertyOptional({ format: 'email', nullable: true, description: 'identifier when id is absent, confirmation when id is present; never changed' })
  @IsOptional()
  @IsString()
  @MaxLength(EMAIL_MAX)
  @IsEmail({}, { message: 'email must be a valid email address' })
  email?: string | null;

  @ApiPropertyOptional({ maxLength: NAME_MAX, nullable: true }) @IsOptional() @IsString() @MaxLength(NAME_MAX) first_name?: string | null;
  @ApiPropertyOptional({ maxLength: NAME_MAX, nullable: true }) @IsOptional() @IsString() @MaxLength(NAME_MAX) last_name?: string | null;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @IsBoolean() is_inactive?: boolean | null;
}

/** As the published _StudentUpdateData: `id` preferred, `attributes.email` as the fallback identifier. */
export class StudentUpdateItem {
  @ApiProperty({ enum: ['students'] }) @Allow() type: 'students';
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @IsString() id?: string | null;

  @ApiProperty({ type: StudentUpdateAttributes })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => StudentUpdateAttributes)
  attributes: StudentUpdateAttributes;
}

/** For the OpenAPI document only: batch bodies are read by runBatch, item by item. */
export class StudentCreateRequestEnvelope {
  @ApiProperty({ type: [StudentCreateItem] }) data: StudentCreateItem[];
}
export class StudentUpdateRequestEnvelope {
  @ApiProperty({ type: [StudentUpdateItem] }) data: StudentUpdateItem[];
}

/**
 * The rules above, hand-written for the common case of a batch: an item that passes them. Answers
 * the item as the compiled way (transformValid: an instance with the members the class has rules
 * for, an omitted name defaulting to "") would hand it to the service, or undefined as soon as
 * anything is not plainly valid: runBatch then goes the usual way (class-transformer, class-validator
 * and its messages). Conservative where a rule is subtle: a string longer than the maximum in UTF-16
 * code units goes the usual way (MaxLength counts a surrogate pair as one character), so does any
 * object that is not a plain one. The same checks in the same way otherwise: IsString (a string),
 * IsEmail (class-validator's isEmail with the decorator's options, `{}`), IsBoolean (a boolean),
 * IsOptional (null or omitted skips the member's rules), IsDefined + IsObject on `attributes`.
 * student-batch.dto.spec.ts checks them against class-validator.
 */
const EMAIL_OPTIONS = {};

function plainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A string of at most `max` UTF-16 code units (MaxLength then holds whatever the string holds). */
const shortString = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;
/** An optional name: omitted, null, or a short string. */
const optionalName = (v: unknown): boolean => v === undefined || v === null || shortString(v, NAME_MAX);
/**
 * A plain ASCII address that class-validator's isEmail (validator.js, the decorator's options)
 * certainly accepts: a local part of at most 64 characters made of dot-separated runs of its atom
 * characters, a domain of at least two dot-separated labels of letters, digits and inner hyphens
 * (1 to 63 characters each), the last one 2 to 63 letters. Anything else, isEmail itself decides
 * (the answer is isEmail's either way; student-batch.dto.spec.ts checks the subset on generated
 * addresses).
 */
const PLAIN_EMAIL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
export const plainEmail = (v: string): boolean => PLAIN_EMAIL.test(v) && v.indexOf('@') <= 64;
const validEmail = (v: unknown): v is string => shortString(v, EMAIL_MAX) && (plainEmail(v) || isEmail(v, EMAIL_OPTIONS as any));

/** StudentCreateItem's rules over a raw batch item: the item when it plainly passes them, else undefined. */
export function quickCreateItem(raw: Record<string, any>): StudentCreateItem | undefined {
  const a = raw.attributes;
  if (!plainObject(a)) return undefined;
  const { email, first_name, last_name } = a;
  if (!validEmail(email) || !optionalName(first_name) || !optionalName(last_name)) return undefined;
  return {
    type: raw.type,
    attributes: { email, first_name: first_name === undefined ? '' : (first_name as string | null), last_name: last_name === undefined ? '' : (last_name as string | null) },
  };
}

/** StudentUpdateItem's rules over a raw batch item: the item when it plainly passes them, else undefined. */
export function quickUpdateItem(raw: Record<string, any>): StudentUpdateItem | undefined {
  const { id, attributes: a } = raw;
  if (!(id === undefined || id === null || typeof id === 'string') || !plainObject(a)) return undefined;
  const { email, first_name, last_name, is_inactive } = a;
  if (!(email === undefined || email === null || validEmail(email)) || !optionalName(first_name) || !optionalName(last_name)) return undefined;
  if (!(is_inactive === undefined || is_inactive === null || typeof is_inactive === 'boolean')) return undefined;
  return {
    type: raw.type,
    id: id as string | null | undefined,
    attributes: { email: email as string | null | undefined, first_name: first_name as string | null | undefined, last_name: last_name as string | null | undefined, is_inactive },
  };
}
