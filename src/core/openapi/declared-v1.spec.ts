import { DECLARED_V1 } from './declared-shape';
import { published, type JsonSchema } from './published';
import { loadDeclaringModules } from './served-components';

/**
 * Every /v1 shape declared with `declaredV1` (issue 26 point 1, docs/decisions/serialization.md)
 * against the published components it names: every published member (not writeOnly) is declared,
 * with a compatible type (integer for number; an enum within the published one; a date-time where
 * the document says date-time) and nullability (null only where published), required where the
 * published component requires it; every declared member beyond the published ones carries
 * `x-extension: true` (a declaration naming several components, a detail and its list item, may
 * have a top-level member of one in the other). The declaring files are found by their `declaredV1(` call, so a new
 * declaration is checked without being listed here.
 */

interface Shape {
  /** JSON types other than null; undefined: any */
  types?: Set<string>;
  nullable: boolean;
  enum?: unknown[];
  format?: string;
  properties?: Record<string, JsonSchema>;
  required: Set<string>;
  items?: JsonSchema;
  /** a oneOf/anyOf of several non-null branches */
  branches?: JsonSchema[];
  extension: boolean;
  writeOnly: boolean;
  /** the departures from the published member the declaration names (`deviates` in declared-shape.ts) */
  deviation: { leftOut?: string; null?: string };
}

const components = () => published().v1.schemas;

function shapeOf(s: JsonSchema): Shape {
  const out: Shape = { nullable: false, required: new Set(), extension: s['x-extension'] === true, writeOnly: s.writeOnly === true, deviation: s['x-deviation'] ?? {} };
  let cur: JsonSchema = s;
  for (let guard = 0; guard < 20; guard++) {
    if (typeof cur.$ref === 'string') {
      cur = { ...components()[cur.$ref.split('/').pop()!], ...omit(cur, '$ref') };
      continue;
    }
    if (Array.isArray(cur.allOf) && cur.allOf.length === 1) {
      cur = { ...cur.allOf[0], ...omit(cur, 'allOf') };
      continue;
    }
    const alt = cur.oneOf ?? cur.anyOf;
    if (Array.isArray(alt)) {
      const rest = alt.filter((b: JsonSchema) => {
        const r = b.$ref ? components()[b.$ref.split('/').pop()] : b;
        const isNull = r.type === 'null' || (Array.isArray(r.enum) && r.enum.every((v: unknown) => v === null));
        if (isNull) out.nullable = true;
        return !isNull;
      });
      const base = omit(omit(cur, 'oneOf'), 'anyOf');
      if (rest.length === 1) {
        cur = { ...base, ...rest[0] };
        continue;
      }
      out.branches = rest;
      return out;
    }
    break;
  }
  const types = cur.type === undefined ? undefined : ((Array.isArray(cur.type) ? cur.type : [cur.type]) as string[]);
  if (types?.includes('null')) out.nullable = true;
  if (types) out.types = new Set(types.filter((t) => t !== 'null'));
  if (cur.const !== undefined) {
    out.enum = [cur.const];
    out.types ??= new Set([typeof cur.const === 'number' ? 'number' : typeof cur.const]);
  }
  if (Array.isArray(cur.enum)) {
    if (cur.enum.includes(null)) out.nullable = true;
    out.enum = cur.enum.filter((v: unknown) => v !== null);
  }
  if (out.types?.size === 0 && !out.nullable) out.types = undefined;
  out.format = cur.format;
  out.properties = cur.properties;
  out.required = new Set(cur.required ?? []);
  out.items = cur.items;
  out.extension ||= cur['x-extension'] === true;
  out.writeOnly ||= cur.writeOnly === true;
  return out;
}

function omit(o: JsonSchema, k: string): JsonSchema {
  const { [k]: _, ...rest } = o;
  return rest;
}

const STRICT_FORMATS = new Set(['date-time', 'date']);

/** The violations of `declared` against `pub` at `at`. */
function compare(declared: JsonSchema, pub: JsonSchema, at: string, errors: string[], alsoPublished: Set<string> = new Set()): void {
  const d = shapeOf(declared);
  const p = shapeOf(pub);
  if (p.branches) {
    // a polymorphic published member: the declaration must fit one branch
    const fits = p.branches.some((b) => {
      const e: string[] = [];
      compare(declared, b, at, e);
      return e.every((m) => p.nullable && m === `${at}: is nullable, the published member is not`);
    });
    if (!fits) errors.push(`${at}: fits none of the published alternatives`);
    return;
  }
  if (d.nullable && !p.nullable && !d.deviation.null) errors.push(`${at}: is nullable, the published member is not`);
  if (!p.types) return; // published: any value
  if (!d.types || d.branches) {
    errors.push(`${at}: declared without a type, published ${[...p.types].join('|')}`);
    return;
  }
  for (const t of d.types) if (!p.types.has(t) && !(t === 'integer' && p.types.has('number'))) errors.push(`${at}: declared ${t}, published ${[...p.types].join('|')}`);
  if (p.enum && d.enum) for (const v of d.enum) if (!p.enum.includes(v)) errors.push(`${at}: ${JSON.stringify(v)} is not in the published enum`);
  if (p.format && STRICT_FORMATS.has(p.format) && d.format !== p.format) errors.push(`${at}: published format ${p.format}, declared ${d.format ?? 'none'}`);
  if (p.types.has('array') && d.types.has('array') && p.items && d.items) compare(d.items, p.items, `${at}[]`, errors);
  if (p.types.has('object') && d.types.has('object') && p.properties) {
    const dp = d.properties ?? {};
    for (const [name, ps] of Object.entries(p.properties)) {
      if (shapeOf(ps).writeOnly) continue;
      if (!(name in dp)) {
        errors.push(`${at}.${name}: published, not declared`);
        continue;
      }
      if (p.required.has(name) && !d.required.has(name) && !shapeOf(dp[name]).deviation.leftOut) errors.push(`${at}.${name}: required in the published component, optional here`);
      compare(dp[name], ps, `${at}.${name}`, errors);
    }
    for (const [name, ds] of Object.entries(dp))
      if (!(name in p.properties) && !alsoPublished.has(name) && !shapeOf(ds).extension) errors.push(`${at}.${name}: not published and not marked x-extension`);
  }
}

describe('the declared /v1 shapes against the published components', () => {
  beforeAll(() => {
    loadDeclaringModules();
  });

  it('registers the declarations', () => {
    expect(DECLARED_V1.length).toBeGreaterThan(0);
  });

  it('declares every published member with its type and nullability, and marks every extension', () => {
    const errors: string[] = [];
    for (const { published: names, schema } of DECLARED_V1) {
      // one presenter answering several published components (a detail and its list item): a top-level member published by one of them is not an extension of the other
      const members = new Set(names.flatMap((n) => Object.keys(shapeOf({ $ref: `#/components/schemas/v1.${n}` }).properties ?? {})));
      for (const name of names) {
        const pub = components()[`v1.${name}`];
        if (!pub) {
          errors.push(`${name}: no such published component`);
          continue;
        }
        compare(schema as JsonSchema, { $ref: `#/components/schemas/v1.${name}` }, name, errors, members);
      }
    }
    expect(errors).toEqual([]);
  });

  it('fails a declaration that leaves out a published member, makes one nullable, or adds an unmarked member', () => {
    const errors: string[] = [];
    compare(
      { type: 'object', required: ['name'], properties: { name: { type: ['string', 'null'] }, extra: { type: 'string' }, marked: { type: 'string', 'x-extension': true } } },
      { $ref: '#/components/schemas/v1.Tag' },
      'Tag',
      errors,
    );
    expect(errors.sort()).toEqual([
      'Tag.extra: not published and not marked x-extension',
      'Tag.id: published, not declared',
      'Tag.name: is nullable, the published member is not',
      'Tag.slug: published, not declared',
    ]);
  });

  it('allows only the departures a declaration names, each with its reason', () => {
    const errors: string[] = [];
    const viltSession = (seats: object) => ({
      type: 'object',
      required: ['id', 'display_name', 'lesson'],
      properties: {
        id: { type: 'string' },
        display_name: { type: 'string' },
        lesson: {
          type: 'object',
          required: ['course'],
          properties: { id: { type: 'string' }, title: { type: 'string' }, course: { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' } } } },
        },
        registration_count: { type: 'integer' },
        instructor_name: { type: 'string' },
        seats_total: seats,
      },
    });
    // left out with its reason: allowed; left out without one, or null under a leftOut reason: not
    compare(viltSession({ type: 'integer', 'x-deviation': { leftOut: 'unlimited' } }), { $ref: '#/components/schemas/v1.ViltSession' }, 'A', errors);
    compare(viltSession({ type: 'integer' }), { $ref: '#/components/schemas/v1.ViltSession' }, 'B', errors);
    compare(viltSession({ type: ['integer', 'null'], 'x-deviation': { leftOut: 'unlimited' } }), { $ref: '#/components/schemas/v1.ViltSession' }, 'C', errors);
    compare(viltSession({ type: ['integer', 'null'], 'x-deviation': { null: 'unlimited' } }), { $ref: '#/components/schemas/v1.ViltSession' }, 'D', errors);
    expect(errors.sort()).toEqual([
      'B.seats_total: required in the published component, optional here',
      'C.seats_total: is nullable, the published member is not',
      'D.seats_total: required in the published component, optional here',
    ]);
  });
});
