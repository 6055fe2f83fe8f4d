import { getMetadataStorage, validateSync, ValidationError } from 'class-validator';
import { metadataGeneration } from './validation-metadata-cache';
import { PRESENT } from './v1-rules';
import { isClosed } from './closed';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage: transformerStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

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
  /** the constraint instances of the rule's constraint class, resolved once */
  constraints: any[];
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
  /** the class's name, as class-validator hands it to the constraints (`targetName`) */
  targetName: string | undefined;
  /** @Closed(): an unknown member is an error (left to class-validator), not whitelisted away (closed.ts) */
  closed: boolean;
}

const storage = getMetadataStorage() as any;
/** per metadata array handed out by the (memoized) storage: a plan, or null when the fast path does not apply */
const plans = new WeakMap<object, Plan | null>();

/**
 * The plan of the metadata array the storage hands out for `target` (memoized per class and
 * schema by validation-metadata-cache.ts, and dropped with it when metadata is added).
 */
function planOf(metadatas: any[], target: { name: string }): Plan | null {
  let plan = plans.get(metadatas);
  if (plan !== undefined) return plan;
  plan = buildPlan(metadatas, target.name, isClosed(target));
  plans.set(metadatas, plan);
  return plan;
}

/** class -> schema -> plan, for passesFast: no argument key to build per object (rebuilt when metadata is added) */
let byClass = new Map<unknown, Map<string | undefined, Plan | null>>();
let byClassGeneration = -1;

function planFor(cls: { name: string }, schema: string | undefined): Plan | null {
  if (byClassGeneration !== metadataGeneration()) {
    byClass = new Map();
    byClassGeneration = metadataGeneration();
  }
  let perSchema = byClass.get(cls);
  if (!perSchema) byClass.set(cls, (perSchema = new Map()));
  let plan = perSchema.get(schema);
  if (plan === undefined) {
    plan = planOf(storage.getTargetValidationMetadatas(cls, schema, false, false, undefined), cls);
    perSchema.set(schema, plan);
  }
  return plan;
}

const check = (metadata: any): Check => ({ metadata, constraints: storage.getTargetValidatorConstraints(metadata.constraintCls) });

function buildPlan(metadatas: any[], targetName: string | undefined, closed: boolean): Plan | null {
  if (!metadatas.length) return null;
  const grouped: Record<string, any[]> = storage.groupByPropertyName(metadatas);
  const properties: PropertyPlan[] = [];
  for (const name of Object.keys(grouped)) {
    const p: PropertyPlan = { name, conditions: [], defined: [], custom: [], nested: [] };
    for (const m of grouped[name]) {
      if (m.each) return null;
      switch (m.type) {
        case DEFINED:
          p.defined.push(check(m));
          break;
        case CUSTOM:
          p.custom.push(check(m));
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
  return { allowed: new Set(Object.keys(grouped)), properties, targetName, closed };
}

function isPromise(p: unknown): boolean {
  return p !== null && typeof p === 'object' && typeof (p as any).then === 'function';
}

/** The checks of one rule; false when one fails or cannot be mirrored. */
function passes(object: any, value: unknown, checks: Check[], targetName: string | undefined): boolean {
  for (const { metadata, constraints } of checks) {
    if (metadata.validateIf && !metadata.validateIf(object, value)) continue;
    for (const c of constraints) {
      if (c.async) return false;
      const ok = c.instance.validate(value, {
        targetName,
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
  const plan = planFor(object.constructor, schema);
  if (!plan) return false;
  for (const key of Object.keys(object)) {
    if (plan.allowed.has(key)) continue;
    if (plan.closed) return false; // an unknown member of a closed object: class-validator names it (closed.ts)
    delete object[key];
  }
  for (const p of plan.properties) {
    const value = object[p.name];
    if (value instanceof Promise) return false;
    let canValidate = true;
    for (const condition of p.conditions) canValidate = condition(object, value) && canValidate;
    if (!canValidate) continue;
    if (!passes(object, value, p.defined, plan.targetName) || !passes(object, value, p.custom, plan.targetName)) return false;
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

/**
 * `plainToInstance(cls, plain, { exposeDefaultValues: true })` compiled for a class whose members
 * are plain values and nested objects (`@Type(() => Class)` with `@ValidateNested()`): the instance
 * is made as class-transformer makes it (`new cls()`, then the members in the order `plain` has
 * them, an omitted member keeping its default), keeping only the members the class has rules for,
 * as the whitelist would. null when the class is outside that (transform, expose or exclude
 * metadata, accessors, a nested member without its rule or class, a class without rules).
 */
interface Shape {
  cls: new () => any;
  /** member -> the shape of its nested class, or null for a plain value */
  members: Map<string, Shape | null>;
  /** members the constructor makes that the whitelist removes */
  extra: string[];
  /** @Closed(): an unknown member leaves the object to the usual way (class-validator's error, closed.ts) */
  closed: boolean;
}

let shapes = new Map<unknown, Shape | null>();
let shapesGeneration = -1;

function shapeOf(cls: new () => any, building: Set<unknown> = new Set()): Shape | null {
  if (shapesGeneration !== metadataGeneration()) {
    shapes = new Map();
    shapesGeneration = metadataGeneration();
  }
  let shape = shapes.get(cls);
  if (shape === undefined) {
    if (building.has(cls)) return null; // a class nested in itself: class-transformer's way
    building.add(cls);
    shape = buildShape(cls, building);
    building.delete(cls);
    shapes.set(cls, shape);
  }
  return shape;
}

function buildShape(cls: new () => any, building: Set<unknown>): Shape | null {
  const t = transformerStorage as any;
  if (t.getStrategy(cls) !== 'none' || t.getExposedMetadatas(cls).length || t.getExcludedMetadatas(cls).length) return null;
  for (const target of [cls, ...t.getAncestors(cls)]) if (t._transformMetadatas.has(target)) return null;
  // rules registered under a schema name would reach nested objects (class-validator validates them under the parent's name)
  for (const target of storage.validationMetadatas.keys()) if (typeof target === 'string') return null;
  const metadatas = storage.getTargetValidationMetadatas(cls, undefined, false, false, undefined);
  const plan = planOf(metadatas, cls);
  if (!plan) return null;
  const members = new Map<string, Shape | null>();
  for (const name of plan.allowed) {
    if (name === '__proto__' || name === 'constructor' || name in Object.prototype) return null;
    for (let proto = cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      if (Object.getOwnPropertyDescriptor(proto, name)) return null; // an accessor or method of that name
    }
    const property = plan.properties.find((p) => p.name === name)!;
    const type = t.findTypeMetadata(cls, name);
    if (!type) {
      if (property.nested.length) return null; // a nested rule over a plain object
      members.set(name, null);
      continue;
    }
    // the nested object must always be descended into (and so whitelisted): a nested rule, no condition but IsOptional's
    // (Present() skips only an absent member: any value it lets through is one IsOptional() lets through)
    const conditional = metadatas.some((m: any) => m.propertyName === name && m.type === CONDITIONAL && m.name !== 'isOptional' && m.name !== PRESENT);
    if (type.options?.discriminator || typeof type.typeFunction !== 'function' || type.typeFunction.length > 0 || !property.nested.length || conditional) return null;
    const nestedCls = type.typeFunction();
    if (typeof nestedCls !== 'function' || nestedCls === Object) return null;
    const nested = shapeOf(nestedCls, building);
    if (!nested) return null;
    members.set(name, nested);
  }
  let probe: object;
  try {
    probe = new cls();
  } catch {
    return null;
  }
  if (Object.keys(probe).some((k) => members.has(k) && typeof (probe as any)[k] === 'function')) return null;
  return { cls, members, extra: Object.keys(probe).filter((k) => !members.has(k)), closed: isClosed(cls) };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The instance of `shape` for `plain`, or undefined when a value is outside what the shape mirrors. */
function instanceOf(shape: Shape, plain: Record<string, unknown>): any {
  const object = new shape.cls();
  for (const key of shape.extra) delete object[key];
  for (const key of Object.keys(plain)) {
    const nested = shape.members.get(key);
    if (nested === undefined) {
      if (shape.closed) return undefined; // unknown in a closed object: refused the usual way
      continue; // unknown: whitelisted away
    }
    const value = plain[key];
    if (value === undefined) continue; // the default stays
    if (nested === null) {
      if (value !== null && typeof value === 'object') return undefined; // copied by class-transformer: its own way
      object[key] = value;
    } else {
      if (!isPlainObject(value)) return undefined;
      const inner = instanceOf(nested, value);
      if (inner === undefined) return undefined;
      object[key] = inner;
    }
  }
  return object;
}

/**
 * `plainToInstance(cls, plain, { exposeDefaultValues: true })` followed by
 * `validateWhitelisted`, for the common case: a plain object of a simple class that passes. Answers
 * the validated instance (the same object, members and defaults as the slow way), or undefined:
 * then the caller goes the usual way (class-transformer, then class-validator's errors).
 */
export function transformValid<T>(cls: new () => T, plain: unknown): T | undefined {
  if (!isPlainObject(plain)) return undefined;
  const shape = shapeOf(cls);
  if (!shape) return undefined;
  const object = instanceOf(shape, plain);
  return object !== undefined && passesFast(object, undefined) ? object : undefined;
}
