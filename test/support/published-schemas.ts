import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { load } from 'js-yaml';

/**
 * The published OpenAPI documents (test/reference/, copies of ../shared/reference/) as ajv
 * validators: every response schema of a published operation, with the OpenAPI 3.0 `nullable`
 * turned into JSON Schema (`type: [t, "null"]`, or `anyOf [..., {type: null}]` around a `$ref` or a
 * composition), `$ref`s resolved from the document's own components, `date-time`, `email` and `uri`
 * checked by ajv-formats, other formats (`double`) ignored. Used by the conformance sweep
 * (test/platform/conformance.e2e-spec.ts).
 */
const REFERENCE = resolve(__dirname, '../reference');

export interface PublishedOperation {
  /** 'v1' or 'v2' */
  doc: string;
  method: string;
  /** the published path template */
  path: string;
  operationId?: string;
  /** published status -> the schema of its application/json body (undefined: no body) */
  responses: Record<string, unknown | undefined>;
  /** the path parameters' schemas, in the order of the template */
  pathParams: unknown[];
  /** the names of its query parameters */
  queryParams: string[];
}

export interface Violation {
  pointer: string;
  message: string;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const DROPPED = new Set(['example', 'examples', 'discriminator', 'xml', 'externalDocs', 'nullable']);

/** An OpenAPI (3.0 or 3.1) schema as a JSON Schema (draft-07) ajv reads, its refs pointing into `docKey`. */
export function toJsonSchema(s: any, docKey: string): any {
  if (Array.isArray(s)) return s.map((x) => toJsonSchema(x, docKey));
  if (!s || typeof s !== 'object') return s;
  const out: any = {};
  for (const [k, v] of Object.entries<any>(s)) {
    if (DROPPED.has(k) || k.startsWith('x-')) continue;
    if (k === '$ref' && typeof v === 'string') out.$ref = v.replace(/^#\/components\/schemas\//, `${docKey}#/definitions/`);
    else if (k === 'properties' || k === 'patternProperties') out[k] = Object.fromEntries(Object.entries<any>(v).map(([n, p]) => [n, toJsonSchema(p, docKey)]));
    else if (k === 'enum' || k === 'required' || k === 'const' || k === 'default') out[k] = v;
    else out[k] = toJsonSchema(v, docKey);
  }
  // OpenAPI 3.0's boolean exclusiveMinimum/exclusiveMaximum: the JSON Schema number form
  for (const [ex, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[ex] !== 'boolean') continue;
    if (out[ex] && typeof out[bound] === 'number') {
      out[ex] = out[bound];
      delete out[bound];
    } else delete out[ex];
  }
  // a writeOnly member is never in an answer: not required there
  if (Array.isArray(out.required) && out.properties) {
    out.required = out.required.filter((n: string) => !s.properties?.[n]?.writeOnly);
    if (!out.required.length) delete out.required;
  }
  if (s.nullable === true) {
    if (typeof out.type === 'string' && !out.$ref) {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    } else if (!Array.isArray(out.type)) {
      return { anyOf: [out, { type: 'null' }] };
    }
  }
  return out;
}

function loadDoc(file: string): any {
  const text = readFileSync(resolve(REFERENCE, file), 'utf8');
  return file.endsWith('.json') ? JSON.parse(text) : load(text);
}

export class PublishedSchemas {
  readonly ops: PublishedOperation[] = [];
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv = new Ajv({ strict: false, allErrors: true, logger: false, validateSchema: false, verbose: true });
    addFormats(this.ajv, ['date-time', 'date', 'time', 'email', 'uri', 'uri-reference', 'uuid']);
    for (const [key, file] of [
      ['v1', 'skilljar-v1-openapi.yml'],
      ['v2', 'skilljar-v2-openapi.json'],
    ] as const) {
      const doc = loadDoc(file);
      const definitions = Object.fromEntries(Object.entries<any>(doc.components?.schemas ?? {}).map(([n, s]) => [n, toJsonSchema(s, key)]));
      this.ajv.addSchema({ $id: key, definitions }, key);
      for (const [path, item] of Object.entries<any>(doc.paths)) {
        for (const m of METHODS) {
          const op = item[m];
          if (!op) continue;
          const responses: Record<string, unknown> = {};
          for (const [code, r] of Object.entries<any>(op.responses ?? {})) {
            const resp = r?.$ref ? doc.components.responses[r.$ref.split('/').pop()] : r;
            const content = resp?.content ?? {};
            const media = content['application/json'] ?? content['application/vnd.api+json'] ?? Object.values<any>(content)[0];
            responses[code] = media?.schema ? toJsonSchema(media.schema, key) : undefined;
          }
          const declared = [...(item.parameters ?? []), ...(op.parameters ?? [])].filter((x: any) => x.in === 'path');
          const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((x) => toJsonSchema(declared.find((d: any) => d.name === x[1])?.schema ?? {}, key));
          const queryParams = [...(item.parameters ?? []), ...(op.parameters ?? [])].filter((x: any) => x.in === 'query').map((x: any) => x.name as string);
          this.ops.push({ doc: key, method: m.toUpperCase(), path, operationId: op.operationId, responses, pathParams, queryParams });
        }
      }
    }
  }

  /** `{x}` -> `{}`, no trailing slash: served and published templates compare by shape. */
  static shape(path: string): string {
    return path.replace(/\{[^}]+\}/g, '{}').replace(/\/$/, '');
  }

  find(method: string, path: string): PublishedOperation | undefined {
    const want = `${method.toUpperCase()} ${PublishedSchemas.shape(path)}`;
    return this.ops.find((o) => `${o.method} ${PublishedSchemas.shape(o.path)}` === want);
  }

  /**
   * The path parameter values a call used that the published parameter schemas refuse (an opaque id
   * where an integer is published...): `values` in the order of the template.
   */
  checkPathParams(op: PublishedOperation, values: string[]): Violation[] {
    const out: Violation[] = [];
    values.forEach((value, i) => {
      const schema: any = op.pathParams[i];
      if (!schema) return;
      const numeric = (schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(value);
      const validate = this.ajv.compile(schema);
      if (!validate(numeric ? Number(value) : value)) {
        const name = op.path.match(/\{([^}]+)\}/g)![i];
        out.push({ pointer: `path ${name}`, message: `${validate.errors?.[0]?.message} (got ${JSON.stringify(value)})` });
      }
    });
    return out;
  }

  /** The violations of one answer: a status the operation does not publish, or a body its schema refuses. */
  check(op: PublishedOperation, status: number, body: unknown): Violation[] {
    const code = String(status);
    if (!(code in op.responses)) return [{ pointer: '', message: `status ${status}, published: ${Object.keys(op.responses).join(', ')}` }];
    const schema = op.responses[code];
    if (!schema) return [];
    const key = `${op.doc} ${op.method} ${op.path} ${code}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema as object);
      this.compiled.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).filter(relevant).map((e) => ({ pointer: e.instancePath || '/', message: describe(e) }));
  }
}

/** anyOf's own summary error repeats its branches' errors: keep the branches'. */
const relevant = (e: ErrorObject) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf';

function describe(e: ErrorObject): string {
  const got = ` (got ${JSON.stringify(e.data)?.slice(0, 60)})`;
  if (e.keyword === 'enum') return `${e.message}: ${JSON.stringify((e.params as any).allowedValues)}${got}`;
  if (e.keyword === 'type' || e.keyword === 'format') return `${e.message}${got}`;
  return e.message ?? e.keyword;
}

/**
 * Our own GET /openapi.json (OpenAPI 3.1: JSON Schema 2020-12) as validators: the declared status
 * of an answer and its body against that status's schema. The conformance sweep checks every answer
 * against it as well as against the published document (issue 26 point 6).
 */
export class ServedSchemas {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction | null>();

  constructor(private readonly doc: any) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, verbose: true });
    addFormats(this.ajv, ['date-time', 'date', 'time', 'email', 'uri', 'uri-reference', 'uuid']);
    this.ajv.addSchema({ $id: 'served', components: { schemas: doc.components?.schemas ?? {} } });
  }

  /** The violations of one answer of `method path` (the served template): an undeclared status, or a body its declared schema refuses. */
  check(method: string, path: string, status: number, body: unknown): Violation[] {
    const op = this.doc.paths?.[path]?.[method.toLowerCase()];
    if (!op) return [{ pointer: '', message: `served: ${method} ${path} is not in /openapi.json` }];
    const code = String(status);
    const resp = op.responses?.[code];
    if (!resp) return [{ pointer: '', message: `served: status ${status}, declared: ${Object.keys(op.responses ?? {}).join(', ')}` }];
    const key = `${method} ${path} ${code}`;
    let validate = this.compiled.get(key);
    if (validate === undefined) {
      const content = resp.content ?? {};
      const media = content['application/json'] ?? content['application/vnd.api+json'] ?? Object.values<any>(content)[0];
      validate = media?.schema ? this.ajv.compile(rebase(media.schema)) : null;
      this.compiled.set(key, validate);
    }
    if (!validate) return body === undefined || body === '' ? [] : resp['x-no-body'] ? [{ pointer: '', message: 'served: declared without a body, answered one' }] : [];
    if (validate(body)) return [];
    return (validate.errors ?? []).filter(relevant).map((e) => ({ pointer: `served ${e.instancePath || '/'}`, message: describe(e) }));
  }
}

/** A schema of the served document with its `$ref`s pointing into the `served` schema added above. */
function rebase(s: any): any {
  if (Array.isArray(s)) return s.map(rebase);
  if (!s || typeof s !== 'object') return s;
  const out: any = {};
  for (const [k, v] of Object.entries<any>(s)) out[k] = k === '$ref' && typeof v === 'string' ? v.replace(/^#\//, 'served#/') : rebase(v);
  return out;
}
