import { Injectable, Logger } from '@nestjs/common';
import { DiscoveryService, HttpAdapterHost } from '@nestjs/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { CallToolRequestSchema, CallToolResult, ErrorCode, ListToolsRequestSchema, McpError, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Principal } from '../../core/auth/principal';
import { buildCatalog, toolAllowed, ToolSpec } from './catalog';
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
  'Failures are tool errors carrying the API\'s error body. /v2 lists page with page.cursor (pass next_cursor); /v1 lists with page and page_size. ' +
  'Only the tools your token\'s scopes allow are listed.';

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
@Injectable()
export class McpService {
  private readonly logger = new Logger(McpService.name);
  private catalog?: Promise<ToolSpec[]>;
  /**
   * One JSON Schema validator for every per-request Server: the SDK otherwise builds a new Ajv
   * instance in each Server's constructor (about a fifth of a tool call's CPU, measured with
   * bench/mcp.js), and ours never validates a schema (no elicitation).
   */
  private readonly validator = new AjvJsonSchemaValidator();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly discovery: DiscoveryService,
  ) {}

  private fastify(): FastifyInstance {
    return this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
  }

  /** The catalog, built on first use from the served OpenAPI document (routes are fixed once the app listens). */
  tools(): Promise<ToolSpec[]> {
    this.catalog ??= this.buildCatalog().catch((err) => {
      this.catalog = undefined;
      throw err;
    });
    return this.catalog;
  }

  private async buildCatalog(): Promise<ToolSpec[]> {
    const res = await this.fastify().inject({ method: 'GET', url: '/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`the OpenAPI document answered ${res.statusCode}`);
    const controllers = this.discovery
      .getControllers()
      .map((w) => w.metatype)
      .filter((m): m is Function => typeof m === 'function');
    const tools = buildCatalog(JSON.parse(res.body), routeRules(controllers));
    this.logger.log({ tools: tools.length }, 'MCP tool catalog built');
    return tools;
  }

  /** An MCP server for one HTTP request (the transport is stateless): tools/list and tools/call for this caller. */
  server(caller: Caller): Server {
    const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator: this.validator });
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      const tools = await this.tools();
      return { tools: tools.filter((t) => toolAllowed(t, caller.principal.scopes)).map(describe) };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tools = await this.tools();
      const tool = tools.find((t) => t.name === request.params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      return this.call(tool, request.params.arguments ?? {}, caller);
    });
    return server;
  }

  /** Run the tool's operation as the caller; an answer of 400 or more is a tool error with the API's body. */
  async call(tool: ToolSpec, args: Record<string, unknown>, caller: Caller): Promise<CallToolResult> {
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
    return {
      content: [{ type: 'text', text: res.body || `HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trim() }],
      isError: status >= 400,
      _meta: { http_status: status, ...answerHeaders(res.headers) },
    };
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

/** Answer headers a caller acts on, in the result's `_meta` (rate limits and Retry-After, Location, an idempotent replay). */
const ANSWER_HEADERS = ['retry-after', 'ratelimit', 'ratelimit-policy', 'location', 'idempotent-replayed'];
function answerHeaders(headers: Record<string, unknown>): { http_headers?: Record<string, string> } {
  const out: Record<string, string> = {};
  for (const h of ANSWER_HEADERS) if (typeof headers[h] === 'string' || typeof headers[h] === 'number') out[h] = String(headers[h]);
  return Object.keys(out).length ? { http_headers: out } : {};
}

/** The tools/list entry of a tool. */
function describe(t: ToolSpec): Tool {
  return { name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations };
}

/** Arguments that cannot make a request: a tool error in the interface's own error shape, nothing sent. */
function argumentError(tool: ToolSpec, e: ArgumentError): CallToolResult {
  const body =
    tool.interface === 'v1'
      ? { detail: e.message }
      : { errors: [{ status: '422', code: 'validation_error', title: 'Validation failed', detail: e.message, source: { parameter: e.argument } }] };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true, _meta: { http_status: tool.interface === 'v1' ? 400 : 422 } };
}
