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

/** An extension member's options (CONVENTIONS §13, §15): `{'x-extension': true}` and the rest. */
export const ext = <O extends object>(options?: O) => ({ ...options, 'x-extension': true as const });

/**
 * A declaration as the schema of an @ApiResponse: the same object, typed loosely (@nestjs/swagger's
 * types are OpenAPI 3.0's, where TypeBox's numeric bounds and `type` arrays are 3.1's).
 */
export const responseSchema = (schema: TSchema): Record<string, any> => schema;
