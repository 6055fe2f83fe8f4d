import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';

/**
 * A writer's output against the declaration it writes (core/openapi/declared-shape.ts): ajv over the
 * declared schema with every declared object closed (`additionalProperties: false`), so a member the
 * declaration does not have, a missing required member, a wrong type, enum or format is an error.
 * For the specs of the JSON writers kept beside a declaration (compiled or by hand), so the two cannot
 * drift.
 */
const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
addFormats(ajv, ['date-time', 'date', 'email', 'uri']);

function closed(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(closed);
  if (!s || typeof s !== 'object') return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) out[k] = closed(v);
  if (out.properties && typeof out.properties === 'object' && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

const compiled = new WeakMap<TSchema, ReturnType<typeof ajv.compile>>();

/** The violations of `value` against `schema` (`path: message`); [] when it conforms. */
export function declaredViolations(schema: TSchema, value: unknown): string[] {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(closed(schema) as object)));
  return validate(value)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
}
