import { registerDecorator } from 'class-validator';
import { DRF } from '../../core/http/drf-messages';

/**
 * Field validators with Django REST framework's messages and exactly one message per problem:
 * a missing required member answers only "This field is required.", not every rule it breaks.
 */
type Check = (v: unknown) => string | null;

function field(name: string, check: Check): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (v: unknown) => check(v) === null,
        defaultMessage: (args) => check(args?.value) ?? 'Invalid value.',
      },
    });
  };
}

interface Common {
  required?: boolean;
  nullable?: boolean;
}

function presence(v: unknown, o: Common): string | null | 'ok' {
  if (v === undefined) return o.required ? 'This field is required.' : 'ok';
  if (v === null) return o.nullable ? 'ok' : 'This field may not be null.';
  return null;
}

export function V1Str(o: Common & { min?: number; max?: number; pattern?: RegExp; patternMessage?: string } = {}): PropertyDecorator {
  return field('v1Str', (v) => {
    const p = presence(v, o);
    if (p) return p === 'ok' ? null : p;
    if (typeof v !== 'string') return 'Not a valid string.';
    if (v.includes('\u0000')) return 'Null characters are not allowed.';
    if (o.min && v.length < o.min) return o.min === 1 ? 'This field may not be blank.' : `Ensure this field has at least ${o.min} characters.`;
    if (o.max !== undefined && v.length > o.max) return `Ensure this field has no more than ${o.max} characters.`;
    if (o.pattern && !o.pattern.test(v)) return o.patternMessage ?? 'Enter a valid value.';
    return null;
  });
}

export function V1Bool(o: Common = {}): PropertyDecorator {
  return field('v1Bool', (v) => {
    const p = presence(v, o);
    if (p) return p === 'ok' ? null : p;
    return typeof v === 'boolean' ? null : 'Must be a valid boolean.';
  });
}

export function V1Int(o: Common & { min?: number; max?: number } = {}): PropertyDecorator {
  const min = o.min ?? -2147483648;
  const max = o.max ?? 2147483647;
  return field('v1Int', (v) => {
    const p = presence(v, o);
    if (p) return p === 'ok' ? null : p;
    if (typeof v !== 'number' || !Number.isInteger(v)) return 'A valid integer is required.';
    if (v < min) return `Ensure this value is greater than or equal to ${min}.`;
    if (v > max) return `Ensure this value is less than or equal to ${max}.`;
    return null;
  });
}

/** A nested object member; pair with @ValidateNested() @Type(() => Dto). */
export function V1Obj(o: Common = {}): PropertyDecorator {
  return field('v1Obj', (v) => {
    const p = presence(v, o);
    if (p) return p === 'ok' ? null : p;
    return typeof v === 'object' && !Array.isArray(v) ? null : DRF.dict(v);
  });
}

export function V1Enum(values: readonly string[], o: Common = {}): PropertyDecorator {
  return field('v1Enum', (v) => {
    const p = presence(v, o);
    if (p) return p === 'ok' ? null : p;
    return typeof v === 'string' && values.includes(v) ? null : `"${String(v).slice(0, 100)}" is not a valid choice.`;
  });
}

/** An ISO 8601 date-time string (parsed later by the service); only the shape is checked here. */
export function V1DateTime(o: Common = {}): PropertyDecorator {
  return field('v1DateTime', (v) => {
    const p = presence(v, o);
    if (p) return p === 'ok' ? null : p;
    return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v.length === 10 ? v : v))
      ? null
      : DRF.datetime;
  });
}
