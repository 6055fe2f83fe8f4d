import { createHash } from 'node:crypto';
import { inlineSchema, parameterSchema, Schema } from './json-schema';
import { RouteRule, routeKey } from './route-rules';
import { PUBLISHED_V2_OPERATIONS } from './v2-operations';

/**
 * The MCP tools, generated from the served OpenAPI document (GET /openapi.json) and the guard's
 * rules of each route: one tool per /v1 and /v2 operation, so an operation added to the API is a
 * tool without a change here. Names (docs/decisions/mcp.md):
 * - a published /v2 operation: its tool in v2-operations.ts (the official server's names);
 * - another /v2 operation: `v2_` + its derived name;
 * - a /v1 operation: `v1_<family>_<operation>`, derived as the published /v1 document's
 *   operationIds are (the path's literal segments, then list/retrieve/create/update/
 *   partial_update/destroy): `v1_domains_users_list`, `v1_webhooks_partial_update`.
 * A tool's arguments are its operation's path and query parameters plus the members of its
 * request body (or `body`, when the body is not an object or a member's name is a parameter's).
 */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  inputSchema: Schema & { type: 'object' };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  method: string;
  /** the served path template, `{name}` per parameter */
  path: string;
  /** the operation's path parameters, by their names in the path */
  pathParams: string[];
  /** the operation's query parameters, by their names in the query string */
  queryParams: string[];
  /** the argument of each parameter whose name is no valid argument name (`page[size]` → `page.size`) */
  argOf: Record<string, string>;
  /** `members`: arguments that are not parameters are the body's members; `wrapped`: the body is the `body` argument */
  body: 'members' | 'wrapped';
  rule: RouteRule;
  interface: 'v1' | 'v2';
  /** the list paginates: /v2 by cursor, /v1 by page number */
  paging?: 'cursor' | 'page';
  /** the argument sent as the Idempotency-Key header (writes; CONVENTIONS §14) */
  idempotencyArg?: string;
  /** the operation's operationId in GET /openapi.json (call_operation takes it, or the tool's name) */
  operationId: string;
  /** the document's tags (search_operations matches them) */
  tags: string[];
  /** the answer's schema (CONVENTIONS §16): the success statuses' JSON schemas; absent when an answer is no JSON object (204, a bare array) */
  outputSchema?: Schema & { type: 'object' };
  /** deletes, deactivate, anonymize, refunds: a call needs a confirmation (CONVENTIONS §21) */
  confirm: boolean;
  /** the write takes `dry_run=true` (CONVENTIONS §21): the tool's `dry_run` argument */
  dryRun: boolean;
  /** not listed by tools/list (the token endpoints): found by search_operations and run by call_operation only */
  callOnly?: boolean;
}

/** The argument of a destructive tool that confirms the call (when the client cannot be asked). */
export const CONFIRM_ARG = 'confirm';
/** The argument of a write tool that runs it as a dry run (`?dry_run=true`). */
export const DRY_RUN_ARG = 'dry_run';

/**
 * Destructive operations (CONVENTIONS §21: deletes, deactivate, anonymize, refunds): every DELETE,
 * and a POST whose path names one of these acts.
 */
export function isDestructive(method: string, path: string): boolean {
  if (method === 'DELETE') return true;
  return method === 'POST' && /\/(anonymi[sz]e|deactivate|refunds?|revoke|cancel|remove|unpublish)(\/|$)/.test(path);
}

/** The argument of every write tool that is sent as the operation's Idempotency-Key header. */
export const IDEMPOTENCY_ARG = 'idempotency_key';

/**
 * Operations that are no listed tools: credentials are exchanged and revoked by the client, not through
 * its token (and the official server names no tool for them). They stay reachable, as every published
 * operation is, through search_operations and call_operation (docs/decisions/conformance.md).
 */
const CALL_ONLY = /^(POST|GET) \/v2\/auth\//;
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** MCP clients commonly accept names up to 64 characters (the specification allows 128). */
const MAX_NAME = 64;

const PUBLISHED = new Map(PUBLISHED_V2_OPERATIONS.map((o) => [routeKey(o.method, o.path), o]));

/**
 * `<prefix>_<family>_<operation>` as the published /v1 document's operationIds are made: the
 * path's literal segments, then list / retrieve / create / update / partial_update / destroy.
 * A name over 64 characters loses its leading segments (`domains_` first) until it fits.
 */
export function derivedName(prefix: string, method: string, path: string): string {
  const segments = path.split('/').filter(Boolean).slice(1); // without v1 / v2
  const literal = segments.filter((s) => !s.startsWith('{')).map((s) => s.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase());
  const endsWithParam = segments.length > 0 && segments[segments.length - 1].startsWith('{');
  const action = ({ GET: endsWithParam ? 'retrieve' : 'list', POST: 'create', PUT: 'update', PATCH: 'partial_update', DELETE: 'destroy' } as Record<string, string>)[method];
  const name = () => [prefix, ...literal, action].join('_');
  while (name().length > MAX_NAME && literal.length > 1) literal.shift();
  return shorten(name());
}

function shorten(name: string): string {
  if (name.length <= MAX_NAME) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_NAME - 9)}_${hash}`;
}

/**
 * The argument of a parameter: MCP clients pass tool schemas to model APIs that accept property
 * names of `[A-Za-z0-9_.-]` only (at most 64), so `page[size]` is `page.size` and
 * `filter[domain]` is `filter.domain`; anything else outside the set becomes `_`.
 */
export function argumentName(name: string): string {
  return name
    .replace(/\[([^\]]*)\]/g, '.$1')
    .replace(/[^A-Za-z0-9_.-]/g, '_')
    .slice(0, MAX_NAME);
}

function titleOf(name: string): string {
  const words = name.replace(/^v[12]_/, '').split('_');
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

interface OpenApiOperation {
  operationId?: string;
  tags?: string[];
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}

export function buildCatalog(doc: any, rules: Map<string, RouteRule>): ToolSpec[] {
  const tools: ToolSpec[] = [];
  const names = new Set<string>();
  for (const [path, item] of Object.entries<any>(doc?.paths ?? {})) {
    const iface = path.startsWith('/v2/') ? 'v2' : path.startsWith('/v1/') ? 'v1' : undefined;
    if (!iface) continue;
    for (const lower of HTTP_METHODS) {
      const op = item?.[lower] as OpenApiOperation | undefined;
      if (!op) continue;
      const method = lower.toUpperCase();
      const key = routeKey(method, path);
      const callOnly = CALL_ONLY.test(key);
      const published = iface === 'v2' ? PUBLISHED.get(key) : undefined;
      if (published && published.tool === null && !callOnly) continue;
      const base = published?.tool ?? derivedName(iface, method, path);
      let name = base;
      for (let n = 2; names.has(name); n++) name = shorten(`${base}_${n}`);
      names.add(name);
      // the published URL ends with a slash where the published document's does (links then read as clients write them)
      const url = published?.path.endsWith('/') && !path.endsWith('/') ? `${path}/` : path;
      const tool = toolOf(doc, { name, method, path: url, op, iface, summary: published?.summary, rule: rules.get(key) ?? { isPublic: false } });
      tools.push(callOnly ? { ...tool, callOnly } : tool);
    }
  }
  return tools.sort((a, b) => (a.interface === b.interface ? a.name.localeCompare(b.name) : a.interface === 'v2' ? -1 : 1));
}

function toolOf(doc: any, o: { name: string; method: string; path: string; op: OpenApiOperation; iface: 'v1' | 'v2'; summary?: string; rule: RouteRule }): ToolSpec {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  const pathParams: string[] = [];
  const queryParams: string[] = [];
  const argOf: Record<string, string> = {};
  const arg = (name: string) => {
    const a = argumentName(name);
    if (a !== name) argOf[name] = a;
    return a;
  };
  for (const p of o.op.parameters ?? []) {
    if (p.in === 'path') {
      pathParams.push(p.name);
      required.push(arg(p.name));
      properties[arg(p.name)] = parameterSchema(doc, p);
    } else if (p.in === 'query') {
      queryParams.push(p.name);
      properties[arg(p.name)] = parameterSchema(doc, p);
      if (p.required) required.push(arg(p.name));
    }
  }
  // path parameters the document left out (it lists them all today): still required
  for (const m of o.path.matchAll(/\{([^}]+)\}/g)) {
    if (!pathParams.includes(m[1])) {
      pathParams.push(m[1]);
      required.push(arg(m[1]));
      properties[arg(m[1])] = { type: 'string' };
    }
  }

  const isList = o.method === 'GET' && !o.path.replace(/\/$/, '').endsWith('}');
  let paging: ToolSpec['paging'];
  if (isList && o.iface === 'v2' && (queryParams.includes('page[cursor]') || queryParams.includes('page[size]'))) {
    paging = 'cursor';
  } else if (isList && o.iface === 'v1') {
    // /v1 lists paginate by page number (core/pagination/v1-page.ts); the document does not list the two parameters
    paging = 'page';
    for (const [p, description] of [
      ['page', 'Page number, from 1 (the answer\'s "next" is null on the last page).'],
      ['page_size', "Results per page (capped by the family's limit)."],
    ] as const) {
      if (!queryParams.includes(p)) {
        queryParams.push(p);
        properties[arg(p)] = { type: 'integer', minimum: 1, description };
      }
    }
  }
  if (paging === 'cursor') {
    if (!queryParams.includes('page[cursor]')) queryParams.push('page[cursor]');
    properties[arg('page[cursor]')] = { ...(properties[arg('page[cursor]')] ?? {}), type: 'string', description: 'The next_cursor of the previous page; omit for the first page.' };
  }

  let body: ToolSpec['body'] = 'members';
  let additional = true;
  const content = o.op.requestBody?.content;
  const raw = content ? (content['application/json'] ?? Object.values(content)[0])?.schema : undefined;
  if (raw !== undefined) {
    const schema = inlineSchema(doc, raw);
    const members = schema.type === 'object' || schema.properties ? ((schema.properties as Record<string, Schema> | undefined) ?? {}) : undefined;
    const clash = members && Object.keys(members).some((m) => m in properties || m === 'body' || argumentName(m) !== m);
    if (members && !clash) {
      Object.assign(properties, members);
      for (const r of (schema.required as string[] | undefined) ?? []) required.push(r);
      additional = schema.additionalProperties !== false;
    } else {
      body = 'wrapped';
      properties.body = schema;
      required.push('body');
      additional = false;
    }
  } else if (o.method === 'GET') {
    additional = true; // more filters go to the query string
  }
  // writes take an Idempotency-Key, as over HTTP (a retried tool call then does the work once)
  let idempotencyArg: string | undefined;
  if (o.method !== 'GET' && !(IDEMPOTENCY_ARG in properties)) {
    idempotencyArg = IDEMPOTENCY_ARG;
    properties[IDEMPOTENCY_ARG] = {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description:
        'Sent as the Idempotency-Key header: a repeat with the same key and arguments within 24 h answers the first result without doing the work again (another body with the same key: 422; while the first runs: 409).',
    };
  }

  const confirm = isDestructive(o.method, o.path);
  const dryRun = o.method !== 'GET' && !o.rule.isPublic;
  if (dryRun && !(DRY_RUN_ARG in properties)) {
    queryParams.push(DRY_RUN_ARG);
    properties[DRY_RUN_ARG] = {
      type: 'boolean',
      description:
        'true: a dry run (the dry_run=true query parameter): every validation and conflict check runs and the answer is the one the write would give, but nothing is written and nothing is emitted.',
    };
  }
  if (confirm && !(CONFIRM_ARG in properties)) {
    properties[CONFIRM_ARG] = {
      type: 'boolean',
      description:
        'This operation deletes or cannot be undone: when your client cannot be asked to confirm (MCP elicitation), pass true to confirm it. Without a confirmation nothing changes. A dry run needs none.',
    };
  }

  const readOnly = o.method === 'GET';
  const scopes = o.rule.isPublic ? 'none (public)' : o.rule.scopes?.length ? `one of ${o.rule.scopes.join(', ')}` : 'any valid token';
  const lines = [
    o.summary || o.op.summary || titleOf(o.name),
    `${o.method} ${o.path} (${o.iface === 'v2' ? 'the /v2 JSON:API' : 'the /v1 API'}); answers that operation's JSON.`,
    `Scopes: ${scopes}.`,
  ];
  if (paging === 'cursor') lines.push("Paginated: pass the answer's next_cursor as page.cursor (the page[cursor] parameter) for the next page; has_more is false on the last.");
  if (paging === 'page') lines.push('Paginated by page number: page and page_size; "next" is null on the last page.');
  if (o.op.description && o.op.description !== o.op.summary) lines.push(o.op.description.slice(0, 600));
  if (!readOnly) lines.push(body === 'wrapped' ? 'The request body is the body argument.' : "Arguments other than the path and query parameters are the request body's members.");
  else lines.push('Arguments that are not listed are sent as query parameters (filter.x as filter[x]).');
  if (confirm) lines.push('Destructive: needs a confirmation (confirm: true when your client is not asked).');
  if (dryRun) lines.push('dry_run: true answers what the write would answer without writing anything.');
  if (Object.keys(argOf).length)
    lines.push(
      `Parameters: ${Object.entries(argOf)
        .map(([n, a]) => `${a} is ${n}`)
        .join(', ')}.`,
    );

  const inputSchema: ToolSpec['inputSchema'] = { type: 'object', properties };
  const req = [...new Set(required)].filter((r) => r in properties);
  if (req.length) inputSchema.required = req;
  if (!additional) inputSchema.additionalProperties = false;

  return {
    name: o.name,
    title: o.summary || titleOf(o.name),
    description: lines.join('\n'),
    inputSchema,
    annotations: {
      readOnlyHint: readOnly,
      destructiveHint: confirm,
      idempotentHint: o.method === 'GET' || o.method === 'PUT' || o.method === 'DELETE',
      openWorldHint: false,
    },
    operationId: o.op.operationId ?? o.name,
    tags: o.op.tags ?? [],
    outputSchema: outputSchemaOf(doc, o.op),
    confirm,
    dryRun,
    method: o.method,
    path: o.path,
    pathParams,
    queryParams,
    argOf,
    body,
    rule: o.rule,
    interface: o.iface,
    paging,
    idempotencyArg,
  };
}

/**
 * The tool's outputSchema: the JSON schema of each success status's answer (one, or `anyOf` when a
 * batch answers 200 or 207 alike), with read-only members kept (they are what an answer carries).
 * MCP requires an object at the root: an operation that answers no JSON object (204, a bare
 * array, a file) has none, and its answer is text only.
 */
function outputSchemaOf(doc: any, op: OpenApiOperation): ToolSpec['outputSchema'] {
  const schemas: Schema[] = [];
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    if (!/^2\d\d$/.test(status)) continue;
    const content = response?.content;
    const raw = content ? (content['application/json'] ?? content['application/vnd.api+json'] ?? Object.values(content)[0])?.schema : undefined;
    if (raw === undefined) return undefined; // a success without a JSON body (204): structuredContent could not always be given
    const schema = inlineSchema(doc, raw, 0, new Set(), 'output');
    if (schema.type !== 'object' && !schema.properties) return undefined;
    schemas.push(schema);
  }
  if (!schemas.length) return undefined;
  const distinct = [...new Map(schemas.map((s) => [JSON.stringify(s), s])).values()];
  return distinct.length === 1 ? { ...distinct[0], type: 'object' } : { type: 'object', anyOf: distinct };
}

/** Whether a caller holding `scopes` may run the tool's operation (the guard's any-of rule). */
export function toolAllowed(tool: ToolSpec, scopes: ReadonlySet<string>): boolean {
  return tool.rule.isPublic || !tool.rule.scopes?.length || tool.rule.scopes.some((s) => scopes.has(s));
}
