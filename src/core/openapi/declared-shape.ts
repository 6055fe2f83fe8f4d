import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import fastJson from 'fast-json-stringify';

/**
 * One declaration per answer shape (docs/decisions/serialization.md).
 *
 * A shape is a TypeBox schema: a plain JSON Schema object (what /openapi.json and the tests read)
 * whose TypeScript type is `Static<typeof Schema>` (what the presenter answers: a member left out of
 * the presenter, or one the schema does not declare, is a compile error), and from which the
 * serializer is compiled (fast-json-stringify, the serializer Fastify itself uses for route response
 * schemas). The presenter keeps the rules (ids, links, statuses); the serializer only writes.
 *
 * Published nullability (docs/decisions/conformance.md, "Leaving out what has no value"): a member
 * the published schema makes nullable is `nullable(...)` and required (written as `null`); an
 * optional, not nullable one is `Type.Optional(...)` and left out when the presenter leaves it out.
 * The compiled serializer writes the required members first, then the optional ones (JSON member
 * order carries no meaning; the published schemas list them either way).
 */

/** `schema`, or null: `type: [t, "null"]` (OpenAPI 3.1 / JSON Schema, as our document writes `nullable`). */
export function nullable<T extends TSchema & { type: string }>(schema: T) {
  // an enum names null too, or a null would fail it
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'], ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}) });
}

/**
 * One of the given strings: `{type: "string", enum}` (a TypeBox union of literals would be an
 * `anyOf`, which fast-json-stringify resolves by validating each branch: several times slower).
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string; 'x-extension'?: boolean } = {}) {
  // typed with its `type`, so that `nullable(StringEnum([...]))` is a `type: ["string", "null"]` enum
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options }) as TUnsafe<T[number]> & { type: 'string' };
}

/** One of the given strings, or null: `{type: ["string", "null"], enum: [...values, null]}`. */
export function NullableStringEnum<const T extends readonly string[]>(values: T, options: { description?: string; 'x-extension'?: boolean } = {}) {
  return Type.Unsafe<T[number] | null>({ type: ['string', 'null'], enum: [...values, null], ...options });
}

/** An ISO 8601 instant as the presenter writes it (toISOString). */
export const DateTime = (options: { description?: string; 'x-extension'?: boolean } = {}) => Type.String({ format: 'date-time', ...options });

/** An opaque public id (docs/conventions.md: typed, opaque string ids). */
export const PublicId = (options: { description?: string; 'x-extension'?: boolean } = {}) => Type.String(options);

/** A JSON:API resource identifier `{type, id}` of a fixed type. */
export const Identifier = <K extends string>(type: K) => Type.Object({ type: Type.Literal(type), id: PublicId() });

/** A to-one relationship `{data: {type, id}}`. */
export const ToOne = <K extends string>(type: K) => Type.Object({ data: Identifier(type) });

export type Serializer<S extends TSchema> = (value: Static<S>) => string;

/**
 * The compiled serializer of `schema`: the JSON text of a value of its type. Members the schema
 * does not declare are not written; a required member missing throws (a bug, never a silent gap).
 */
export function compileSerializer<S extends TSchema>(schema: S): Serializer<S> {
  return fastJson(schema as object) as Serializer<S>;
}

/** `{self}`: the address of a /v2 resource. */
export const SelfLink = () => Type.Object({ self: Type.String({ format: 'uri', description: "The resource's own address." }) });

/** A to-one relationship `{data: {type, id}}` with a description (the document shows it). */
export const Related = <K extends string>(type: K, description: string) => Type.Object({ data: Identifier(type) }, { description });

type Described = { description?: string };

/**
 * A /v2 JSON:API resource object `{type, id, attributes, links: {self}}` (core/http/v2-resource-kit.ts
 * v2Resource): `attributes` is the resource's own TypeBox object.
 */
export function V2ResourceSchema<K extends string, A extends TSchema>(type: K, attributes: A, options: Described = {}) {
  return Type.Object({ type: Type.Literal(type, { description: `Always "${type}".` }), id: PublicId({ description: 'Opaque id.' }), attributes, links: SelfLink() }, options);
}

/** A /v2 resource with relationships: `{type, id, attributes, relationships, links: {self}}`. */
export function V2RelatedResourceSchema<K extends string, A extends TSchema, R extends TSchema>(type: K, attributes: A, relationships: R, options: Described = {}) {
  return Type.Object({ type: Type.Literal(type, { description: `Always "${type}".` }), id: PublicId({ description: 'Opaque id.' }), attributes, relationships, links: SelfLink() }, options);
}

/** A /v2 resource without a self link (nothing reads it back): `{type, id, attributes}`. */
export function V2UnlinkedResourceSchema<K extends string, A extends TSchema>(type: K, attributes: A, options: Described = {}) {
  return Type.Object({ type: Type.Literal(type, { description: `Always "${type}".` }), id: PublicId({ description: 'Opaque id.' }), attributes }, options);
}

/** A /v2 resource with relationships and no self link: `{type, id, attributes, relationships}`. */
export function V2UnlinkedRelatedResourceSchema<K extends string, A extends TSchema, R extends TSchema>(type: K, attributes: A, relationships: R, options: Described = {}) {
  return Type.Object({ type: Type.Literal(type, { description: `Always "${type}".` }), id: PublicId({ description: 'Opaque id.' }), attributes, relationships }, options);
}

/** A single-resource document `{data}`. */
export const V2DocumentSchema = <T extends TSchema>(resource: T) => Type.Object({ data: resource });

const uriOrNull = (description: string) => nullable(Type.String({ format: 'uri', description }));

/** A cursor page `{data, links, meta, has_more, next_cursor}` (core/pagination/cursor-page.ts ListDocument). */
export const V2PageSchema = <T extends TSchema>(resource: T) =>
  Type.Object({
    data: Type.Array(resource, { description: 'The resources on this page, in cursor order.' }),
    links: Type.Object({
      self: Type.String({ format: 'uri' }),
      next: uriOrNull('The next page; null on the last page.'),
      prev: uriOrNull('Always null (forward-only cursors).'),
    }),
    meta: Type.Object({ page_size: Type.Integer() }),
    has_more: Type.Boolean({ description: 'Whether more pages follow.' }),
    next_cursor: nullable(Type.String({ description: 'The `page[cursor]` of the next page; null on the last page.' })),
  });

/** The batch item error codes (core/batch/batch.ts ItemCode). */
const ITEM_CODES = ['not_found', 'validation_error', 'duplicate_in_batch', 'internal_error', 'conflict', 'not_in_domain', 'already_enrolled', 'already_published'] as const;

/**
 * A batch answer `{data: [item results in request order], summary}` (core/batch/batch.ts runBatch),
 * the same for 200 (every item succeeded) and 207 (some failed); a succeeded item carries `result`.
 */
export const V2BatchSchema = <T extends TSchema>(resource: T) =>
  Type.Object({
    data: Type.Array(
      Type.Union([
        Type.Object({ status: Type.Literal('succeeded'), id: PublicId({ description: 'The opaque id of the resource.' }), result: resource }, { description: 'A processed item.' }),
        Type.Object(
          {
            status: Type.Literal('failed'),
            id: Type.Null({ description: 'Always null.' }),
            error: Type.Object({
              code: StringEnum(ITEM_CODES),
              detail: Type.String(),
              source: Type.Object({ pointer: Type.String({ description: 'JSON pointer of the failing member in the request body.' }) }),
            }),
          },
          { description: 'A failed item.' },
        ),
      ]),
      { description: 'Per-item results, in request order.' },
    ),
    summary: Type.Object({ total: Type.Integer({ minimum: 0 }), succeeded: Type.Integer({ minimum: 0 }), failed: Type.Integer({ minimum: 0 }) }),
  });

/**
 * A declared schema as @nestjs/swagger's `@ApiResponse({schema})` takes it: the same object (the
 * served /openapi.json answer is the declaration; its TypeBox symbols are not JSON). Only the
 * TypeScript type differs (TypeBox types `exclusiveMaximum` as a number, OpenAPI 3.0 as a boolean).
 */
export const openApi = (schema: TSchema): Record<string, any> => schema;
/** A /v1 shape declared against the published component(s) it answers (`Course` is `v1.Course`). */
export interface DeclaredV1 {
  published: string[];
  schema: TSchema;
}

/** Every /v1 shape declared with `declaredV1` (src/core/openapi/declared-v1.spec.ts checks each against its published components). */
export const DECLARED_V1: DeclaredV1[] = [];

/**
 * Declares a /v1 answer shape: the published component's members (same types and nullability,
 * published nullability: docs/decisions/conformance.md) plus our extension members, each marked
 * `'x-extension': true`. Registered so that the spec checks it against every named component.
 */
export function declaredV1<S extends TSchema>(published: string | string[], schema: S): S {
  DECLARED_V1.push({ published: typeof published === 'string' ? [published] : published, schema });
  return schema;
}

/** A /v2 resource shape declared against the published component it answers (`StudentResource` is `v2.StudentResource`). */
export interface DeclaredV2 {
  published: string;
  schema: TSchema;
}

/**
 * Every /v2 shape declared with `declaredV2`: /openapi.json serves the declaration as its published
 * component (core/openapi/served-components.ts; test/platform/declared-shapes checks it against the component).
 */
export const DECLARED_V2: DeclaredV2[] = [];

/** Declares a /v2 resource shape as the published component `published` (its members, plus ours marked `x-extension`). */
export function declaredV2<S extends TSchema>(published: string, schema: S): S {
  DECLARED_V2.push({ published, schema });
  return schema;
}

/** An extension member's options (CONVENTIONS §13, §15): `{'x-extension': true}` and the rest. */
export const ext = <O extends object>(options?: O) => ({ ...options, 'x-extension': true as const });

/**
 * A member that departs from its published declaration, each departure with its reason
 * (docs/decisions/conformance.md, "Allowed exceptions"): `leftOut`, a member the published component
 * requires is left out when it has no value; `null`, a member it does not make nullable is `null`.
 * declared-v1.spec.ts allows exactly the departures named, nothing else.
 */
export const deviates = <O extends object>(reasons: { leftOut?: string; null?: string }, options?: O) => ({ ...options, 'x-deviation': reasons });
