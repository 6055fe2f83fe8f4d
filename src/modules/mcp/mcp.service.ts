import { Injectable, Logger } from '@nestjs/common';
import { DiscoveryService, HttpAdapterHost } from '@nestjs/core';
import { CallToolResult, ErrorCode, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, Tool } from '@modelcontextprotocol/sdk/types.js';
import Ajv, { ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Principal } from '../../core/auth/principal';
import { buildCatalog, CONFIRM_ARG, DRY_RUN_ARG, toolAllowed, ToolSpec } from './catalog';
import { CALL_OPERATION, DEFAULT_TOOLS, META_TOOLS, SEARCH_OPERATIONS, searchOperations } from './meta-tools';
import { routeRules } from './route-rules';

/** The HTTP request that carried the MCP message: what the in-process dispatch repeats of it. */
export interface Caller {
  principal: Principal;
  /** the caller's `Authorization` header, sent unchanged with every operation */
  authorization: string;
  /** Host and the forwarding headers, so the operation's links are those of a direct request */
  headers: Record<string, string>;
  ip: string;
}

/** Header names forwarded to the operation besides Authorization. */
export const FORWARDED_HEADERS = ['host', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-for', 'user-agent', 'accept-language'];

const SERVER_INFO = { name: 'course-platform-api', title: 'Course Platform API', version: '2.0.0' };
const INSTRUCTIONS =
  'Each tool runs one operation of the /v2 JSON:API or the /v1 API with your token and answers its JSON unchanged. ' +
  "Failures are tool errors carrying the API's error body. /v2 lists page with page.cursor (pass next_cursor); /v1 lists with page and page_size. " +
  "Only the tools your token's scopes allow are listed. The list is a curated everyday set: search_operations finds any other " +
  'operation of either interface by words, and call_operation runs it by its operation_id. Destructive tools need confirm: true; ' +
  'writes take dry_run: true to see their answer without writing anything.';

/** Keep the brackets of `page[size]` / `filter[domain]` readable in the query string, as clients write them. */
const encodeQuery = (v: string) => encodeURIComponent(v).replace(/%5B/gi, '[').replace(/%5D/gi, ']');

class ArgumentError extends Error {
  constructor(
    readonly argument: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The MCP server: its tools are the API's operations (catalog.ts), and a tool call is the
 * operation itself, dispatched in-process through Fastify's `inject` with the caller's
 * Authorization header, so the global guard, scopes, validation, organization scoping,
 * idempotency and rate limits apply exactly as over HTTP, and the answer is the same JSON.
 */
/** A JSON-RPC message as it arrives (validated here, not by the SDK's zod schemas). */
export interface RpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}
export interface RpcResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}
/**
 * Asks the client's user to confirm a destructive call (MCP elicitation, when the client declared
 * it): true when the user accepted with confirm: true.
 */
export type Confirmer = (tool: ToolSpec) => Promise<boolean>;

/** How long a call waits for the user's answer to an elicitation. */
const ELICITATION_TIMEOUT_MS = 10 * 60_000;

/** What `tools/list` offers: the curated default set, or every tool (`/mcp?tools=all`). */
export type ToolView = 'default' | 'all';

/** Tools per page of tools/list (CONVENTIONS §21: at most 100). */
export const TOOLS_PAGE = 100;

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The built catalog: every tool, by name and by operationId. */
interface Catalog {
  /** the listed tools (tools/list, tools/call by name) */
  tools: ToolSpec[];
  /** the operations call_operation runs but tools/list does not list (catalog.ts `callOnly`), by name */
  callOnly: Map<string, ToolSpec>;
  byName: Map<string, ToolSpec>;
  byOperationId: Map<string, ToolSpec>;
  /** the default view's tools, in catalog order */
  defaults: ToolSpec[];
}

/**
 * The MCP server: its tools are the API's operations (catalog.ts), and a tool call is the
 * operation itself, dispatched in-process through Fastify's `inject` with the caller's
 * Authorization header, so the global guard, scopes, validation, organization scoping,
 * idempotency and rate limits apply exactly as over HTTP, and the answer is the same JSON.
 *
 * The JSON-RPC layer is this one object, shared by every request (issue 33 item 7): no SDK Server
 * or transport is built per request. It answers initialize, ping, tools/list and tools/call as the
 * SDK's server does (its protocol versions, its error codes); the SDK's client drives it in the tests.
 */
@Injectable()
export class McpService {
  private readonly logger = new Logger(McpService.name);
  private catalog?: Promise<Catalog>;
  /** the catalog once built (the read tools' fast path reads it without a promise) */
  private builtCatalog?: Catalog;
  private readonly ajv = new Ajv({ strict: false, validateFormats: false, allErrors: false });
  private readonly validators = new Map<string, ValidateFunction | null>();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly discovery: DiscoveryService,
  ) {}

  private fastify(): FastifyInstance {
    return this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
  }

  /** Every tool (the full list), built on first use from the served OpenAPI document (routes are fixed once the app listens). */
  async tools(): Promise<ToolSpec[]> {
    return (await this.built()).tools;
  }

  private built(): Promise<Catalog> {
    this.catalog ??= this.buildCatalog()
      .then((c) => (this.builtCatalog = c))
      .catch((err) => {
        this.catalog = undefined;
        throw err;
      });
    return this.catalog;
  }

  private async buildCatalog(): Promise<Catalog> {
    const res = await this.fastify().inject({ method: 'GET', url: '/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`the OpenAPI document answered ${res.statusCode}`);
    const controllers = this.discovery
      .getControllers()
      .map((w) => w.metatype)
      .filter((m): m is Function => typeof m === 'function');
    const all = buildCatalog(JSON.parse(res.body), routeRules(controllers));
    const tools = all.filter((t) => !t.callOnly);
    const callOnly = new Map(all.filter((t) => t.callOnly).map((t) => [t.name, t]));
    const byName = new Map(tools.map((t) => [t.name, t]));
    const byOperationId = new Map<string, ToolSpec>();
    for (const t of all) if (!byName.has(t.operationId) || byName.get(t.operationId) === t) byOperationId.set(t.operationId, t);
    const wanted = new Set(DEFAULT_TOOLS);
    const defaults = tools.filter((t) => wanted.has(t.name));
    this.logger.log({ tools: tools.length, defaults: defaults.length }, 'MCP tool catalog built');
    return { tools, callOnly, byName, byOperationId, defaults };
  }

  /** Whether the catalog is built (mcp-fast-path.ts takes reads only then). */
  ready(): boolean {
    return this.builtCatalog !== undefined;
  }

  /**
   * The operation's URL of a call of a read tool whose answer is a JSON object (it has an
   * outputSchema), or undefined when the call is anything else or its arguments make no request:
   * mcp-fast-path.ts runs such a call as that GET itself.
   */
  readUrl(name: string, args: Record<string, unknown>): string | undefined {
    const tool = this.builtCatalog?.byName.get(name);
    if (!tool || tool.method !== 'GET' || !tool.outputSchema) return undefined;
    try {
      return this.request(tool, args).url;
    } catch {
      return undefined;
    }
  }

  /** The operation named by a tool name or an OpenAPI operationId (call_operation and search_operations). */
  async operation(id: string): Promise<ToolSpec | undefined> {
    const c = await this.built();
    return c.byName.get(id) ?? c.byOperationId.get(id) ?? c.callOnly.get(id);
  }

  /** The tools a caller may use, in the order tools/list gives them: search_operations and call_operation first, then the view's tools. */
  async listed(caller: Caller, view: ToolView): Promise<Tool[]> {
    const c = await this.built();
    const scopes = caller.principal.scopes;
    const tools = (view === 'all' ? c.tools : c.defaults).filter((t) => toolAllowed(t, scopes)).map(describe);
    return [...META_TOOLS, ...tools];
  }

  /** One JSON-RPC message; undefined for a notification or a response (nothing to answer). */
  async handle(message: RpcMessage, caller: Caller, view: ToolView, confirmer?: Confirmer): Promise<RpcResponse | undefined> {
    if (message.id === undefined || typeof message.method !== 'string') {
      // a client's answer to one of our requests (an elicitation)
      if (message.id !== undefined && typeof message.id === 'string') this.pending.get(message.id)?.(message);
      return undefined;
    }
    const id = message.id as string | number;
    try {
      return { jsonrpc: '2.0', id, result: await this.dispatch(message.method, message.params, caller, view, confirmer) };
    } catch (e) {
      if (e instanceof RpcError) return { jsonrpc: '2.0', id, error: { code: e.code, message: e.message } };
      this.logger.error({ err: e, method: message.method }, 'MCP request failed');
      return { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: 'Internal error' } };
    }
  }

  /** Elicitations waiting for the client's answer, by the id of our request (this process only). */
  private readonly pending = new Map<string, (answer: RpcMessage) => void>();

  /** The client's answer to our request `id` (undefined when none came in time). */
  awaitAnswer(id: string): Promise<RpcMessage | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(undefined);
      }, ELICITATION_TIMEOUT_MS);
      timer.unref();
      this.pending.set(id, (answer) => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(answer);
      });
    });
  }

  /** Whether this message is a call that will need the user's confirmation (the controller then answers it as an event stream). */
  async needsConfirmation(message: RpcMessage): Promise<boolean> {
    if (message.method !== 'tools/call' || message.id === undefined) return false;
    const p = (message.params ?? {}) as { name?: unknown; arguments?: Record<string, unknown> };
    const args = p.arguments && typeof p.arguments === 'object' ? p.arguments : {};
    let tool: ToolSpec | undefined;
    let opArgs: Record<string, unknown> = args;
    if (p.name === CALL_OPERATION) {
      tool = typeof args.operation_id === 'string' ? await this.operation(args.operation_id) : undefined;
      opArgs = {
        ...((args.arguments as Record<string, unknown>) ?? {}),
        ...(args[CONFIRM_ARG] !== undefined ? { [CONFIRM_ARG]: args[CONFIRM_ARG] } : {}),
        ...(args[DRY_RUN_ARG] !== undefined ? { [DRY_RUN_ARG]: args[DRY_RUN_ARG] } : {}),
      };
    } else if (typeof p.name === 'string') {
      tool = (await this.built()).byName.get(p.name);
    }
    if (!tool?.confirm) return false;
    const dry = tool.dryRun && (opArgs[DRY_RUN_ARG] === true || opArgs[DRY_RUN_ARG] === 'true');
    return !dry && opArgs[CONFIRM_ARG] !== true;
  }

  private async dispatch(method: string, params: unknown, caller: Caller, view: ToolView, confirmer?: Confirmer): Promise<unknown> {
    const p = (params && typeof params === 'object' && !Array.isArray(params) ? params : {}) as Record<string, unknown>;
    switch (method) {
      case 'initialize': {
        const asked = p.protocolVersion;
        const protocolVersion = typeof asked === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
        return { protocolVersion, capabilities: { tools: { listChanged: false } }, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS };
      }
      case 'ping':
        return {};
      case 'tools/list': {
        const all = await this.listed(caller, view);
        let offset = 0;
        if (p.cursor !== undefined) {
          const n = typeof p.cursor === 'string' && /^o[0-9]+$/.test(p.cursor) ? Number(p.cursor.slice(1)) : NaN;
          if (!Number.isSafeInteger(n) || n <= 0 || n >= all.length) throw new RpcError(ErrorCode.InvalidParams, 'Invalid cursor');
          offset = n;
        }
        const page = all.slice(offset, offset + TOOLS_PAGE);
        return offset + TOOLS_PAGE < all.length ? { tools: page, nextCursor: `o${offset + TOOLS_PAGE}` } : { tools: page };
      }
      case 'tools/call': {
        const name = p.name;
        if (typeof name !== 'string') throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: name must be a string');
        const args = p.arguments ?? {};
        if (!args || typeof args !== 'object' || Array.isArray(args)) throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: arguments must be an object');
        return this.callTool(name, args as Record<string, unknown>, caller, confirmer);
      }
      default:
        throw new RpcError(ErrorCode.MethodNotFound, 'Method not found');
    }
  }

  /** tools/call: a meta tool, or any tool of the catalog by name (listed or not: the list is a view, the guard decides). */
  async callTool(name: string, args: Record<string, unknown>, caller: Caller, confirmer?: Confirmer): Promise<CallToolResult> {
    if (name === SEARCH_OPERATIONS) {
      const c = await this.built();
      return searchOperations(
        [...c.tools, ...c.callOnly.values()].filter((t) => toolAllowed(t, caller.principal.scopes)),
        args,
      );
    }
    if (name === CALL_OPERATION) return this.callOperation(args, caller, confirmer);
    const tool = (await this.built()).byName.get(name);
    if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return this.call(tool, args, caller, confirmer);
  }

  /** call_operation: an operation by its operation_id, with its arguments validated against the operation's input schema. */
  private async callOperation(args: Record<string, unknown>, caller: Caller, confirmer?: Confirmer): Promise<CallToolResult> {
    const id = args.operation_id;
    if (typeof id !== 'string' || id === '') return metaError('operation_id is required: an operation_id that search_operations answered.');
    const tool = await this.operation(id);
    if (!tool || id === SEARCH_OPERATIONS || id === CALL_OPERATION) return metaError(`No operation ${JSON.stringify(id)}: search_operations finds operations by words.`);
    const given = args.arguments ?? {};
    if (!given || typeof given !== 'object' || Array.isArray(given)) return metaError("arguments must be an object: the operation's arguments, as its input_schema names them.");
    const opArgs: Record<string, unknown> = { ...(given as Record<string, unknown>) };
    // confirm and dry_run may be given beside arguments as well as in them
    if (args[CONFIRM_ARG] !== undefined && tool.confirm) opArgs[CONFIRM_ARG] ??= args[CONFIRM_ARG];
    if (args[DRY_RUN_ARG] !== undefined && tool.dryRun) opArgs[DRY_RUN_ARG] ??= args[DRY_RUN_ARG];
    const invalid = this.invalidArguments(tool, opArgs);
    if (invalid) return argumentError(tool, new ArgumentError(invalid.argument, invalid.message));
    return this.call(tool, opArgs, caller, confirmer);
  }

  /** The operation's input schema checked with Ajv (call_operation's "validated arguments"); the API validates again. */
  private invalidArguments(tool: ToolSpec, args: Record<string, unknown>): { argument: string; message: string } | undefined {
    let validate = this.validators.get(tool.name);
    if (validate === undefined) {
      try {
        validate = this.ajv.compile(tool.inputSchema);
      } catch (e) {
        this.logger.warn({ tool: tool.name, err: e }, 'MCP input schema does not compile; arguments left to the API');
        validate = null;
      }
      this.validators.set(tool.name, validate);
    }
    if (!validate || validate(args)) return undefined;
    const err = validate.errors?.[0];
    const where = err ? (err.params && 'missingProperty' in err.params ? String(err.params.missingProperty) : err.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'arguments') : 'arguments';
    return { argument: where, message: `Invalid arguments for ${tool.name}: ${where} ${err?.message ?? 'is invalid'}.` };
  }

  /** Run the tool's operation as the caller; an answer of 400 or more is a tool error with the API's body. */
  async call(tool: ToolSpec, args: Record<string, unknown>, caller: Caller, confirmer?: Confirmer): Promise<CallToolResult> {
    if (!args || typeof args !== 'object' || Array.isArray(args)) return argumentError(tool, new ArgumentError('arguments', 'The arguments must be an object.'));
    const dryRun = tool.dryRun && (args[DRY_RUN_ARG] === true || args[DRY_RUN_ARG] === 'true');
    if (tool.confirm && !dryRun && args[CONFIRM_ARG] !== true) {
      // the client declared elicitation: its user is asked; otherwise the agent must pass confirm: true
      if (!confirmer) return confirmationRequired(tool);
      if (!(await confirmer(tool))) return confirmationDeclined(tool);
    }
    let request: { url: string; body?: unknown; idempotencyKey?: string };
    try {
      request = this.request(tool, args);
    } catch (e) {
      if (e instanceof ArgumentError) return argumentError(tool, e);
      throw e;
    }
    const headers: Record<string, string> = { ...caller.headers, authorization: caller.authorization, accept: 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
    const res = await this.fastify().inject({
      method: tool.method as 'GET',
      url: request.url,
      headers,
      payload: request.body === undefined ? undefined : JSON.stringify(request.body),
      remoteAddress: caller.ip,
    });
    const status = res.statusCode;
    const result: CallToolResult = {
      content: [{ type: 'text', text: res.body || `HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trim() }],
      isError: status >= 400,
      _meta: { http_status: status, ...answerHeaders(res.headers) },
    };
    // structuredContent: the answer object, which the tool's outputSchema (section 16's declaration)
    // describes. Its JSON is the operation's own body, spliced into the answer as it is (rpcJson):
    // parsing it here to serialize it again cost a fifth of a list call's CPU
    if (status < 400 && tool.outputSchema && res.body.charCodeAt(0) === 123 /* { */ && res.headers['content-type']?.toString().includes('json')) {
      RAW_STRUCTURED.set(result, res.body);
    }
    return result;
  }

  /** The operation's URL (path parameters, query string) and body, from the tool's arguments. */
  private request(tool: ToolSpec, args: Record<string, unknown>): { url: string; body?: unknown; idempotencyKey?: string } {
    if (!args || typeof args !== 'object' || Array.isArray(args)) throw new ArgumentError('arguments', 'The arguments must be an object.');
    // a parameter's argument (`page.size`), or its name as the API spells it (`page[size]`)
    const argName = (name: string) => tool.argOf[name] ?? name;
    const valueOf = (name: string) => (args[argName(name)] !== undefined ? args[argName(name)] : args[name]);
    const path = tool.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const v = valueOf(name);
      if ((typeof v !== 'string' && typeof v !== 'number') || String(v) === '') throw new ArgumentError(argName(name), `${argName(name)} is required (a string).`);
      return encodeURIComponent(String(v));
    });
    const query: string[] = [];
    const addQuery = (name: string, v: unknown) => {
      if (v === undefined || v === null) return;
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') query.push(`${encodeQuery(name)}=${encodeQuery(String(v))}`);
      else if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean')) v.forEach((x) => addQuery(name, x));
      // `filter: {domain: "x"}` is `filter[domain]=x`
      else if (typeof v === 'object' && !Array.isArray(v)) for (const [k, sub] of Object.entries(v)) addQuery(`${name}[${k}]`, sub);
      else throw new ArgumentError(name, `${name} must be a string, a number, a boolean or a list of them.`);
    };
    for (const name of tool.queryParams) addQuery(name, valueOf(name));
    let idempotencyKey: string | undefined;
    if (tool.idempotencyArg && args[tool.idempotencyArg] !== undefined) {
      const k = args[tool.idempotencyArg];
      if (typeof k !== 'string' || k === '' || k.length > 255) throw new ArgumentError(tool.idempotencyArg, `${tool.idempotencyArg} must be a string of 1 to 255 characters.`);
      idempotencyKey = k;
    }
    const taken = new Set([...tool.pathParams, ...tool.queryParams].flatMap((n) => [n, argName(n)]));
    if (tool.idempotencyArg) taken.add(tool.idempotencyArg);
    if (tool.confirm) taken.add(CONFIRM_ARG);
    const rest = Object.entries(args).filter(([k]) => !taken.has(k));
    let body: unknown;
    if (tool.method === 'GET') {
      // an unlisted filter: `filter.x` is `filter[x]`
      for (const [k, v] of rest) addQuery(k.replace(/\.([^.]+)/g, '[$1]'), v);
    } else if (tool.body === 'wrapped') {
      body = args.body;
      const extra = rest.filter(([k]) => k !== 'body').map(([k]) => k);
      if (extra.length) throw new ArgumentError(extra[0], `Unknown arguments: ${extra.join(', ')} (the request body is the body argument).`);
    } else if (rest.length) {
      body = Object.fromEntries(rest);
    }
    return { url: query.length ? `${path}?${query.join('&')}` : path, body, idempotencyKey };
  }
}

/** The structuredContent of a tool result as the operation's JSON text, spliced in by rpcJson (never parsed). */
const RAW_STRUCTURED = new WeakMap<object, string>();

/** A JSON-RPC answer as JSON text: a tool result's structuredContent is its operation's body, as sent. */
export function rpcJson(answer: RpcResponse): string {
  const raw = answer.result && typeof answer.result === 'object' ? RAW_STRUCTURED.get(answer.result) : undefined;
  if (raw === undefined) return JSON.stringify(answer);
  const result = JSON.stringify(answer.result);
  return `{"jsonrpc":"2.0","id":${JSON.stringify(answer.id)},"result":${result.slice(0, -1)},"structuredContent":${raw}}}`;
}

/** Answer headers a caller acts on, in the result's `_meta` (rate limits and Retry-After, Location, an idempotent replay). */
const ANSWER_HEADERS = ['retry-after', 'ratelimit', 'ratelimit-policy', 'location', 'idempotent-replayed'];
export function answerHeaders(headers: Record<string, unknown>): { http_headers?: Record<string, string> } {
  const out: Record<string, string> = {};
  for (const h of ANSWER_HEADERS) if (typeof headers[h] === 'string' || typeof headers[h] === 'number') out[h] = String(headers[h]);
  return Object.keys(out).length ? { http_headers: out } : {};
}

/** The tools/list entry of a tool. */
export function describe(t: ToolSpec): Tool {
  const tool: Tool = { name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: { title: t.title, ...t.annotations } };
  if (t.outputSchema) tool.outputSchema = t.outputSchema;
  return tool;
}

/** Arguments that cannot make a request: a tool error in the interface's own error shape, nothing sent. */
function argumentError(tool: ToolSpec, e: ArgumentError): CallToolResult {
  const body =
    tool.interface === 'v1' ? { detail: e.message } : { errors: [{ status: '422', code: 'validation_error', title: 'Validation failed', detail: e.message, source: { parameter: e.argument } }] };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true, _meta: { http_status: tool.interface === 'v1' ? 400 : 422 } };
}

/** A destructive call without its confirmation: nothing is sent (CONVENTIONS §21). */
function confirmationRequired(tool: ToolSpec): CallToolResult {
  const detail = `${tool.name} (${tool.method} ${tool.path}) deletes or cannot be undone: confirm with the user, then call it again with confirm: true (or with dry_run: true to see its answer first). Nothing was changed.`;
  const body = tool.interface === 'v1' ? { detail } : { errors: [{ status: '428', code: 'confirmation_required', title: 'Confirmation required', detail, source: { parameter: CONFIRM_ARG } }] };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true, _meta: { confirmation_required: true } };
}

/** The user did not confirm when asked (declined, cancelled, or no answer in time): nothing is sent. */
function confirmationDeclined(tool: ToolSpec): CallToolResult {
  const detail = `The user did not confirm ${tool.name} (${tool.method} ${tool.path}). Nothing was changed.`;
  const body = tool.interface === 'v1' ? { detail } : { errors: [{ status: '428', code: 'confirmation_declined', title: 'Not confirmed', detail }] };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true, _meta: { confirmation_required: true, confirmation_declined: true } };
}

/** The elicitation request that asks the user to confirm a destructive call. */
export function confirmationRequest(id: string, tool: ToolSpec): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    method: 'elicitation/create',
    params: {
      message: `Confirm ${tool.title} (${tool.method} ${tool.path}): it deletes or cannot be undone.`,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Confirm', description: `Run ${tool.name} now` } },
        required: ['confirm'],
      },
    },
  };
}

/** A call_operation that names no operation or gives no arguments object. */
function metaError(detail: string): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify({ error: 'invalid_arguments', detail }) }], isError: true };
}
