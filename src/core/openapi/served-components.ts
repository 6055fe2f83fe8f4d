import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { DECLARED_V1, DECLARED_V2 } from './declared-shape';
import { nullableTo31 } from './nullable';
import { JsonSchema, published } from './published';

/**
 * The component schemas GET /openapi.json serves for the published components a declaration
 * covers (docs/decisions/openapi.md, "Served from the declarations"): a /v1 `declaredV1(names, schema)`
 * covers `v1.<name>` for each name, a /v2 `declaredV2(name, schema)` covers `v2.<name>`. The served
 * component is the declaration (the published members with their published types and nullability,
 * checked by src/core/openapi/declared-v1.spec.ts and test/platform/declared-shapes, plus our members
 * marked `x-extension`), as plain JSON (TypeBox's symbols left out), under the published name: every
 * `$ref` of the document keeps its target, so a generated client keeps its type names.
 *
 * Inside a declaration, a member whose published counterpart is a `$ref` to a component (an enum, a
 * nested object) keeps that `$ref` where the declaration says the same as the served component
 * (same validation keywords; descriptions and other annotations aside): `v1.CourseAndLessonTimeFormatEnum`
 * stays named. Elsewhere the declared member is served inline: it says what we answer.
 * Published annotations the declaration does not carry (`description`, `readOnly`) are added to it.
 *
 * A component two declarations cover (a detail and the same detail with more members: the /v1
 * WebHook and its rotate-secret answer) serves the one whose members the other has too; two that
 * disagree otherwise are a conflict: the published schema stays, and the conflict is reported.
 */
export interface DeclaredComponents {
  /** served schema by component name (`v1.Course`) */
  schemas: Map<string, JsonSchema>;
  /** components covered by declarations that disagree (served as published) */
  conflicts: string[];
}

const PREFIX = '#/components/schemas/';
const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', 'readOnly', 'writeOnly', 'default', 'deprecated', '$id', '$comment']);

let cache: { key: string; value: DeclaredComponents } | undefined;

/** The served declarations, computed once per set of registered declarations (the registries only grow as modules load) and frozen: every document built in the process shares them. */
export function declaredComponents(): DeclaredComponents {
  loadDeclaringModules();
  const key = `${DECLARED_V1.length}/${DECLARED_V2.length}`;
  if (cache?.key === key) return cache.value;
  const value = computeDeclaredComponents();
  deepFreeze(value);
  cache = { key, value };
  return value;
}

function deepFreeze(o: unknown): void {
  if (!o || typeof o !== 'object' || Object.isFrozen(o)) return;
  if (o instanceof Map) for (const v of o.values()) deepFreeze(v);
  else for (const v of Object.values(o)) deepFreeze(v);
  Object.freeze(o);
}

function computeDeclaredComponents(): DeclaredComponents {
  const pub = published();
  const all: Record<string, JsonSchema> = { ...pub.v1.schemas, ...pub.v2.schemas };
  const candidates = new Map<string, JsonSchema[]>();
  const add = (name: string, schema: unknown) => {
    if (!all[name]) return; // a name no published document has: declared-v1.spec and declared-shapes report it
    const plain = JSON.parse(JSON.stringify(schema)) as JsonSchema;
    const list = candidates.get(name) ?? candidates.set(name, []).get(name)!;
    if (!list.some((s) => JSON.stringify(s) === JSON.stringify(plain))) list.push(plain);
  };
  for (const d of DECLARED_V1) for (const n of d.published) add(`v1.${n}`, d.schema);
  for (const d of DECLARED_V2) add(`v2.${d.published}`, d.schema);

  const conflicts: string[] = [];
  const chosen = new Map<string, JsonSchema>();
  for (const [name, list] of candidates) {
    // the one that has every other's members and only optional ones more (the /v1 PublishedCourse with its
    // include_searchable_content extensions, beside a series' course), else the one every other extends
    const widest = list.find((s) => list.every((o) => o === s || extendsOptionally(s, o)));
    const base = list.find((s) => list.every((o) => o === s || contains(o, s)));
    if (widest ?? base) chosen.set(name, (widest ?? base)!);
    else conflicts.push(name);
  }

  const served = new Map<string, JsonSchema>();
  const inProgress = new Set<string>();
  /** What the document serves as `name`: the walked declaration, or the published schema. */
  const servedOf = (name: string): JsonSchema | undefined => {
    const declared = chosen.get(name);
    if (!declared) return all[name];
    const done = served.get(name);
    if (done) return done;
    if (inProgress.has(name)) return declared;
    inProgress.add(name);
    const out = walk(declared, all[name], servedOf, all, true);
    nullableTo31(out);
    inProgress.delete(name);
    served.set(name, out);
    return out;
  };
  for (const name of chosen.keys()) servedOf(name);
  return { schemas: served, conflicts: conflicts.sort() };
}

const NO_REFS = (): undefined => undefined;

/** Whether `big` declares every member of `small`, each the same (annotations aside), and requires what it requires (the rotate-secret WebHook has the WebHook's members and two more). */
function contains(big: JsonSchema, small: JsonSchema): boolean {
  const bp = big.properties ?? {};
  const sp = small.properties ?? {};
  if (!small.properties || !big.properties) return false;
  for (const [k, v] of Object.entries(sp)) if (!(k in bp) || canonical(bp[k], NO_REFS) !== canonical(v, NO_REFS)) return false;
  const br = new Set<string>(big.required ?? []);
  return (small.required ?? []).every((r: string) => br.has(r));
}

/** Whether `big` contains `small` and requires nothing more: an answer of `small` is an answer of `big`. */
function extendsOptionally(big: JsonSchema, small: JsonSchema): boolean {
  if (!contains(big, small)) return false;
  const sr = new Set<string>(small.required ?? []);
  return (big.required ?? []).every((r: string) => sr.has(r));
}

let modulesLoaded = false;

/**
 * Loads every module file that declares a shape (`declaredV1(` / `declaredV2(` in its text; the
 * declaration specs load them the same way): a declaration only registers when its file is loaded, and a file
 * that services import for its types alone (`import type`) is not loaded by the application.
 */
export function loadDeclaringModules(): void {
  if (modulesLoaded) return;
  modulesLoaded = true;
  const visit = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) visit(p);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded for its registration, by a path found at run time
      else if (/\.(ts|js)$/.test(p) && !/\.(d|spec)\.(ts|js)$/.test(p) && /declaredV[12]\)?\(/.test(readFileSync(p, 'utf8'))) require(p);
    }
  };
  const root = join(__dirname, '..', '..', 'modules');
  if (existsSync(root)) visit(root);
}

type ServedOf = (name: string) => JsonSchema | undefined;

/**
 * The declared schema `d` served against its published counterpart `p`: the published `$ref`s kept
 * where the declaration says the same, published annotations added, the declaration otherwise.
 */
function walk(d: JsonSchema, p: JsonSchema | undefined, servedOf: ServedOf, all: Record<string, JsonSchema>, root = false): JsonSchema {
  if (!p || typeof d !== 'object' || d === null) return d;
  if (!root) {
    const kept = keptRef(d, p, servedOf, all);
    if (kept) return structuredClone(kept);
  }
  const pr = resolvedPublished(p, all);
  const out: JsonSchema = { ...d };
  if (pr) {
    if (d.properties && pr.properties) {
      out.properties = {};
      for (const [k, v] of Object.entries<JsonSchema>(d.properties)) out.properties[k] = walk(v, pr.properties[k], servedOf, all);
    }
    if (d.items && !Array.isArray(d.items) && pr.items && !Array.isArray(pr.items)) out.items = walk(d.items, pr.items, servedOf, all);
    const branches = d.anyOf ?? d.oneOf;
    if (Array.isArray(branches) && branches.filter((b: JsonSchema) => !isNull(b, all)).length === 1) {
      const key = d.anyOf ? 'anyOf' : 'oneOf';
      out[key] = branches.map((b: JsonSchema) => (isNull(b, all) ? b : walk(b, p, servedOf, all)));
    }
    if (out.description === undefined && typeof pr.description === 'string') out.description = pr.description;
    if (pr.readOnly === true && out.readOnly === undefined) out.readOnly = true;
  }
  return out;
}

/** The published member `p` itself when it names a component (`$ref`, possibly nullable) that serves what `d` declares. */
function keptRef(d: JsonSchema, p: JsonSchema, servedOf: ServedOf, all: Record<string, JsonSchema>): JsonSchema | undefined {
  const target = refTarget(p, all);
  if (!target) return undefined;
  const declared = withoutNull(d);
  if (declared.nullable !== target.nullable) return undefined;
  const component = servedOf(target.name);
  if (!component) return undefined;
  return canonical(declared.schema, servedOf) === canonical({ $ref: `${PREFIX}${target.name}` }, servedOf) ? p : undefined;
}

/** `{$ref}`, `{allOf: [{$ref}]}` or a `$ref` or null (`anyOf`/`oneOf` with a null branch): the component and whether null is allowed. */
function refTarget(p: JsonSchema, all: Record<string, JsonSchema>): { name: string; nullable: boolean } | undefined {
  const refName = (s: JsonSchema | undefined) => (typeof s?.$ref === 'string' && s.$ref.startsWith(PREFIX) ? s.$ref.slice(PREFIX.length) : undefined);
  if (refName(p)) return { name: refName(p)!, nullable: false };
  if (Array.isArray(p.allOf) && p.allOf.length === 1 && refName(p.allOf[0])) return { name: refName(p.allOf[0])!, nullable: false };
  const branches = p.anyOf ?? p.oneOf;
  if (Array.isArray(branches)) {
    const rest = branches.filter((b: JsonSchema) => !isNull(b, all));
    if (rest.length === 1 && rest.length < branches.length && refName(rest[0])) return { name: refName(rest[0])!, nullable: true };
  }
  return undefined;
}

/** `{type: "null"}`, or a component that allows only null (the published `NullEnum`). */
function isNull(s: JsonSchema, all: Record<string, JsonSchema>): boolean {
  const r = typeof s.$ref === 'string' ? all[s.$ref.slice(PREFIX.length)] : s;
  if (!r) return false;
  return r.type === 'null' || (Array.isArray(r.enum) && r.enum.length > 0 && r.enum.every((v: unknown) => v === null));
}

/** The declared schema without its null: `type: [t, "null"]` (and null in its enum), or an `anyOf` with a null branch. */
function withoutNull(d: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  if (Array.isArray(d.type) && d.type.includes('null')) {
    const types = d.type.filter((t: string) => t !== 'null');
    const out: JsonSchema = { ...d, type: types.length === 1 ? types[0] : types };
    if (Array.isArray(d.enum)) out.enum = d.enum.filter((v: unknown) => v !== null);
    return { schema: out, nullable: true };
  }
  const branches = d.anyOf ?? d.oneOf;
  if (Array.isArray(branches)) {
    const rest = branches.filter((b: JsonSchema) => b?.type !== 'null');
    if (rest.length === 1 && rest.length < branches.length) return { schema: rest[0], nullable: true };
  }
  return { schema: d, nullable: false };
}

/** The published schema a member stands for: its `$ref` (or single `allOf`, or non-null branch) resolved. */
function resolvedPublished(p: JsonSchema, all: Record<string, JsonSchema>): JsonSchema | undefined {
  let cur: JsonSchema | undefined = p;
  for (let guard = 0; cur && guard < 10; guard++) {
    if (typeof cur.$ref === 'string') {
      cur = all[cur.$ref.slice(PREFIX.length)];
      continue;
    }
    if (Array.isArray(cur.allOf) && cur.allOf.length === 1) {
      cur = { ...cur.allOf[0], ...without(cur, 'allOf') };
      continue;
    }
    const branches: JsonSchema[] | undefined = cur.anyOf ?? cur.oneOf;
    if (Array.isArray(branches)) {
      const rest = branches.filter((b) => !isNull(b, all));
      if (rest.length === 1) {
        cur = { ...rest[0], ...without(without(cur, 'anyOf'), 'oneOf') };
        continue;
      }
    }
    break;
  }
  return cur;
}

function without(o: JsonSchema, k: string): JsonSchema {
  const { [k]: _drop, ...rest } = o;
  return rest;
}

/**
 * The validation keywords of a schema as a string (annotations and `x-` keys left out, `$ref`s
 * resolved into what the document serves, `required` and `enum` sorted): two schemas that accept the
 * same values by the same rules compare equal.
 */
export function canonical(s: unknown, servedOf: ServedOf, seen: Set<string> = new Set()): string {
  return JSON.stringify(canonicalNode(s, servedOf, seen));
}

/** The canonical form of each component schema, by the schema object (published ones are shared and frozen; served ones are cached). */
const canonicalMemo = new WeakMap<object, unknown>();

function canonicalNode(s: unknown, servedOf: ServedOf, seen: Set<string>): unknown {
  if (Array.isArray(s)) return s.map((x) => canonicalNode(x, servedOf, seen));
  if (!s || typeof s !== 'object') return s;
  const o = s as JsonSchema;
  if (typeof o.$ref === 'string' && o.$ref.startsWith(PREFIX)) {
    const name = o.$ref.slice(PREFIX.length);
    if (seen.has(name)) return { $ref: name };
    const siblings = Object.keys(o).filter((k) => k !== '$ref' && !ANNOTATIONS.has(k) && !k.startsWith('x-'));
    const target = servedOf(name);
    if (!siblings.length && target) {
      let memo = canonicalMemo.get(target);
      if (memo === undefined) canonicalMemo.set(target, (memo = canonicalNode(target, servedOf, new Set([...seen, name]))));
      return memo;
    }
    const merged = { ...(target ?? {}), ...without(o, '$ref') };
    return canonicalNode(merged, servedOf, new Set([...seen, name]));
  }
  const out: Record<string, unknown> = {};
  const byJson = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));
  for (const k of Object.keys(o).sort()) {
    if (ANNOTATIONS.has(k) || k.startsWith('x-')) continue;
    if ((k === 'properties' || k === 'patternProperties') && o[k] && typeof o[k] === 'object') {
      // member names are not keywords: each member's schema, by name
      out[k] = Object.fromEntries(
        Object.keys(o[k])
          .sort()
          .map((name) => [name, canonicalNode(o[k][name], servedOf, seen)]),
      );
      continue;
    }
    let v = canonicalNode(o[k], servedOf, seen);
    if ((k === 'required' || k === 'enum' || k === 'anyOf' || k === 'oneOf') && Array.isArray(v)) v = [...v].sort(byJson);
    out[k] = v;
  }
  return nullForms(out, byJson);
}

/**
 * One form for the ways a schema says "X or null" (the published `oneOf: [X, NullEnum]`, 3.1's
 * `type: [t, "null"]` with null in the enum, `anyOf: [X, {type: null}]`) and for a lone `allOf: [X]`:
 * `anyOf: [X, {type: "null"}]`, and X itself.
 */
function nullForms(o: Record<string, any>, byJson: (a: unknown, b: unknown) => number): Record<string, any> {
  let out = o;
  if (Array.isArray(out.allOf) && out.allOf.length === 1) {
    const { allOf, ...rest } = out;
    out = { ...allOf[0], ...rest };
  }
  if (Array.isArray(out.oneOf) && !out.anyOf) {
    const { oneOf, ...rest } = out;
    out = { ...rest, anyOf: oneOf };
  }
  const isNullOnly = (b: any) => b && (b.type === 'null' || (Array.isArray(b.enum) && b.enum.length > 0 && b.enum.every((v: unknown) => v === null) && (b.type === undefined || b.type === 'null')));
  if (Array.isArray(out.type) && out.type.includes('null') && out.anyOf === undefined) {
    const types = out.type.filter((t: string) => t !== 'null');
    const base: Record<string, any> = { ...out, type: types.length === 1 ? types[0] : types };
    if (Array.isArray(out.enum)) base.enum = out.enum.filter((v: unknown) => v !== null);
    out = { anyOf: [base, { type: 'null' }] };
  }
  if (Array.isArray(out.anyOf)) {
    const branches = out.anyOf.map((b: any) => (isNullOnly(b) ? { type: 'null' } : b));
    const unique = [...new Map(branches.map((b: unknown) => [JSON.stringify(b), b])).values()].sort(byJson);
    const { anyOf: _a, ...rest } = out;
    // a lone branch with the keywords beside it (a nullable $ref's siblings) merged into it
    out = unique.length === 1 ? { ...(unique[0] as object), ...rest } : { ...rest, anyOf: unique };
  }
  return out;
}
