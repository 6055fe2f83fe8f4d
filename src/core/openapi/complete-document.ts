import type { ApiInterface } from '../http/interfaces';
import { ERROR_SCHEMAS, errorContent, errorStatuses, STATUS_TEXT } from './errors';
import { exampleOf } from './examples';
import { nullableTo31 } from './nullable';
import { declaredComponents } from './served-components';
import { JsonSchema, normalizedSegments, published, PublishedOperation, routeKey } from './published';

/**
 * The completion step of GET /openapi.json (docs/decisions/openapi.md). @nestjs/swagger describes
 * our controllers (paths, parameters of annotated DTOs, request bodies completed from the
 * validation rules by core/http/request-schemas.ts); this step makes that description the
 * contract of CONVENTIONS §16:
 * - a published operation (same method and path template, parameter names and trailing slash
 *   aside) takes the published operationId, tags, summary, description, query parameters, request
 *   body (our own members beyond it added, `x-extension: true`) and response schemas, with the
 *   published component schemas it references (`v1.<Name>`, `v2.<Name>`, converted to 3.1): the
 *   declaration (declaredV1/declaredV2) where one covers the component (served-components.ts);
 * - an extension operation gets an operationId made as the published ones are, a human tag (the
 *   published tag of its nearest published path, else its resource), a summary, and a success
 *   schema derived from a published sibling (marked `x-schema-derived-from`) or a generic one
 *   (marked `x-schema-generic`);
 * - every operation: each success status it answers (200 and 207 for /v2 batches), the error
 *   responses in its interface's envelope, the security scheme of its interface (`basicAuth` and
 *   `bearerAuth` on /v1, `bearerAuth` elsewhere, none when public), an example of every JSON body.
 */
export interface HandlerInfo {
  /** `Controller.method` */
  handler: string;
  api: ApiInterface;
  isPublic: boolean;
}

export interface CompletionReport {
  operations: number;
  published: number;
  extension: number;
  withResponseSchema: number;
  /** published components served as the declaration that covers them (served-components.ts) */
  declared?: number;
  /** published components two declarations cover and disagree on: served as published */
  conflicts?: string[];
  ms: number;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
const DRY_RUN_PARAMETER = {
  name: 'dry_run',
  in: 'query',
  required: false,
  description:
    'true: a dry run. Every validation and conflict check runs and the answer is the one the write would give (with the header Dry-Run: true), but nothing is written and nothing is emitted (no event, no job).',
  schema: { type: 'boolean', default: false },
  'x-extension': true,
};
const SCHEMA_PREFIX = '#/components/schemas/';

/** A success answer without a body (@NoBody, core/openapi/no-body.ts): declared without content. */
const NO_BODY = 'x-no-body';
type Doc = { paths: Record<string, Record<string, any>>; components?: Record<string, any>; tags?: { name: string; description?: string }[]; [k: string]: unknown };

export function completeDocument(doc: Doc, handlers: Map<string, HandlerInfo>): CompletionReport {
  const started = performance.now();
  const pub = published();
  doc.components ??= {};
  const schemas: Record<string, JsonSchema> = (doc.components.schemas ??= {});
  // our own schemas: @nestjs/swagger and the /v1 rules write OpenAPI 3.0's `nullable`
  nullableTo31(doc.paths);
  nullableTo31(schemas);
  Object.assign(schemas, structuredClone(ERROR_SCHEMAS));
  doc.components.securitySchemes = {
    basicAuth: { type: 'http', scheme: 'basic', description: '/v1: the organization API key as user name, empty password.' },
    bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token of the OAuth server (POST /v2/auth/token); on /v1 as well as /v2.' },
  };
  const usedPublished = new Set<string>();
  const ids = new Set<string>();
  const tagsUsed = new Map<string, string | undefined>();
  const publishedTags = new Map<string, string | undefined>([...pub.v1.tags, ...pub.v2.tags].map((t) => [t.name, t.description]));
  const report: CompletionReport = { operations: 0, published: 0, extension: 0, withResponseSchema: 0, ms: 0 };
  // first the published operations: their ids are taken before any derived one
  const ops: { path: string; method: string; op: any; match?: { iface: 'v1' | 'v2'; op: PublishedOperation } }[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) ops.push({ path, method, op, match: pub.byRoute.get(routeKey(method, path)) });
    }
  }
  for (const o of ops) if (o.match) ids.add(o.match.op.operationId);

  for (const { path, method, op, match } of ops) {
    report.operations++;
    const info = handlers.get(op.operationId) ?? { handler: op.operationId, api: interfaceOfPath(path), isPublic: false };
    op['x-handler'] = info.handler;
    const ours = collectOurs(op, schemas);
    fixParameterTypes(op);
    addPathParameters(op, path);
    if (match) {
      report.published++;
      applyPublished(op, path, method, match.op, match.iface, info, ours, schemas, usedPublished);
    } else {
      report.extension++;
      applyExtension(op, path, method, info, ours, ids, schemas, usedPublished);
    }
    addErrors(op, path, info);
    // CONVENTIONS §21: every authenticated write of /v1 and /v2 takes dry_run (core/dry-run/dry-run.ts)
    if (!info.isPublic && (info.api === 'v1' || info.api === 'v2') && method !== 'get' && !(op.parameters ?? []).some((x: any) => x.name === 'dry_run')) {
      op.parameters = [...(op.parameters ?? []), { ...DRY_RUN_PARAMETER, schema: { ...DRY_RUN_PARAMETER.schema } }];
    }
    op.security = info.isPublic ? [] : info.api === 'v1' ? [{ basicAuth: [] }, { bearerAuth: [] }] : [{ bearerAuth: [] }];
    addExamples(op, schemas);
    for (const t of op.tags ?? []) tagsUsed.set(t, publishedTags.get(t));
    if (Object.entries<any>(op.responses ?? {}).every(([s, r]) => !s.startsWith('2') || s === '204' || r[NO_BODY] || hasSchema(r))) report.withResponseSchema++;
  }
  // the published component schemas the operations reference (and the ones those reference): the
  // declaration where one covers the component (served-components.ts), else the published schema
  const all = { ...pub.v1.schemas, ...pub.v2.schemas };
  const declared = declaredComponents();
  report.declared = 0;
  report.conflicts = declared.conflicts;
  const queue = [...usedPublished];
  const added = new Set<string>();
  while (queue.length) {
    const name = queue.pop()!;
    if (added.has(name) || !all[name]) continue;
    added.add(name);
    const ours = declared.schemas.get(name);
    if (ours) report.declared++;
    schemas[name] = ours ?? all[name];
    for (const r of ours ? new Set(refsIn(ours)) : refsOfPublished(name, all[name])) if (!added.has(r)) queue.push(r);
  }
  doc.tags = [...tagsUsed].sort(([a], [b]) => a.localeCompare(b)).map(([name, description]) => (description ? { name, description } : { name }));
  report.ms = Math.round(performance.now() - started);
  return report;
}

function interfaceOfPath(path: string): ApiInterface {
  return path.startsWith('/v1/') ? 'v1' : path.startsWith('/v2/auth/') ? 'oauth' : path.startsWith('/v2/') ? 'v2' : 'other';
}

/** What @nestjs/swagger and request-schemas.ts described of our operation: its body schema (resolved) and query parameters. */
interface Ours {
  body?: JsonSchema;
  bodyRef?: string;
  query: any[];
  successStatuses: string[];
}

function collectOurs(op: any, schemas: Record<string, JsonSchema>): Ours {
  const media = op.requestBody?.content?.['application/json'] ?? Object.values<any>(op.requestBody?.content ?? {})[0];
  const ref: string | undefined = media?.schema?.$ref;
  const body = ref ? schemas[ref.slice(SCHEMA_PREFIX.length)] : media?.schema;
  return {
    body,
    bodyRef: ref,
    query: (op.parameters ?? []).filter((p: any) => p.in === 'query'),
    successStatuses: Object.keys(op.responses ?? {}).filter((s) => /^2/.test(s)),
  };
}

/** Every `{name}` of the path template is a required path parameter (`/files/{path}`, a wildcard route, had none). */
function addPathParameters(op: any, path: string): void {
  const have = new Set((op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name));
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    if (!have.has(name)) (op.parameters ??= []).push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
}

/** A parameter @nestjs/swagger typed as an opaque `Object` (an `unknown` DTO member): an integer when it has bounds, else a string. */
function fixParameterTypes(op: any): void {
  for (const p of op.parameters ?? []) {
    const s = p.schema ?? {};
    const opaque = s.$ref === `${SCHEMA_PREFIX}Object` || (Array.isArray(s.allOf) && s.allOf.some((x: any) => x?.$ref === `${SCHEMA_PREFIX}Object`));
    if (!p.schema || opaque || (s.type === 'object' && !s.properties)) {
      const { $ref: _r, allOf: _a, ...rest } = s;
      p.schema = { ...rest, type: rest.minimum !== undefined || rest.maximum !== undefined ? 'integer' : 'string' };
    }
  }
}

function isBatch(method: string, info: HandlerInfo, body: JsonSchema | undefined, match?: PublishedOperation): boolean {
  if (info.api !== 'v2' || method === 'get') return false;
  if (match?.responses?.['207']) return true;
  return body?.properties?.data?.type === 'array';
}

function applyPublished(op: any, path: string, method: string, p: PublishedOperation, iface: 'v1' | 'v2', info: HandlerInfo, ours: Ours, schemas: Record<string, JsonSchema>, used: Set<string>): void {
  const clone = p; // frozen, shared: new objects are built where the operation differs
  op.operationId = clone.operationId;
  op.tags = clone.tags?.length ? clone.tags : [humanTag(path)];
  op.summary = clone.summary || op.summary || summaryFromDescription(clone.description) || derivedSummary(method, path);
  op.description = mergeDescription(clone.description, op.description);
  // path parameters: ours (our names in the path), with the published description by position
  const ourPath = (op.parameters ?? []).filter((x: any) => x.in === 'path');
  const pubPath = (clone.parameters ?? []).filter((x) => x.in === 'path');
  const pubPathByPos = new Map<string, any>();
  const pubNames = [...p.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const ourNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  ourNames.forEach((n, i) =>
    pubPathByPos.set(
      n,
      pubPath.find((x) => x.name === pubNames[i]),
    ),
  );
  const pathParams = ourNames.map((n) => {
    const mine = ourPath.find((x: any) => x.name === n) ?? { name: n, in: 'path', required: true, schema: { type: 'string' } };
    const theirs = pubPathByPos.get(n);
    return { ...mine, ...(theirs ? { description: theirs.description ?? mine.description, schema: theirs.schema ?? mine.schema } : {}), name: n, in: 'path', required: true };
  });
  const pubQuery = (clone.parameters ?? []).filter((x) => x.in === 'query');
  const pubQueryNames = new Set(pubQuery.map((x) => x.name));
  const extraQuery = ours.query.filter((x: any) => !pubQueryNames.has(x.name)).map((x: any) => ({ ...x, 'x-extension': true }));
  const otherParams = (op.parameters ?? []).filter((x: any) => x.in !== 'path' && x.in !== 'query');
  op.parameters = [...pathParams, ...pubQuery, ...extraQuery, ...otherParams];
  // a /v1 list paginates by page number with page_size (core/pagination), where the published one lists only page
  if (info.api === 'v1' && op.parameters.some((x: any) => x.name === 'page' && x.in === 'query') && !op.parameters.some((x: any) => x.name === 'page_size')) {
    op.parameters.push({ name: 'page_size', in: 'query', required: false, description: 'Number of results to return per page.', schema: { type: 'integer', minimum: 1 }, 'x-extension': true });
  }
  for (const x of op.parameters) collectRefs(x, used);

  // the request body: the published one, our members beyond it marked x-extension
  if (clone.requestBody) {
    const extras: Record<string, JsonSchema> = {};
    const pubBody = firstSchema(clone.requestBody.content);
    const pubResolved = pubBody?.$ref ? published()[iface].schemas[pubBody.$ref.slice(SCHEMA_PREFIX.length)] : pubBody;
    const pubMembers = new Set(Object.keys(pubResolved?.properties ?? {}));
    for (const [k, v] of Object.entries<JsonSchema>(ours.body?.properties ?? {})) if (!pubMembers.has(k)) extras[k] = { ...v, 'x-extension': true };
    let schemaOut: JsonSchema | undefined = pubBody;
    if (Object.keys(extras).length && pubResolved?.properties) {
      schemaOut = { ...pubResolved, properties: { ...pubResolved.properties, ...extras } };
      if (pubBody?.$ref)
        schemaOut.description = `${pubResolved.description ? `${pubResolved.description}\n\n` : ''}The published ${pubBody.$ref.slice(SCHEMA_PREFIX.length)}, with this platform's members marked x-extension.`;
    }
    const content: Record<string, any> = {};
    for (const [type, m] of Object.entries<any>(clone.requestBody.content ?? {})) content[type] = { ...m, schema: m.schema?.$ref === pubBody?.$ref ? schemaOut : m.schema };
    if (iface === 'v2' && content['application/json'] && !content['application/vnd.api+json']) content['application/vnd.api+json'] = content['application/json'];
    op.requestBody = { ...clone.requestBody, content };
    collectRefs(op.requestBody, used);
  } else if (op.requestBody && ours.body) {
    // we read a body the published operation does not take
    op.requestBody['x-extension'] = true;
  }

  // success statuses: what we answer, with the published schema of that status (or of the published success)
  const pubSuccess = Object.entries(clone.responses ?? {}).filter(([s]) => /^2/.test(s));
  const batch = isBatch(method, info, ours.body, p);
  const statuses = batch ? ['200', '207'] : ours.successStatuses.length ? ours.successStatuses : pubSuccess.map(([s]) => s);
  const responses: Record<string, any> = {};
  for (const status of statuses) {
    const theirs = clone.responses?.[status] ?? pubSuccess.find(([, r]) => hasSchema(r))?.[1] ?? pubSuccess[0]?.[1];
    if (status === '204') {
      responses[status] = { description: STATUS_TEXT[204] };
      continue;
    }
    if (op.responses?.[status]?.[NO_BODY]) {
      responses[status] = { description: theirs?.description || op.responses[status].description || STATUS_TEXT[Number(status)] || 'Success', [NO_BODY]: true };
      continue;
    }
    const resp: any = theirs ? { ...theirs, description: theirs.description || STATUS_TEXT[Number(status)] || 'Success' } : { description: STATUS_TEXT[Number(status)] ?? 'Success' };
    // the answer our handler declares (@ApiResponse with a schema: what it answers, where that is not the published
    // component, docs/decisions/openapi.md), else the published one; a published answer without a schema (or an open
    // object without members: it says nothing either) and no declaration: generic (a list only when the published operation pages)
    const declared = op.responses?.[status];
    if (declared && hasSchema(declared)) resp.content = declared.content;
    else if (!hasSchema(resp)) Object.assign(resp, genericSuccess(info.api, pubQueryNames.has('page') ? method : 'answer', path, ours));
    if (info.api === 'v2') resp.content = vndContent(resp.content);
    responses[status] = resp;
  }
  // the published error responses (their envelopes), the others added by addErrors
  // (the token endpoints answer RFC 6749 errors, not the published JSON:API envelope: addErrors declares ours)
  if (info.api === iface) {
    for (const [s, r] of Object.entries<any>(clone.responses ?? {})) {
      if (/^[45]/.test(s)) responses[s] = iface === 'v2' ? { ...r, content: vndContent(r.content) } : r;
    }
  }
  op.responses = responses;
  collectRefs(op.responses, used);
  delete op['x-extension'];
}

function applyExtension(op: any, path: string, method: string, info: HandlerInfo, ours: Ours, ids: Set<string>, schemas: Record<string, JsonSchema>, used: Set<string>): void {
  const pub = published();
  const base = derivedOperationId(info.api, method, path);
  let id = base;
  for (let n = 2; ids.has(id); n++) id = `${base}_${n}`;
  ids.add(id);
  op.operationId = id;
  op.tags = [nearestPublishedTag(path) ?? humanTag(path)];
  op.summary = op.summary || summaryFromDescription(op.description?.replace(/^Extension \(not in the published API\):\s*/, '')) || derivedSummary(method, path);
  if (info.api === 'v1' || info.api === 'v2') op['x-extension'] = true;
  // /v1 lists paginate by page number (core/pagination)
  if (info.api === 'v1' && method === 'get' && !path.endsWith('}') && !(op.parameters ?? []).some((x: any) => x.name === 'page')) {
    op.parameters = [
      ...(op.parameters ?? []),
      { name: 'page', in: 'query', required: false, description: 'A page number within the paginated result set.', schema: { type: 'integer', minimum: 1 } },
      { name: 'page_size', in: 'query', required: false, description: 'Number of results to return per page.', schema: { type: 'integer', minimum: 1 } },
    ];
  }
  const batch = isBatch(method, info, ours.body);
  const statuses = batch ? ['200', '207'] : ours.successStatuses.length ? ours.successStatuses : ['200'];
  const derived = derivedSuccess(method, path, pub);
  const responses: Record<string, any> = {};
  for (const status of statuses) {
    const old = op.responses?.[status] ?? {};
    if (status === '204') {
      responses[status] = { description: old.description || STATUS_TEXT[204] };
      continue;
    }
    if (old[NO_BODY]) {
      responses[status] = { description: old.description || STATUS_TEXT[Number(status)] || 'Success', [NO_BODY]: true };
      continue;
    }
    const resp: any = { ...old, description: old.description || STATUS_TEXT[Number(status)] || 'Success' };
    if (!hasSchema(resp)) {
      if (derived && !batch) {
        resp.content = { [info.api === 'v2' ? 'application/vnd.api+json' : 'application/json']: { schema: derived.schema } };
        resp['x-schema-derived-from'] = derived.from;
      } else {
        Object.assign(resp, genericSuccess(info.api, method, path, ours, batch));
      }
    }
    // a /v2 answer is JSON:API whichever schema it has (a handler's @ApiResponse declares application/json)
    if (info.api === 'v2') resp.content = vndContent(resp.content);
    responses[status] = resp;
  }
  for (const [s, r] of Object.entries<any>(op.responses ?? {})) if (!/^2/.test(s)) responses[s] = r;
  op.responses = responses;
  collectRefs(op.responses, used);
}

/**
 * A success schema for an extension operation from the published operations next to it: another
 * method on the same path (a PUT beside the published PATCH), the item of the published list on
 * the collection (a POST, or a GET of `{id}` below it).
 */
function derivedSuccess(method: string, path: string, pub: ReturnType<typeof published>): { schema: JsonSchema; from: string } | undefined {
  const successOf = (m: string, p: string) => {
    const found = pub.byRoute.get(routeKey(m, p));
    if (!found) return undefined;
    const r = Object.entries(found.op.responses ?? {}).find(([s, x]) => /^2/.test(s) && hasSchema(x));
    return r ? { schema: firstSchema((r[1] as any).content)!, from: found.op.operationId, iface: found.iface } : undefined;
  };
  const itemOf = (s: { schema: JsonSchema; from: string; iface: 'v1' | 'v2' }) => {
    const resolved = s.schema.$ref ? pub[s.iface].schemas[s.schema.$ref.slice(SCHEMA_PREFIX.length)] : s.schema;
    const items = resolved?.properties?.results?.items ?? (resolved?.type === 'array' ? resolved.items : undefined);
    return items ? { schema: items, from: s.from } : undefined;
  };
  if (method === 'delete') return undefined;
  for (const m of ['get', 'patch', 'put', 'post']) {
    if (m === method) continue;
    const s = successOf(m, path);
    if (s && (method !== 'get' || !path.endsWith('}') || m !== 'post')) return { schema: s.schema, from: s.from };
  }
  const collection = path.replace(/\/\{[^}]+\}\/?$/, '');
  if (method === 'post' && !path.endsWith('}')) {
    const list = successOf('get', path);
    if (list) return itemOf(list);
  } else if (collection !== path) {
    const list = successOf('get', collection);
    if (list) return itemOf(list);
  }
  return undefined;
}

/** A success schema that says what every answer of the interface is, when nothing published describes it (marked x-schema-generic). */
function genericSuccess(api: ApiInterface, method: string, path: string, ours: Ours, batch = false): any {
  let schema: JsonSchema;
  if (api === 'v2' && batch) {
    schema = {
      type: 'object',
      required: ['data'],
      properties: { data: { type: 'array', items: { type: 'object' } }, errors: { type: 'array', items: { $ref: `${SCHEMA_PREFIX}JsonApiError` } }, meta: { type: 'object' } },
    };
  } else if (api === 'v2') {
    schema = {
      type: 'object',
      properties: { data: { oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }, { type: 'null' }] }, meta: { type: 'object' }, links: { type: 'object' } },
    };
  } else if (api === 'v1' && method === 'get' && !path.endsWith('}')) {
    schema = {
      type: 'object',
      required: ['count', 'next', 'previous', 'results'],
      properties: {
        count: { type: 'integer' },
        next: { type: ['string', 'null'], format: 'uri' },
        previous: { type: ['string', 'null'], format: 'uri' },
        results: { type: 'array', items: { type: 'object' } },
      },
    };
  } else {
    schema = { type: 'object' };
  }
  void ours;
  return { content: { [api === 'v2' ? 'application/vnd.api+json' : 'application/json']: { schema } }, 'x-schema-generic': true };
}

function addErrors(op: any, path: string, info: HandlerInfo): void {
  const hasPathParams = path.includes('{');
  const hasInput = !!op.requestBody || (op.parameters ?? []).some((p: any) => p.in === 'query');
  for (const status of errorStatuses(info.api, { isPublic: info.isPublic, hasPathParams: hasPathParams || (info.api === 'v1' && path.startsWith('/v1/domains/')), hasInput })) {
    const key = String(status);
    if (op.responses[key] && hasSchema(op.responses[key])) continue;
    op.responses[key] = { description: STATUS_TEXT[status] ?? 'Error', content: errorContent(info.api, status) };
  }
}

function addExamples(op: any, schemas: Record<string, JsonSchema>): void {
  const published_ = published();
  const resolve = (ref: string) => schemas[ref.slice(SCHEMA_PREFIX.length)] ?? published_.v1.schemas[ref.slice(SCHEMA_PREFIX.length)] ?? published_.v2.schemas[ref.slice(SCHEMA_PREFIX.length)];
  for (const [type, media] of Object.entries<any>(op.requestBody?.content ?? {})) {
    if (!media.schema || media.example !== undefined || media.examples !== undefined || type === 'multipart/form-data') continue;
    const example = exampleOf(media.schema, resolve);
    if (example !== undefined) media.example = example;
  }
}

function hasSchema(r: any): boolean {
  return !!r?.content && Object.values<any>(r.content).some((m) => m?.schema && Object.keys(m.schema).length > 0);
}

function firstSchema(content: Record<string, { schema?: JsonSchema }> | undefined): JsonSchema | undefined {
  if (!content) return undefined;
  return (content['application/json'] ?? Object.values(content)[0])?.schema;
}

function vndContent(content: Record<string, any> | undefined): Record<string, any> | undefined {
  if (!content) return content;
  const out: Record<string, any> = {};
  for (const [type, m] of Object.entries(content)) out[type === 'application/json' ? 'application/vnd.api+json' : type] = m;
  return out;
}

/** The schemas a published schema references, computed once per process (the published schemas do not change). */
const publishedRefs = new Map<string, string[]>();
function refsOfPublished(name: string, schema: JsonSchema): string[] {
  let refs = publishedRefs.get(name);
  if (!refs) publishedRefs.set(name, (refs = [...new Set(refsIn(schema))]));
  return refs;
}

function collectRefs(node: unknown, into: Set<string>): void {
  for (const r of refsIn(node)) into.add(r);
}

function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) refsIn(n, out);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(SCHEMA_PREFIX)) out.push(v.slice(SCHEMA_PREFIX.length));
      else refsIn(v, out);
    }
  }
  return out;
}

function mergeDescription(published_: string | undefined, ours: string | undefined): string | undefined {
  if (!ours || ours === published_) return published_;
  if (!published_) return ours;
  return `${published_}\n\n${ours}`;
}

/** The first sentence of a description (at most 120 characters), as the summary of a published /v1 operation that has none. */
export function summaryFromDescription(description: string | undefined): string | undefined {
  if (!description) return undefined;
  const first = description.trim().split(/\n/)[0].trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(first)?.[1] ?? first;
  if (!sentence) return undefined;
  const text = sentence.replace(/[.]$/, '');
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

const ACTIONS: Record<string, [string, string]> = { get: ['List', 'Get'], post: ['Create', 'Create'], put: ['Replace', 'Replace'], patch: ['Update', 'Update'], delete: ['Delete', 'Delete'] };

/** "List web packages", "Get web package": the method and the path's last literal segment. */
export function derivedSummary(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  const item = segments[segments.length - 1]?.startsWith('{') ?? false;
  const literal = segments.filter((s) => !s.startsWith('{') && !/^v[12]$/.test(s));
  const noun = (literal[literal.length - 1] ?? 'resource').replace(/[-_.]+/g, ' ');
  const [list, one] = ACTIONS[method] ?? ['Call', 'Call'];
  return item || method === 'post' ? `${one} ${singular(noun)}` : `${list} ${noun}`;
}

function singular(noun: string): string {
  if (/ies$/.test(noun)) return noun.replace(/ies$/, 'y');
  if (/(ss|us)$/.test(noun)) return noun;
  return noun.replace(/s$/, '');
}

/**
 * The operationId of an extension operation, made as the published ones are: /v1 as the published
 * /v1 document (`<literal segments>_<list|retrieve|create|update|partial_update|destroy>`), others
 * as the published /v2 (`<list|get|create|update|replace|delete>_<literal segments>`).
 */
export function derivedOperationId(api: ApiInterface, method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  const endsWithParam = segments.length > 0 && segments[segments.length - 1].startsWith('{');
  const literal = segments.filter((s) => !s.startsWith('{') && !/^v[12]$/.test(s)).map((s) => s.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase());
  if (api === 'v1') {
    const action = ({ get: endsWithParam ? 'retrieve' : 'list', post: 'create', put: 'update', patch: 'partial_update', delete: 'destroy' } as Record<string, string>)[method];
    return [...literal, action].join('_');
  }
  const action = ({ get: endsWithParam ? 'get' : 'list', post: 'create', put: 'replace', patch: 'update', delete: 'delete' } as Record<string, string>)[method];
  return [action, ...(literal.length ? literal : ['root'])].join('_');
}

/** The published tag of the published operations whose path shares the most leading segments with this one (at least the resource). */
function nearestPublishedTag(path: string): string | undefined {
  const mine = normalizedSegments(path);
  if (mine.length < 2 || !/^v[12]$/.test(mine[0])) return undefined;
  // the version and the resource at least; a path below a parameter needs the next literal too
  const need = mine.length > 3 && mine[2] === '{}' ? 4 : 2;
  let best: { n: number; tag?: string } = { n: 0 };
  for (const { segments: theirs, tag } of published().routes) {
    if (!tag) continue;
    let n = 0;
    while (n < mine.length && n < theirs.length && mine[n] === theirs[n]) n++;
    if (n >= need && n > best.n) best = { n, tag };
  }
  return best.tag;
}

const OTHER_TAGS: [RegExp, string][] = [
  [/^\/(health|ping)/, 'Health'],
  [/^\/(oauth|\.well-known|authorize|v2\/oauth|v2\/auth)/, 'Auth'],
  [/^\/files/, 'Files'],
  [/^\/mcp/, 'MCP'],
];

/** "Web Packages" from `/v2/web-packages/...`; the routes outside both interfaces by their family. */
export function humanTag(path: string): string {
  for (const [re, tag] of OTHER_TAGS) if (re.test(path)) return tag;
  const literal = path.split('/').filter((s) => s && !s.startsWith('{') && !/^v[12]$/.test(s));
  const word = literal[0] ?? 'General';
  return word
    .split(/[-_.]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}
