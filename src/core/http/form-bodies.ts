import { badRequest, type ApiError } from './api-error';
import { MAX_BODY_DEPTH } from './body-guard';
import { schemaOfClass, type JsonSchema } from './request-schemas';

/**
 * Form bodies on /v1 writes (CONVENTIONS §16, issue 25 item 2): `application/x-www-form-urlencoded`
 * and `multipart/form-data` are read as Django REST framework reads them, into the object the same
 * request would have sent as JSON, so that the same rules give the same answers:
 * - the route's body class (its @Body() DTO, recorded in the route config by @V1(): interfaces.ts)
 *   says each member's type through its validation rules (request-schemas.ts schemaOfClass, the
 *   same reading the OpenAPI document shows; an untyped `@Allow()` member through its @ApiProperty
 *   type when it has one);
 * - booleans from DRF's BooleanField texts (`true`/`false`/`True`/`False`/`1`/`0`/`on`/`off`/
 *   `yes`/`no`/`t`/`f`/`y`/`n`, the cases DRF lists); numbers from their text (`5`, `-2`, `5.0`,
 *   `1e3`, spaces around allowed as Python's int()/float() allow them). A text that is not one
 *   stays a string, so the member's rule refuses it with the message it gives a JSON string
 *   (`Must be a valid boolean.`, `A valid integer is required.`);
 * - lists from repeated names (`labels=a&labels=b`) or indexed names (`labels[0]=a`, DRF's
 *   parse_html_list), one value making a list of one; a member that is not a list takes the last
 *   of its repeated values, as DRF's QueryDict does;
 * - nested objects from dotted names (`user.email=...`, `course.id=...`), lists of objects from
 *   indexed ones (`users[0].email=...` or DRF's `users[0]email=...`);
 * - an empty value of a boolean, number or object member is null when the member is
 *   nullable, and absent when it is optional (DRF's `Field.get_value` for HTML input: a form cannot
 *   say null or absent otherwise); a required one stays "" and is refused as in JSON. DRF's HTML
 *   checkbox rule (an absent boolean is false) is not followed: an absent member stays absent, as in
 *   the same request sent as JSON;
 * - members the class does not declare (and routes without a body class) are read without types:
 *   strings, lists from repeated names, objects from dotted names.
 * Names are split at most MAX_BODY_DEPTH levels deep (400 beyond, as for JSON); `__proto__` is a
 * malformed body, as the JSON parser answers it. Every other interface keeps the flat reading
 * (`{name: value or [values]}`) it always had.
 */
export type FormFields = Record<string, string | string[]>;

const TRUE = new Set(['t', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', '1']);
const FALSE = new Set(['f', 'F', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '0']);
const NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

type Kind = 'boolean' | 'number' | 'string' | 'array' | 'object' | undefined;

/** A member's kind and nullability from its schema (`type` may be `["integer", "null"]`). */
function kindOf(s: JsonSchema | undefined): { kind: Kind; nullable: boolean } {
  if (!s) return { kind: undefined, nullable: false };
  const types: unknown[] = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  const nullable = types.includes('null') || s.nullable === true || (Array.isArray(s.enum) && s.enum.includes(null));
  const t = types.find((x) => x !== 'null');
  if (t === 'integer' || t === 'number') return { kind: 'number', nullable };
  if (t === 'boolean' || t === 'string' || t === 'array' || t === 'object') return { kind: t, nullable };
  if (Array.isArray(s.enum)) return { kind: 'string', nullable };
  if (s.properties) return { kind: 'object', nullable };
  return { kind: undefined, nullable };
}

/** Where @nestjs/swagger keeps a member's @ApiProperty options (its DECORATORS.API_MODEL_PROPERTIES, not exported by the package). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/** The type @ApiProperty gives a member (an untyped `@Allow()` member documented as an integer, say). */
function documentedSchema(cls: Function, property: string): JsonSchema | undefined {
  const doc = Reflect.getMetadata?.(API_MODEL_PROPERTIES, cls.prototype, property) as { type?: unknown; nullable?: boolean; isArray?: boolean } | undefined;
  if (!doc) return undefined;
  const t = doc.type === Number ? 'number' : doc.type === Boolean ? 'boolean' : doc.type === String ? 'string' : typeof doc.type === 'string' ? doc.type : undefined;
  if (!t && !doc.isArray) return undefined;
  const type = doc.isArray ? 'array' : t;
  return { type: doc.nullable ? [type, 'null'] : type, ...(doc.isArray && t ? { items: { type: t } } : {}) };
}

const schemas = new WeakMap<Function, JsonSchema>();

/** The schema a form is read with: the class's validation schema, untyped members typed by their @ApiProperty (computed once per class). */
export function formSchemaOf(cls: Function): JsonSchema {
  let s = schemas.get(cls);
  if (!s) {
    s = schemaOfClass(cls);
    for (const [name, member] of Object.entries<JsonSchema>(s.properties ?? {})) {
      if (kindOf(member).kind !== undefined) continue;
      const documented = documentedSchema(cls, name);
      if (documented) s.properties[name] = { ...member, ...documented };
    }
    schemas.set(cls, s);
  }
  return s;
}

/** A name's path: `a.b` → a, b; `users[0]email` and `users[0].email` → users, [0], email. */
function segmentsOf(name: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '.') {
      out.push(cur);
      cur = '';
    } else if (c === '[') {
      const close = name.indexOf(']', i);
      const idx = close > i + 1 ? name.slice(i + 1, close) : '';
      if (idx && /^\d{1,9}$/.test(idx)) {
        out.push(cur, `[${Number(idx)}]`);
        cur = '';
        i = close;
        if (name[i + 1] === '.') i++;
        if (i === name.length - 1) return out;
      } else cur += c;
    } else cur += c;
  }
  out.push(cur);
  return out;
}

interface Node {
  values?: string[];
  kids?: Map<string, Node>;
}

const isIndex = (seg: string) => seg.charCodeAt(0) === 91; /* [ */
const OMIT = Symbol('omit');

class FormError extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

function treeOf(fields: FormFields): Node {
  const root: Node = { kids: new Map() };
  for (const name in fields) {
    const raw = fields[name];
    const segs = name.includes('.') || name.includes('[') ? segmentsOf(name) : [name];
    if (segs.length >= MAX_BODY_DEPTH) throw new FormError(badRequest(`The request body is nested too deeply (more than ${MAX_BODY_DEPTH} levels).`));
    let node = root;
    for (const seg of segs) {
      if (seg === '__proto__') throw new FormError(badRequest('Malformed request body.'));
      const kids = (node.kids ??= new Map());
      let next = kids.get(seg);
      if (!next) kids.set(seg, (next = {}));
      node = next;
    }
    const values = Array.isArray(raw) ? raw : [raw];
    node.values = node.values ? node.values.concat(values) : values;
  }
  return root;
}

/** One text as a member of `kind` (a text that is not one stays a string, for the rule to refuse). */
function scalar(v: string, kind: Kind): unknown {
  if (kind === 'boolean') return TRUE.has(v) ? true : FALSE.has(v) ? false : v;
  if (kind === 'number') return NUMBER.test(v) ? Number(v) : v;
  return v;
}

/** A plain object that takes any member name as data (no prototype setter). */
function put(o: Record<string, unknown>, k: string, v: unknown) {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function objectOf(node: Node, s: JsonSchema | undefined): Record<string, unknown> | unknown[] {
  const kids = node.kids!;
  // only indexed children: a list (in index order, as DRF sorts them)
  if ([...kids.keys()].every(isIndex)) return listOf(node, s?.items);
  const out: Record<string, unknown> = {};
  const required: string[] = Array.isArray(s?.required) ? s!.required : [];
  for (const [name, kid] of kids) {
    if (isIndex(name)) continue;
    const v = valueOf(kid, s?.properties?.[name], required.includes(name));
    if (v !== OMIT) put(out, name, v);
  }
  return out;
}

function listOf(node: Node, items: JsonSchema | undefined): unknown[] {
  const indexed = [...(node.kids ?? new Map<string, Node>()).entries()]
    .filter(([k]) => isIndex(k))
    .sort(([a], [b]) => Number(a.slice(1, -1)) - Number(b.slice(1, -1)))
    .map(([, kid]) => valueOf(kid, items, true));
  return indexed.filter((v) => v !== OMIT);
}

function valueOf(node: Node, s: JsonSchema | undefined, required: boolean): unknown {
  const { kind, nullable } = kindOf(s);
  const values = node.values;
  if (kind === 'array') {
    // DRF's ListField: the repeated values (`labels=` is [""], refused as blank as in JSON), else the indexed names
    if (values?.length) return values.map((v) => scalar(v, kindOf(s?.items).kind));
    if (node.kids) return listOf(node, s?.items);
    return nullable ? null : required ? '' : OMIT;
  }
  if (node.kids && (kind === 'object' || kind === undefined)) return objectOf(node, s);
  if (!values) return OMIT;
  if (kind === undefined) return values.length === 1 ? values[0] : values;
  const v = values[values.length - 1];
  if (v === '' && kind !== 'string') return nullable ? null : required ? '' : OMIT;
  return scalar(v, kind);
}

/**
 * The JSON-equivalent object of a /v1 form body, read with the route's body class (or without
 * types when the route has none). Throws an ApiError for a name nested too deeply or a `__proto__`.
 */
export function readForm(fields: FormFields, cls: Function | undefined): Record<string, unknown> {
  try {
    const tree = treeOf(fields);
    if (!tree.kids!.size) return {};
    const out = objectOf(tree, cls ? formSchemaOf(cls) : undefined);
    return Array.isArray(out) ? { ...out } : out;
  } catch (e) {
    if (e instanceof FormError) throw e.error;
    throw e;
  }
}
