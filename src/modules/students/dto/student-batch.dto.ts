import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsBoolean, IsDefined, IsEmail, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';

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
