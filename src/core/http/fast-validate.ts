import { getMetadataStorage, validateSync, ValidationError } from 'class-validator';
import './validation-metadata-cache';

/**
 * `validateSync(object, { whitelist: true, forbidUnknownValues: false })` with a fast path for the
 * common case, an object that passes.
 *
 * class-validator builds a ValidationError for every property it checks, valid or not, filters
 * each property's rules into new arrays and strips the empty errors at the end: per object that
 * passes, that machinery costs several times the checks themselves, and a 100-item batch runs it
 * for 200 objects. The fast path runs the same checks, in the same order, from the same metadata
 * (the same constraint instances' `validate`, the same IsOptional/ValidateIf conditions, nested
 * objects through their own class's rules, whitelisting unknown members away the same way), and
 * only answers "valid". As soon as anything fails, or anything is outside what it mirrors (async or
 * `each` constraints, arrays, sets or maps of nested objects, promises, a class without rules), the
 * object goes through class-validator itself, which produces the errors: the errors, their order
 * and their messages are class-validator's, always.
 */
const CUSTOM = 'customValidation';
const DEFINED = 'isDefined';
const CONDITIONAL = 'conditionalValidation';
const NESTED = 'nestedValidation';
const WHITELIST = 'whitelistValidation';

interface Check {
  metadata: any;
}
interface PropertyPlan {
  name: string;
  conditions: ((object: any, value: unknown) => boolean)[];
  defined: Check[];
  custom: Check[];
  /** the schema name class-validator passes when it descends (the parent rule's target name) */
  nested: string[];
}
interface Plan {
  allowed: Set<string>;
  properties: PropertyPlan[];
}

const storage = getMetadataStorage() as any;
/** per metadata array handed out by the (memoized) storage: a plan, or null when the fast path does not apply */
const plans = new WeakMap<object, Plan | null>();

function planOf(metadatas: any[]): Plan | null {
  let plan = plans.get(metadatas);
  if (plan !== undefined) return plan;
  plan = buildPlan(metadatas);
  plans.set(metadatas, plan);
  return plan;
}

function buildPlan(metadatas: any[]): Plan | null {
  if (!metadatas.length) return null;
  const grouped: Record<string, any[]> = storage.groupByPropertyName(metadatas);
  const properties: PropertyPlan[] = [];
  for (const name of Object.keys(grouped)) {
    const p: PropertyPlan = { name, conditions: [], defined: [], custom: [], nested: [] };
    for (const m of grouped[name]) {
      if (m.each) return null;
      switch (m.type) {
        case DEFINED:
          p.defined.push({ metadata: m });
          break;
        case CUSTOM:
          p.custom.push({ metadata: m });
          break;
        case CONDITIONAL:
          p.conditions.push(m.constraints[0]);
          break;
        case NESTED:
          if (typeof m.target !== 'string' && typeof m.target !== 'function') return null;
          p.nested.push(typeof m.target === 'string' ? m.target : m.target.name);
          break;
        case WHITELIST:
          break;
        default:
          return null; // promise validation or anything newer: class-validator's own way
      }
    }
    properties.push(p);
  }
  return { allowed: new Set(Object.keys(grouped)), properties };
}

function isPromise(p: unknown): boolean {
  return p !== null && typeof p === 'object' && typeof (p as any).then === 'function';
}

/** The checks of one rule; false when one fails or cannot be mirrored. */
function passes(object: any, value: unknown, checks: Check[]): boolean {
  for (const { metadata } of checks) {
    if (metadata.validateIf && !metadata.validateIf(object, value)) continue;
    const constraints: any[] = storage.getTargetValidatorConstraints(metadata.constraintCls);
    for (const c of constraints) {
      if (c.async) return false;
      const ok = c.instance.validate(value, {
        targetName: object.constructor ? object.constructor.name : undefined,
        property: metadata.propertyName,
        object,
        value,
        constraints: metadata.constraints,
      });
      if (!ok || isPromise(ok)) return false;
    }
  }
  return true;
}

/** True when class-validator would report nothing for `object` (whitelisting it on the way, as it does). */
function passesFast(object: any, schema: string | undefined): boolean {
  if (typeof object.constructor !== 'function') return false;
  const metadatas = storage.getTargetValidationMetadatas(object.constructor, schema, false, false, undefined);
  const plan = planOf(metadatas);
  if (!plan) return false;
  for (const key of Object.keys(object)) if (!plan.allowed.has(key)) delete object[key];
  for (const p of plan.properties) {
    const value = object[p.name];
    if (value instanceof Promise) return false;
    let canValidate = true;
    for (const condition of p.conditions) canValidate = condition(object, value) && canValidate;
    if (!canValidate) continue;
    if (!passes(object, value, p.defined) || !passes(object, value, p.custom)) return false;
    if (value === undefined) continue;
    for (const schemaName of p.nested) {
      if (Array.isArray(value) || value instanceof Set || value instanceof Map || !(value instanceof Object)) return false;
      if (!passesFast(value, schemaName)) return false;
    }
  }
  return true;
}

const OPTIONS = { whitelist: true, forbidUnknownValues: false } as const;

/** Same result as `validateSync(object, { whitelist: true, forbidUnknownValues: false })`. */
export function validateWhitelisted(object: object): ValidationError[] {
  if (object !== null && typeof object === 'object' && passesFast(object, undefined)) return [];
  return validateSync(object, OPTIONS);
}
