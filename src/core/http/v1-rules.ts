import { Allow, ArrayMaxSize, getMetadataStorage, Matches, ValidateBy, ValidateIf, ValidationArguments, ValidationOptions, ValidationTypes } from 'class-validator';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ValidationMetadata } = require('class-validator/cjs/metadata/ValidationMetadata') as typeof import('class-validator/types/metadata/ValidationMetadata');
import { FieldProblem, NoMatch, V1Seg, ValidationFailed } from './api-error';
import { DRF } from './drf-messages';
import { MAX_ARRAY_ITEMS } from './array-rules';

/**
 * The one /v1 validation vocabulary (issue 9): body member rules (this section), the V1* rules with
 * a `required` option, optional-member helpers, query parameter parsing and timestamps (below).
 *
 * Field rules with the messages the published /v1 API (Django REST framework) answers, so that
 * 400 bodies read `{"title": ["This field is required."]}` as existing clients expect. Each rule
 * is ONE validator giving at most one message per field; an absent member always passes (only
 * Required() refuses it) and null passes only where the member is nullable.
 */
export const MSG = {
  required: 'This field is required.',
  null: 'This field may not be null.',
  blank: 'This field may not be blank.',
  string: 'Not a valid string.',
  nul: 'Null characters are not allowed.',
  boolean: 'Must be a valid boolean.',
  integer: 'A valid integer is required.',
  list: DRF.list,
  maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
  min: (n: number) => `Ensure this value is greater than or equal to ${n}.`,
  max: (n: number) => `Ensure this value is less than or equal to ${n}.`,
  choice: (v: unknown) => `"${String(v).slice(0, 100)}" is not a valid choice.`,
};

interface Nullable {
  nullable?: boolean;
}

/** `required`: an absent member is "This field is required." (and only that). */
interface Presence extends Nullable {
  required?: boolean;
}

/** One rule: `check` returns the problem message or null. `hint` (the rule's options) is its constraint, read by the OpenAPI request schemas (request-schemas.ts), never by validation. */
function rule(name: string, opts: Presence, check: (v: unknown) => string | null, hint: object = opts) {
  const problem = (v: unknown): string | null => {
    if (v === undefined) return opts.required ? MSG.required : null;
    if (v === null) return opts.nullable ? null : MSG.null;
    return check(v);
  };
  return ValidateBy({
    name,
    constraints: [hint],
    validator: {
      validate: (v: unknown) => problem(v) === null,
      defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? 'Invalid value.',
    },
  });
}

/** Required on create and PUT. */
export const Required = () => ValidateBy({ name: 'v1Required', validator: { validate: (v: unknown) => v !== undefined, defaultMessage: () => MSG.required } });

const strProblem = (v: unknown, o: { min?: number; max?: number }): string | null => {
  if (typeof v !== 'string') return MSG.string;
  if (v.includes('\u0000')) return MSG.nul;
  if (o.min && v.trim().length < o.min) return MSG.blank;
  if (o.max && v.length > o.max) return MSG.maxLength(o.max);
  return null;
};

export const Str = (o: { min?: number; max?: number } & Nullable = {}) => rule('v1String', o, (v) => strProblem(v, o));
export const Bool = (o: Nullable = {}) => rule('v1Boolean', o, (v) => (typeof v === 'boolean' ? null : MSG.boolean));
const intProblem = (v: unknown, min: number, max: number): string | null => {
  if (typeof v !== 'number' || !Number.isInteger(v)) return MSG.integer;
  if (v < min) return MSG.min(min);
  if (v > max) return MSG.max(max);
  return null;
};

export const Int = (min = -2147483648, max = 2147483647, o: Nullable = {}) => rule('v1Integer', o, (v) => intProblem(v, min, max), { ...o, min, max });
export const Choice = (values: readonly string[], o: Nullable = {}) =>
  rule('v1Choice', o, (v) => (typeof v === 'string' && values.includes(v) ? null : MSG.choice(typeof v === 'object' ? JSON.stringify(v) : v)), { ...o, values });
/** A list of strings, at most `maxItems` of them (MAX_ARRAY_ITEMS unless a published limit says otherwise). */
export const StrList =
  (maxItemLength: number, maxItems = MAX_ARRAY_ITEMS): PropertyDecorator =>
  (target, key) => {
    // only arrays are counted (absent passes, anything else gets the list message below)
    ArrayMaxSize(maxItems, { validateIf: (_o, v) => Array.isArray(v) })(target, key as string);
    strList(maxItemLength)(target, key as string);
  };
const strList = (maxItemLength: number) =>
  rule(
    'v1StringList',
    {},
    (v) => {
      if (!Array.isArray(v)) return MSG.list(v);
      for (const item of v) {
        const p = item === null ? MSG.null : strProblem(item, { min: 1, max: maxItemLength });
        if (p) return p;
      }
      return null;
    },
    { maxItemLength },
  );

export const Obj = () => rule('v1Object', {}, (v) => (typeof v === 'object' && !Array.isArray(v) ? null : DRF.dict(v)));

/** page / page_size pass the whitelist; parseV1Page checks them. */
export const PageParam = () => Allow();

/**
 * Mark members of a subclass required (POST/PUT bodies) without redeclaring them. class-validator
 * drops a parent's rule of the same kind when the subclass has its own on that member, so the
 * parent's rules for these members are copied onto the subclass next to "This field is required.".
 */
export function requireMembers<T extends object>(cls: new () => T, members: (keyof T & string)[]) {
  const storage = getMetadataStorage();
  const parent = Object.getPrototypeOf(cls) as new () => object;
  const inherited = storage.getTargetValidationMetadatas(parent, '', true, false);
  for (const m of members) {
    for (const md of inherited.filter((x) => x.propertyName === m)) {
      storage.addValidationMetadata(Object.assign(Object.create(Object.getPrototypeOf(md)), md, { target: cls }));
    }
    Required()(cls.prototype, m);
  }
}

/** The `page` and `page_size` query parameters of a /v1 list. */
export class PageQuery {
  @PageParam() page?: unknown;
  @PageParam() page_size?: unknown;
}

/*
 * The V1* rules: one message per problem, `required` and `nullable` as options (the published-path,
 * path enrollment and access-code bodies). Unlike Str, V1Str counts blank strings as characters.
 */

export function V1Str(o: Presence & { min?: number; max?: number; pattern?: RegExp; patternMessage?: string } = {}): PropertyDecorator {
  return rule('v1Str', o, (v) => {
    if (typeof v !== 'string') return MSG.string;
    if (v.includes('\u0000')) return MSG.nul;
    if (o.min && v.length < o.min) return o.min === 1 ? MSG.blank : `Ensure this field has at least ${o.min} characters.`;
    if (o.max !== undefined && v.length > o.max) return MSG.maxLength(o.max);
    if (o.pattern && !o.pattern.test(v)) return o.patternMessage ?? 'Enter a valid value.';
    return null;
  });
}

export const V1Bool = (o: Presence = {}): PropertyDecorator => rule('v1Bool', o, (v) => (typeof v === 'boolean' ? null : MSG.boolean));

export function V1Int(o: Presence & { min?: number; max?: number } = {}): PropertyDecorator {
  const min = o.min ?? -2147483648;
  const max = o.max ?? 2147483647;
  return rule('v1Int', o, (v) => intProblem(v, min, max), { ...o, min, max });
}

/** A nested object member; pair with @ValidateNested() @Type(() => Dto). */
export const V1Obj = (o: Presence = {}): PropertyDecorator => rule('v1Obj', o, (v) => (typeof v === 'object' && !Array.isArray(v) ? null : DRF.dict(v)));

export const V1Enum = (values: readonly string[], o: Presence = {}): PropertyDecorator =>
  rule('v1Enum', o, (v) => (typeof v === 'string' && values.includes(v) ? null : MSG.choice(v)), { ...o, values });

/** A strict ISO 8601 date-time (with a time zone, or UTC when none is given). */
const ISO_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 date-time string (parsed later by the service, parseTimestamp); only the shape is checked here. */
export const V1DateTime = (o: Presence = {}): PropertyDecorator => rule('v1DateTime', o, (v) => (typeof v === 'string' && ISO_RE.test(v) && !Number.isNaN(Date.parse(v)) ? null : DRF.datetime));

/*
 * Optional members, field and query parameter errors, timestamps (every /v1 module).
 */

/**
 * The member may be absent; when present it is validated (null included, so null is rejected).
 * Registered under the name PRESENT, so the fast path (fast-validate.ts) knows it skips only an
 * absent member, as @IsOptional() skips only an absent or null one.
 */
export const PRESENT = 'present';
export const Present =
  (opts?: ValidationOptions): PropertyDecorator =>
  (target, key) => {
    getMetadataStorage().addValidationMetadata(
      new ValidationMetadata({
        type: ValidationTypes.CONDITIONAL_VALIDATION,
        name: PRESENT,
        target: target.constructor,
        propertyName: key as string,
        constraints: [(_o: object, v: unknown) => v !== undefined],
        validationOptions: opts,
      }),
    );
  };

/** The member may be absent or null (nullable columns). */
export const PresentNotNull = (opts?: ValidationOptions) => ValidateIf((_o, v) => v !== undefined && v !== null, opts);

/** PostgreSQL text cannot hold NUL characters: reject them as bad input (400), never a 500. */
export const NoNul = () => Matches(/^[^\u0000]*$/, { message: DRF.nul });

/**
 * A problem at a member: a name (dotted for nested members, `published_course.id`), or its path in
 * DRF's nested body when it sits in a list of objects (`['users', { index: i, of: n }, 'email']`, so
 * that the list has its n entries, CONVENTIONS §16).
 */
export function problemAt(field: string | V1Seg[], message: string): FieldProblem {
  if (typeof field === 'string') return { field, message };
  const name = field.map((s) => (typeof s === 'string' ? s : String(s.index))).join('.');
  return { field: name, message, v1: { field: name, messages: [message], path: field } };
}

export function fieldError(field: string | V1Seg[], message: string): ValidationFailed {
  return new ValidationFailed([problemAt(field, message)], 400);
}

/** A reference to an object that is not there (or not the caller's): DRF's "Invalid pk" on `field`, the value cut to `max` characters. */
export const invalidPk = (field: string, value: unknown, max = 64): ValidationFailed => fieldError(field, `Invalid pk "${String(value).slice(0, max)}" - object does not exist.`);

export function paramError(name: string, message: string): ValidationFailed {
  return new ValidationFailed([{ parameter: name, field: name, message }], 400);
}

/**
 * A single string query parameter (the last one when repeated), or undefined. A list filter never
 * fails on a long or odd value (CONVENTIONS §16): a value longer than any stored one simply matches
 * nothing, and one with a NUL character (which no stored text holds, and PostgreSQL refuses) is
 * NoMatch, the empty list.
 */
export function strParam(query: Record<string, unknown>, name: string): string | undefined {
  let v = query[name];
  if (Array.isArray(v)) v = v[v.length - 1];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw paramError(name, DRF.string);
  if (v.includes('\u0000')) throw new NoMatch(name);
  return v;
}

/**
 * A list filter member of a query DTO: a string of any length (a value no row holds matches nothing);
 * one with a NUL character, or longer than `max` (the longest value the filtered column or id can
 * hold), is NoMatch (AppValidationPipe): the empty list, answered without a statement. Never
 * `Str({ max })` or `@MaxLength` on a filter: `GET /v1/quizzes?name=<300 characters>` was a 400
 * (issue 25 item 7), `GET /v2/students/?filter[email]=<255 characters>` a 422. A value that is not
 * a string (a repeated parameter) is still refused, naming the parameter.
 */
export const FILTER = 'v1Filter';
export const Filter = (o: { max?: number } = {}) => rule(FILTER, {}, (v) => (typeof v === 'string' ? null : MSG.string), { filterMax: o.max });

/** Django REST framework's boolean filter: true/false/1/0 (any case); anything else is a 400. */
export function boolParam(query: Record<string, unknown>, name: string): boolean | undefined {
  const v = strParam(query, name);
  if (v === undefined || v === '') return undefined;
  const s = v.toLowerCase();
  if (s === 'true' || s === '1' || s === 'yes' || s === 'on') return true;
  if (s === 'false' || s === '0' || s === 'no' || s === 'off') return false;
  throw paramError(name, DRF.boolean);
}

export const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

export function parseTimestamp(field: string | V1Seg[], value: unknown, nullable: boolean): Date | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) {
    if (nullable) return null;
    throw fieldError(field, DRF.null);
  }
  if (typeof value !== 'string' || !ISO_RE.test(value)) {
    throw fieldError(field, DRF.datetime);
  }
  const withZone = /T/.test(value) && !/(Z|[+-]\d{2}:?\d{2})$/.test(value) ? `${value}Z` : value;
  const d = new Date(withZone);
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) {
    throw fieldError(field, DRF.datetime);
  }
  return d;
}
