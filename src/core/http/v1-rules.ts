import { Allow, ArrayMaxSize, getMetadataStorage, ValidateBy, ValidationArguments } from 'class-validator';
import { DRF } from './drf-messages';
import { MAX_ARRAY_ITEMS } from './array-rules';

/**
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

/** One rule: `check` returns the problem message or null. */
function rule(name: string, opts: Nullable, check: (v: unknown) => string | null) {
  const problem = (v: unknown): string | null => {
    if (v === undefined) return null;
    if (v === null) return opts.nullable ? null : MSG.null;
    return check(v);
  };
  return ValidateBy({
    name,
    validator: {
      validate: (v: unknown) => problem(v) === null,
      defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? 'Invalid value.',
    },
  });
}

/** Required on create and PUT. */
export const Required = () =>
  ValidateBy({ name: 'v1Required', validator: { validate: (v: unknown) => v !== undefined, defaultMessage: () => MSG.required } });

const strProblem = (v: unknown, o: { min?: number; max?: number }): string | null => {
  if (typeof v !== 'string') return MSG.string;
  if (v.includes('\u0000')) return MSG.nul;
  if (o.min && v.trim().length < o.min) return MSG.blank;
  if (o.max && v.length > o.max) return MSG.maxLength(o.max);
  return null;
};

export const Str = (o: { min?: number; max?: number } & Nullable = {}) => rule('v1String', o, (v) => strProblem(v, o));
export const Bool = (o: Nullable = {}) => rule('v1Boolean', o, (v) => (typeof v === 'boolean' ? null : MSG.boolean));
export const Int = (min = -2147483648, max = 2147483647, o: Nullable = {}) =>
  rule('v1Integer', o, (v) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) return MSG.integer;
    if (v < min) return MSG.min(min);
    if (v > max) return MSG.max(max);
    return null;
  });
export const Choice = (values: readonly string[], o: Nullable = {}) =>
  rule('v1Choice', o, (v) => (typeof v === 'string' && values.includes(v) ? null : MSG.choice(typeof v === 'object' ? JSON.stringify(v) : v)));
/** A list of strings, at most `maxItems` of them (MAX_ARRAY_ITEMS unless a published limit says otherwise). */
export const StrList = (maxItemLength: number, maxItems = MAX_ARRAY_ITEMS): PropertyDecorator => (target, key) => {
  // only arrays are counted (absent passes, anything else gets the list message below)
  ArrayMaxSize(maxItems, { validateIf: (_o, v) => Array.isArray(v) })(target, key as string);
  strList(maxItemLength)(target, key as string);
};
const strList = (maxItemLength: number) =>
  rule('v1StringList', {}, (v) => {
    if (!Array.isArray(v)) return MSG.list(v);
    for (const item of v) {
      const p = item === null ? MSG.null : strProblem(item, { min: 1, max: maxItemLength });
      if (p) return p;
    }
    return null;
  });

export const Obj = () =>
  rule('v1Object', {}, (v) => (typeof v === 'object' && !Array.isArray(v) ? null : DRF.dict(v)));

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
