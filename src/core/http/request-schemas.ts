import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

// class-transformer's @Type registry (its package exports it only by path)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

/**
 * OpenAPI schemas of request bodies generated from the DTO classes' validation rules
 * (class-validator and class-transformer metadata, plus the `design:type` TypeScript emits), so
 * the document shows the members a body is validated against, never a second description that
 * could drift. Request DTOs mostly carry no @ApiProperty: @nestjs/swagger then describes them as
 * objects without members, which /docs and the MCP tools' input schemas (built from the served
 * document) inherited. `completeRequestSchemas` fills those empty component schemas; the /v2 batch
 * envelopes use `schemaOfClass` for their items (core/routes/v2-batch.ts).
 *
 * What a rule says about a member: its type (IsString, IsBoolean, IsInt, the /v1 rules Str, Bool,
 * Int ...), enumerations (IsIn, Choice), lengths and bounds, arrays (`each`, ObjectList, StrList),
 * nested classes (ValidateNested + @Type, inlined), and whether it is required (IsDefined,
 * Required(), or a class-validator rule not made conditional by IsOptional / ValidateIf /
 * Present). Validation is unchanged: this only reads the metadata.
 */
export type JsonSchema = Record<string, any>;

/** Rule names (class-validator's, and the /v1 rules of core/http/v1-rules.ts) and the type they imply. */
const TYPE_OF_RULE: Record<string, string> = {
  isString: 'string',
  isEmail: 'string',
  isUrl: 'string',
  isUUID: 'string',
  isDateString: 'string',
  isISO8601: 'string',
  matches: 'string',
  maxLength: 'string',
  minLength: 'string',
  isLength: 'string',
  isNotEmpty: '',
  v1String: 'string',
  v1Str: 'string',
  v1Choice: 'string',
  v1Enum: 'string',
  v1DateTime: 'string',
  isBoolean: 'boolean',
  v1Boolean: 'boolean',
  v1Bool: 'boolean',
  isInt: 'integer',
  v1Integer: 'integer',
  v1Int: 'integer',
  isNumber: 'number',
  min: 'number',
  max: 'number',
  isPositive: 'number',
  isArray: 'array',
  arrayMaxSize: 'array',
  arrayMinSize: 'array',
  arrayNotEmpty: 'array',
  v1StringList: 'array',
  isObject: 'object',
  v1Object: 'object',
  v1Obj: 'object',
};
/** The rules whose first constraint is, as it is, the value of a schema keyword: that keyword. */
const KEYWORD_OF_RULE = new Map<string, string>([
  ['maxLength', 'maxLength'],
  ['minLength', 'minLength'],
  ['min', 'minimum'],
  ['max', 'maximum'],
  ['arrayMaxSize', 'maxItems'],
  ['arrayMinSize', 'minItems'],
]);
const FORMATS: Record<string, string> = { isEmail: 'email', isUrl: 'uri', isUUID: 'uuid', isDateString: 'date-time', isISO8601: 'date-time', v1DateTime: 'date-time' };

/** The /v1 rules that let an absent member pass (only Required() refuses one), so they imply no requirement. */
const ABSENT_PASSES = /^v1/;

function metadatasOf(cls: Function): ValidationMetadata[] {
  return getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
}

function nestedClassOf(cls: Function, property: string): Function | undefined {
  const meta = defaultMetadataStorage.findTypeMetadata(cls, property);
  const t = meta?.typeFunction?.();
  return typeof t === 'function' && t !== Object && t !== Array ? t : undefined;
}

function designTypeOf(cls: Function, property: string): unknown {
  return Reflect.getMetadata?.('design:type', cls.prototype, property);
}

function typeOfDesign(t: unknown): JsonSchema {
  switch (t) {
    case String:
      return { type: 'string' };
    case Number:
      return { type: 'number' };
    case Boolean:
      return { type: 'boolean' };
    case Array:
      return { type: 'array' };
    case Date:
      return { type: 'string', format: 'date-time' };
    default:
      return {};
  }
}

/**
 * The JSON schema of a request DTO class: its validated members (nested classes inlined; a class
 * met again below itself is an object without members). `additionalProperties` is left open:
 * unknown members are ignored (whitelisted away), not refused.
 */
export function schemaOfClass(cls: Function, seen: Function[] = []): JsonSchema {
  if (seen.includes(cls)) return { type: 'object' };
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const m of metadatasOf(cls)) {
    const list = byProperty.get(m.propertyName) ?? [];
    list.push(m);
    byProperty.set(m.propertyName, list);
  }
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [property, rules] of byProperty) {
    const { schema, isRequired } = memberSchema(cls, property, rules, [...seen, cls]);
    properties[property] = schema;
    if (isRequired) required.push(property);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length) schema.required = required;
  return schema;
}

function memberSchema(cls: Function, property: string, rules: ValidationMetadata[], seen: Function[]): { schema: JsonSchema; isRequired: boolean } {
  const conditional = rules.some((r) => r.type === ValidationTypes.CONDITIONAL_VALIDATION);
  let isRequired = rules.some((r) => r.type === ValidationTypes.IS_DEFINED || r.name === 'v1Required');
  const self: JsonSchema = {};
  const each: JsonSchema = {};
  let nested = false;
  let nestedEach = false;
  for (const r of rules) {
    if (r.type === ValidationTypes.NESTED_VALIDATION) {
      if (r.each) nestedEach = true;
      else nested = true;
      if (!conditional) isRequired = true;
      continue;
    }
    if (r.type !== ValidationTypes.CUSTOM_VALIDATION || !r.name) continue;
    if (!conditional && !ABSENT_PASSES.test(r.name)) isRequired = true;
    if (ABSENT_PASSES.test(r.name) && (r.constraints?.[0] as { required?: boolean } | undefined)?.required === true) isRequired = true;
    applyRule(r.each ? each : self, r);
  }
  const nestedCls = nested || nestedEach ? nestedClassOf(cls, property) : undefined;
  if (nestedCls) {
    const inner = schemaOfClass(nestedCls, seen);
    // ObjectList: `each` object rules on an array (IsArray) -> an array of the class; else the class itself
    if (nestedEach || self.type === 'array') Object.assign(each, inner);
    else Object.assign(self, inner);
  }
  if (Object.keys(each).length || nestedEach) {
    self.type = 'array';
    self.items = each;
  }
  if (!self.type && !self.enum) Object.assign(self, typeOfDesign(designTypeOf(cls, property)));
  if (self.type === 'array' && !self.items) self.items = {};
  return { schema: self, isRequired };
}

function applyRule(s: JsonSchema, r: ValidationMetadata): void {
  const name = r.name!;
  const c = r.constraints ?? [];
  const type = TYPE_OF_RULE[name];
  // an integer rule narrows a number; a number bound keeps an integer
  if (type && (!s.type || (s.type === 'number' && type === 'integer'))) s.type = type;
  if (FORMATS[name]) s.format = FORMATS[name];
  const keyword = KEYWORD_OF_RULE.get(name);
  if (keyword) {
    s[keyword] = c[0];
    return;
  }
  switch (name) {
    case 'isIn':
      if (Array.isArray(c[0])) {
        s.enum = [...c[0]];
        if (!s.type && c[0].length && c[0].every((v: unknown) => typeof v === 'string')) s.type = 'string';
      }
      break;
    case 'isLength':
      if (typeof c[0] === 'number') s.minLength = c[0];
      if (typeof c[1] === 'number') s.maxLength = c[1];
      break;
    case 'matches':
      if (c[0] instanceof RegExp) s.pattern = c[0].source;
      else if (typeof c[0] === 'string') s.pattern = c[0];
      break;
    case 'arrayNotEmpty':
      s.minItems = Math.max(1, s.minItems ?? 0);
      break;
    case 'isNotEmpty':
      break;
    default: {
      // the /v1 rules carry their options as their constraint (v1-rules.ts)
      const o = c[0] as { min?: number; max?: number; values?: readonly string[]; nullable?: boolean; maxItemLength?: number; pattern?: RegExp } | undefined;
      if (!o || typeof o !== 'object') break;
      if (name === 'v1String' || name === 'v1Str') {
        if (o.min) s.minLength = o.min;
        if (typeof o.max === 'number') s.maxLength = o.max;
        if (o.pattern instanceof RegExp) s.pattern = o.pattern.source;
      }
      if (name === 'v1Integer' || name === 'v1Int') {
        if (typeof o.min === 'number') s.minimum = o.min;
        if (typeof o.max === 'number') s.maximum = o.max;
      }
      if ((name === 'v1Choice' || name === 'v1Enum') && o.values) s.enum = [...o.values];
      if (name === 'v1StringList') s.items = { type: 'string', minLength: 1, ...(o.maxItemLength ? { maxLength: o.maxItemLength } : {}) };
      if (o.nullable && s.type) s.type = [s.type, 'null'];
      if (o.nullable && s.enum) s.enum.push(null);
    }
  }
}

/**
 * A /v2 batch request body: `data`, 1 or more items of the item class, each with the JSON:API
 * `type` runBatch requires (core/batch), as the published envelopes are.
 */
export function batchBodySchema(itemClass: Function, type: string, description?: string): JsonSchema {
  const item = schemaOfClass(itemClass);
  item.properties = { type: { type: 'string', enum: [type] }, ...item.properties };
  item.required = [...new Set(['type', ...(item.required ?? [])])];
  const data: JsonSchema = { type: 'array', minItems: 1, items: item };
  if (description) data.description = description;
  return { type: 'object', required: ['data'], properties: { data } };
}

const isEmptyObjectSchema = (s: JsonSchema | undefined): boolean =>
  !!s && (s.type === 'object' || s.type === undefined) && !s.$ref && !s.allOf && !s.oneOf && !s.anyOf && !s.items && !s.enum && Object.keys(s.properties ?? {}).length === 0;

/**
 * The request body class of every route handler, by the operationId @nestjs/swagger gives it
 * (`<Controller>_<method>`): the declared type of its whole-body @Body() parameter.
 */
export function bodyClassesByOperation(controllers: Function[]): Map<string, Function> {
  const out = new Map<string, Function>();
  for (const cls of controllers) {
    for (const method of Object.getOwnPropertyNames(cls.prototype)) {
      if (method === 'constructor') continue;
      const t = bodyClassOf(cls, method);
      if (t) out.set(`${cls.name}_${method}`, t);
    }
  }
  return out;
}

/**
 * The class of a handler's whole-body @Body() parameter (its declared TypeScript type), or
 * undefined (no body parameter, a named member `@Body('x')`, or a type without members such as
 * `unknown`). Read by the OpenAPI request schemas above and by the form reader (form-bodies.ts,
 * through the route config @V1() records).
 */
export function bodyClassOf(cls: Function, method: string): Function | undefined {
  const args = Reflect.getMetadata?.(ROUTE_ARGS_METADATA, cls, method) as Record<string, { index: number; data?: unknown }> | undefined;
  if (!args) return undefined;
  for (const [key, arg] of Object.entries(args)) {
    if (key.split(':')[0] !== String(RouteParamtypes.BODY) || arg.data !== undefined) continue;
    const types = Reflect.getMetadata?.('design:paramtypes', cls.prototype, method) as unknown[] | undefined;
    const t = types?.[arg.index];
    if (typeof t === 'function' && t !== Object && t !== Array && t !== String) return t;
  }
  return undefined;
}

/**
 * Give every request body that @nestjs/swagger described without members (a DTO without
 * @ApiProperty) the schema of its validated class: the component schema when one class has that
 * name, else (two body classes of one name) the operation's own inline schema. Schemas that have
 * members (annotated DTOs, the published /v2 shapes) are left as they are. Returns the operations
 * changed.
 */
export function completeRequestSchemas(doc: { paths?: Record<string, any>; components?: { schemas?: Record<string, any> } }, controllers: Function[]): string[] {
  const schemas = doc.components?.schemas ?? {};
  const bodies = bodyClassesByOperation(controllers);
  const classesOfName = new Map<string, Set<Function>>();
  for (const cls of bodies.values()) classesOfName.set(cls.name, (classesOfName.get(cls.name) ?? new Set()).add(cls));
  const done: string[] = [];
  const generated = new Map<Function, JsonSchema>();
  const schemaOf = (cls: Function) => generated.get(cls) ?? generated.set(cls, schemaOfClass(cls)).get(cls)!;
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values<any>(item ?? {})) {
      const cls = op?.operationId ? bodies.get(op.operationId) : undefined;
      const media = op?.requestBody?.content?.['application/json'];
      if (!cls || !media?.schema) continue;
      const ref: string | undefined = media.schema.$ref;
      const name = ref?.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined;
      const current = name ? schemas[name] : media.schema;
      if (!isEmptyObjectSchema(current)) continue;
      const own = schemaOf(cls);
      if (!Object.keys(own.properties).length) continue;
      if (name && name === cls.name && classesOfName.get(name)!.size === 1) schemas[name] = { ...own, ...(current.description ? { description: current.description } : {}) };
      else media.schema = own;
      done.push(op.operationId);
    }
  }
  return done;
}
