import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { ValidationFailed } from './api-error';
import { DRF, DRF_TABLE, drfMessages, pyType } from './drf-messages';
import { renderError } from '../routes/http-exception.filter';
import { validateWhitelisted } from './fast-validate';
import { toProblems } from './validation.pipe';
import { NoNul, Present } from './v1-rules';
import { getMetadataStorage } from 'class-validator';
import '../../app.module'; // every DTO class, for the table's coverage check

class Ref {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(64) id: string;
}

class Sample {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(10) @NoNul() title: string;
  @Present() @IsInt() @Min(0) @Max(100) count?: number;
  @Present() @IsNumber() ratio?: number;
  @Present() @IsBoolean({ message: 'a custom message class-validator would show' }) active?: boolean;
  @Present() @IsIn(['HTML', 'PDF'], { message: 'Must be one of HTML, PDF.' }) kind?: string;
  @Present() @IsString() @IsEmail() email?: string;
  @Present() @IsString() @IsUrl() url?: string;
  @Present() @IsDateString() starts_at?: string;
  @Present() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @IsString({ each: true }) @Matches(/^[a-z]+$/, { each: true, message: 'Lowercase letters only.' }) tags?: string[];
  @Present() @IsObject() @ValidateNested() @Type(() => Ref) ref?: Ref;
  @IsOptional() @IsString() @MaxLength(5) nickname?: string | null;
}

/** The /v1 body and the /v2 errors for `body` sent as a Sample. */
function answer(body: Record<string, unknown>) {
  const errors = validateWhitelisted(plainToInstance(Sample, body) as object);
  const err = new ValidationFailed(toProblems(errors, 'body'));
  if (!errors.length) return { v1: {}, v2: [] };
  return {
    v1: renderError(err, 'v1', 'r').body as Record<string, string[]>,
    v2: (renderError(err, 'v2', 'r').body as any).errors.map((e: any) => e.detail) as string[],
  };
}
const v1 = (body: Record<string, unknown>) => answer({ title: 'ok', ...body }).v1;

describe('Django REST framework messages on /v1', () => {
  // one row per kind of bad value: [member, value sent, the exact DRF answer]
  const cases: [string, unknown, Record<string, unknown>][] = [
    ['title', undefined, { title: ['This field is required.'] }],
    ['title', null, { title: ['This field may not be null.'] }],
    ['title', '', { title: ['This field may not be blank.'] }],
    ['title', 5, { title: ['Not a valid string.'] }],
    ['title', ['x'], { title: ['Not a valid string.'] }],
    ['title', 'x'.repeat(11), { title: ['Ensure this field has no more than 10 characters.'] }],
    ['title', 'a\u0000b', { title: ['Null characters are not allowed.'] }],
    ['count', '5', { count: ['A valid integer is required.'] }],
    ['count', 1.5, { count: ['A valid integer is required.'] }],
    ['count', null, { count: ['This field may not be null.'] }],
    ['count', -1, { count: ['Ensure this value is greater than or equal to 0.'] }],
    ['count', 101, { count: ['Ensure this value is less than or equal to 100.'] }],
    ['ratio', 'x', { ratio: ['A valid number is required.'] }],
    ['active', 'yes', { active: ['Must be a valid boolean.'] }],
    ['kind', 'VIDEO', { kind: ['"VIDEO" is not a valid choice.'] }],
    ['kind', 5, { kind: ['"5" is not a valid choice.'] }],
    ['kind', '', { kind: ['"" is not a valid choice.'] }],
    ['email', 'nope', { email: ['Enter a valid email address.'] }],
    ['email', '', { email: ['This field may not be blank.'] }],
    ['email', 7, { email: ['Not a valid string.'] }],
    ['url', 'not a url', { url: ['Enter a valid URL.'] }],
    ['starts_at', 'yesterday', { starts_at: [DRF.datetime] }],
    ['tags', 'abc', { tags: ['Expected a list of items but got type "str".'] }],
    ['tags', { a: 1 }, { tags: ['Expected a list of items but got type "dict".'] }],
    ['tags', [], { tags: ['Ensure this field has at least 1 elements.'] }],
    ['tags', ['a', 'b', 'c', 'd'], { tags: ['Ensure this field has no more than 3 elements.'] }],
    ['tags', ['a', 5], { tags: { 1: ['Not a valid string.'] } }],
    ['tags', ['a', null], { tags: { 1: ['This field may not be null.'] } }],
    ['tags', ['a', 'B'], { tags: { 1: ['Lowercase letters only.'] } }],
    ['ref', 'x', { ref: ['Invalid data. Expected a dictionary, but got str.'] }],
    ['ref', [], { ref: ['Invalid data. Expected a dictionary, but got list.'] }],
    ['ref', {}, { ref: { id: ['This field is required.'] } }],
    ['ref', { id: '' }, { ref: { id: ['This field may not be blank.'] } }],
    ['ref', { id: 3 }, { ref: { id: ['Not a valid string.'] } }],
    ['nickname', null, {}],
    ['nickname', 'toolong', { nickname: ['Ensure this field has no more than 5 characters.'] }],
  ];
  it.each(cases)('%s = %j', (member, value, expected) => {
    expect(v1({ [member]: value })).toEqual(expected);
  });

  it('several validators of one member each add their message, as DRF runs them all', () => {
    expect(v1({ title: 'x'.repeat(10) + '\u0000' })).toEqual({ title: ['Ensure this field has no more than 10 characters.', 'Null characters are not allowed.'] });
  });

  it("/v2 keeps class-validator's messages", () => {
    const { v2 } = answer({ title: 5, kind: 'VIDEO' });
    expect(v2).toEqual(expect.arrayContaining(['title: title must be a string', 'kind: Must be one of HTML, PDF.']));
  });

  it('Python type names as DRF shows them', () => {
    expect([pyType('x'), pyType(1), pyType(1.5), pyType(true), pyType([]), pyType({}), pyType(null)]).toEqual(['str', 'int', 'float', 'bool', 'list', 'dict', 'NoneType']);
    expect(drfMessages('x', [])).toEqual({ messages: [] });
  });

  it('every class-validator constraint any DTO uses is in the table or is a rule that speaks DRF itself', () => {
    const storage = getMetadataStorage() as any;
    const missing = new Set<string>();
    for (const [, metas] of storage.validationMetadatas) {
      for (const m of metas as any[]) {
        if (m.type !== 'customValidation') continue;
        for (const c of storage.getTargetValidatorConstraints(m.constraintCls)) {
          if (!DRF_TABLE[c.name] && !/^v1[A-Z]/.test(c.name)) missing.add(c.name);
        }
      }
    }
    expect([...missing]).toEqual([]);
  });
});
