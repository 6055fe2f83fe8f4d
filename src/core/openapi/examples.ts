import type { JsonSchema } from './published';

/**
 * An example value of a request body schema, for /docs "try it out" and generated clients: the
 * schema's own `example`/`examples`/`default` where it has one, else the first enum value, else a
 * value of its type and format. Objects show their required members and the other writable
 * members (read-only ones left out), arrays one item; recursion stops at depth 6.
 */
const PUBLISHED_REF = /^#\/components\/schemas\/v[12]\./;
const byRef = new Map<string, unknown>();
const computing = new Set<string>();

export function exampleOf(schema: JsonSchema | undefined, resolve: (ref: string) => JsonSchema | undefined, depth = 0, seen: string[] = []): unknown {
  if (!schema || typeof schema !== 'object' || depth > 6) return undefined;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    if (seen.includes(ref) || computing.has(ref)) return undefined;
    // the published schemas are the same in every document of the process: their examples are computed once
    const cacheable = PUBLISHED_REF.test(ref);
    if (cacheable && byRef.has(ref)) return byRef.get(ref);
    computing.add(ref);
    try {
      const v = exampleOf(resolve(ref), resolve, cacheable ? 0 : depth, cacheable ? [ref] : [...seen, ref]);
      if (cacheable) byRef.set(ref, v);
      return v;
    } finally {
      computing.delete(ref);
    }
  }
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((v: unknown) => v !== null && v !== '') ?? schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  for (const k of ['allOf', 'oneOf', 'anyOf']) {
    if (!Array.isArray(schema[k])) continue;
    if (k === 'allOf') {
      const parts = schema[k].map((s: JsonSchema) => exampleOf(s, resolve, depth, seen));
      if (parts.every((p: unknown) => p && typeof p === 'object' && !Array.isArray(p))) return Object.assign({}, ...parts);
      return parts.find((p: unknown) => p !== undefined);
    }
    for (const s of schema[k]) {
      const v = exampleOf(s, resolve, depth, seen);
      if (v !== undefined && v !== null) return v;
    }
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type ?? (schema.properties ? 'object' : undefined)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [name, member] of Object.entries<JsonSchema>(schema.properties ?? {})) {
        if (member?.readOnly && !required.has(name)) continue;
        const v = exampleOf(member, resolve, depth + 1, seen);
        if (v !== undefined) out[name] = v;
      }
      return out;
    }
    case 'array': {
      const item = exampleOf(schema.items, resolve, depth + 1, seen);
      return item === undefined ? [] : [item];
    }
    case 'string':
      return stringExample(schema);
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1.5;
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}

function stringExample(s: JsonSchema): string {
  switch (s.format) {
    case 'email':
      return 'ada@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/';
    case 'date-time':
      return '2026-01-15T09:30:00Z';
    case 'date':
      return '2026-01-15';
    case 'uuid':
      return '3fa85f64-5717-4562-b3fc-2c963f66afa6';
    case 'binary':
      return '';
    default: {
      const text = 'string';
      return typeof s.minLength === 'number' && s.minLength > text.length ? text.padEnd(s.minLength, 'x') : text;
    }
  }
}
