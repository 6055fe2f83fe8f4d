import { getMetadataStorage, ValidationError } from 'class-validator';

/**
 * Django REST framework's own field-error messages, which the published /v1 API answers and its
 * clients match on, and THE one table that turns a failed class-validator constraint into them.
 *
 * /v1 field errors read `{"title": ["This field is required."]}`. Whatever decorator a DTO uses
 * (class-validator's own, with or without a custom message, or one of the /v1 rule helpers that
 * already speak DRF), the /v1 renderer shows the messages computed here from the value that was
 * sent: absent, null, "" (blank), a value of the wrong type and a value of the right type that
 * breaks a limit each give DRF's distinct message. /v2 keeps class-validator's messages.
 */
export const DRF = {
  required: 'This field is required.',
  null: 'This field may not be null.',
  blank: 'This field may not be blank.',
  string: 'Not a valid string.',
  integer: 'A valid integer is required.',
  number: 'A valid number is required.',
  boolean: 'Must be a valid boolean.',
  email: 'Enter a valid email address.',
  url: 'Enter a valid URL.',
  uuid: 'Must be a valid UUID.',
  pattern: 'This value does not match the required pattern.',
  nul: 'Null characters are not allowed.',
  emptyList: 'This list may not be empty.',
  datetime: 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
  date: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
  surrogate: (codePoint: number) => `Surrogate characters are not allowed: U+${codePoint.toString(16).toUpperCase()}.`,
  choice: (v: unknown) => `"${display(v)}" is not a valid choice.`,
  list: (v: unknown) => `Expected a list of items but got type "${pyType(v)}".`,
  dict: (v: unknown) => `Invalid data. Expected a dictionary, but got ${pyType(v)}.`,
  maxLength: (n: unknown) => `Ensure this field has no more than ${n} characters.`,
  minLength: (n: unknown) => `Ensure this field has at least ${n} characters.`,
  maxValue: (n: unknown) => `Ensure this value is less than or equal to ${n}.`,
  minValue: (n: unknown) => `Ensure this value is greater than or equal to ${n}.`,
  maxItems: (n: unknown) => `Ensure this field has no more than ${n} elements.`,
  minItems: (n: unknown) => `Ensure this field has at least ${n} elements.`,
} as const;

/** The Python type name DRF puts in its messages (`type(data).__name__`). */
export function pyType(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  switch (typeof v) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) ? 'int' : 'float';
    default:
      return 'dict';
  }
}

/** A sent value as DRF's `str()` shows it in `"X" is not a valid choice.` (long values cut at 100 characters). */
function display(v: unknown): string {
  const s = typeof v === 'string' ? v : typeof v === 'boolean' ? (v ? 'True' : 'False') : typeof v === 'number' ? String(v) : JSON.stringify(v);
  return s.length > 100 ? s.slice(0, 100) : s;
}

/** One failed constraint of one member, as the table needs it. */
export interface FailedConstraint {
  /** class-validator's constraint name (`isString`, `maxLength`, ...) or a custom rule's name */
  name: string;
  /** the decorator's arguments (`@MaxLength(255)` → [255]) */
  args: unknown[];
  /** `{ each: true }`: the rule applies to every element of an array */
  each: boolean;
  /** the message class-validator produced (the decorator's own message when it has one) */
  message: string;
  /** whether the decorator was given its own message */
  customMessage: boolean;
  /** runs the rule on one value (used to find the element an `each` rule refused) */
  check?: (value: unknown) => boolean;
}

type Stage = 'type' | 'choice' | 'validator';
interface Entry {
  stage: Stage;
  message: (value: unknown, args: unknown[], f: FailedConstraint) => string;
  /** string-shaped rules: "" (or only spaces) breaking one is "This field may not be blank." */
  stringish?: boolean;
}

/**
 * The table, keyed by constraint name. `type` entries answer alone (DRF stops at
 * `to_internal_value`); `choice` likewise; `validator` entries are DRF's validators, which all run
 * and each add their message.
 */
export const DRF_TABLE: Record<string, Entry> = {
  isDefined: { stage: 'type', message: () => DRF.required },
  isString: { stage: 'type', message: () => DRF.string },
  isInt: { stage: 'type', message: () => DRF.integer },
  isNumber: { stage: 'type', message: () => DRF.number },
  isNumberString: { stage: 'type', message: () => DRF.number },
  isBoolean: { stage: 'type', message: () => DRF.boolean },
  isArray: { stage: 'type', message: (v) => DRF.list(v) },
  isObject: { stage: 'type', message: (v) => DRF.dict(v) },
  nestedValidation: { stage: 'type', message: (v) => DRF.dict(v) },
  isIn: { stage: 'choice', message: (v) => DRF.choice(v) },
  isEnum: { stage: 'choice', message: (v) => DRF.choice(v) },
  equals: { stage: 'choice', message: (v) => DRF.choice(v) },
  isNotIn: { stage: 'choice', message: (v) => DRF.choice(v) },
  isNotEmpty: { stage: 'validator', stringish: true, message: () => DRF.blank },
  maxLength: { stage: 'validator', stringish: true, message: (_v, a) => DRF.maxLength(a[0]) },
  minLength: { stage: 'validator', stringish: true, message: (_v, a) => DRF.minLength(a[0]) },
  isLength: {
    stage: 'validator',
    stringish: true,
    message: (v, a) => (typeof v === 'string' && a[1] !== undefined && v.length > Number(a[1]) ? DRF.maxLength(a[1]) : DRF.minLength(a[0])),
  },
  matches: {
    stage: 'validator',
    stringish: true,
    // NoNul() is a `matches`; otherwise a pattern's own explanation (a DTO's message) is kept
    message: (v, _a, f) => (typeof v === 'string' && v.includes('\u0000') ? DRF.nul : f.customMessage ? f.message : DRF.pattern),
  },
  isEmail: { stage: 'validator', stringish: true, message: () => DRF.email },
  isUrl: { stage: 'validator', stringish: true, message: () => DRF.url },
  isUUID: { stage: 'validator', stringish: true, message: () => DRF.uuid },
  isDateString: { stage: 'validator', stringish: true, message: () => DRF.datetime },
  isISO8601: { stage: 'validator', stringish: true, message: () => DRF.datetime },
  min: { stage: 'validator', message: (_v, a) => DRF.minValue(a[0]) },
  max: { stage: 'validator', message: (_v, a) => DRF.maxValue(a[0]) },
  arrayMaxSize: { stage: 'validator', message: (_v, a) => DRF.maxItems(a[0]) },
  arrayMinSize: { stage: 'validator', message: (_v, a) => DRF.minItems(a[0]) },
  arrayNotEmpty: { stage: 'validator', message: () => DRF.emptyList },
};

const ORDER = Object.keys(DRF_TABLE);

/**
 * Rules that already answer DRF's messages themselves (the /v1 rule helpers: Str, Bool, Int,
 * Choice, StrList, Obj, Required, V1Str, ...): their message is kept as it is.
 */
export const DRF_SPEAKING_RULE = /^v1[A-Z]/;

/** Where the first element an `each` rule refused sits, and the messages for it. */
export interface DrfOutcome {
  messages: string[];
  /** the index of the array element the messages are about, when an `each` rule failed */
  index?: number;
}

/**
 * DRF's messages for a member whose value is `value` and whose rules `failed` refused it.
 * Absent is "required", null is "may not be null" whatever rule failed (the member would have
 * passed otherwise: optional members skip both).
 */
export function drfMessages(value: unknown, failed: FailedConstraint[]): DrfOutcome {
  if (!failed.length) return { messages: [] };
  if (value === undefined) return { messages: [DRF.required] };
  if (value === null) return { messages: [DRF.null] };

  const own = failed.filter((f) => !f.each);
  const each = failed.filter((f) => f.each);
  const entry = (f: FailedConstraint) => DRF_TABLE[f.name];

  // rules that speak DRF already, or that we do not know: their own message
  const speaking = own.filter((f) => !entry(f));
  if (speaking.length) return { messages: unique(speaking.map((f) => f.message)) };

  const types = own.filter((f) => entry(f).stage === 'type');
  // "" for a text member: blank, before any type or validator message (DRF checks blank first)
  const textRules = own.filter((f) => entry(f).stringish);
  const nonStringType = types.some((f) => f.name !== 'isString' && f.name !== 'isDefined');
  if (typeof value === 'string' && value.trim() === '' && !nonStringType && own.every((f) => entry(f).stage !== 'choice') && textRules.length) {
    return { messages: [DRF.blank] };
  }
  if (types.length) return { messages: [messageOf(types[0], value)] };
  const choices = own.filter((f) => entry(f).stage === 'choice');
  if (choices.length) return { messages: [messageOf(choices[0], value)] };

  // DRF's validator order: max_length, min_length, null characters, then the field's own validators
  const messages = [...own].sort((a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name)).map((f) => messageOf(f, value));
  if (messages.length) return { messages: unique(messages) };

  // only element rules failed: DRF's ListField reports the first element it refuses
  if (!Array.isArray(value)) return { messages: [DRF.list(value)] };
  for (let i = 0; i < value.length; i++) {
    const refused = each.filter((f) => (f.check ? !f.check(value[i]) : true));
    if (refused.length)
      return {
        messages: drfMessages(
          value[i],
          refused.map((f) => ({ ...f, each: false })),
        ).messages,
        index: i,
      };
  }
  return { messages: unique(each.map((f) => messageOf({ ...f, each: false }, value))) };
}

function messageOf(f: FailedConstraint, value: unknown): string {
  const e = DRF_TABLE[f.name];
  return e ? e.message(value, f.args, f) : f.message;
}

const unique = (xs: string[]) => [...new Set(xs)];

const storage = getMetadataStorage() as any;

/** The failed constraints of one ValidationError, with their decorators' arguments. */
export function failedConstraints(error: ValidationError): FailedConstraint[] {
  const constraints = error.constraints ?? {};
  const names = Object.keys(constraints);
  if (!names.length) return [];
  const target = error.target as any;
  const byName = new Map<string, any>();
  if (target && typeof target.constructor === 'function' && !Array.isArray(target)) {
    const metadatas: any[] = storage.getTargetValidationMetadatas(target.constructor, undefined, true, false, undefined);
    for (const m of metadatas) {
      if (m.propertyName !== error.property) continue;
      if (m.type === 'customValidation') {
        for (const c of storage.getTargetValidatorConstraints(m.constraintCls)) if (!byName.has(c.name)) byName.set(c.name, { m, c });
      } else if (!byName.has(m.type)) byName.set(m.type, { m });
    }
  }
  return names.map((name) => {
    const found = byName.get(name);
    const m = found?.m;
    const c = found?.c;
    return {
      name,
      args: m?.constraints ?? [],
      each: !!m?.each,
      message: constraints[name],
      customMessage: m?.message !== undefined && m?.message !== null && m?.message !== '',
      check:
        c && !c.async ? (v: unknown) => !!c.instance.validate(v, { targetName: target?.constructor?.name, property: error.property, object: target, value: v, constraints: m.constraints }) : undefined,
    };
  });
}
