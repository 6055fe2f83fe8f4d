import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { resourceMetadataUrl } from './mcp.controller';
import { answerHeaders, McpService } from './mcp.service';

/**
 * The read tools' fast path (issue 33 item 7: a tool call within 1.25x the CPU of its HTTP
 * operation). A `tools/call` of a read tool is the operation's GET; run through /mcp and then
 * Fastify's `inject`, it went through two request pipelines (the /mcp route's and the
 * operation's) plus light-my-request's request and response. Here the one HTTP request that
 * carries the JSON-RPC message becomes the operation's request:
 *
 * - before Fastify sees it, a POST to /mcp with a Bearer token and a small JSON body is read and
 *   parsed; when it is ONE `tools/call` of a GET tool whose arguments make a request (the same
 *   McpService.requestOf as every call), the raw request is turned into that GET (method, URL,
 *   `Accept: application/json`, no body) and handed to Fastify: every hook, the guard (the same
 *   token: scopes, organization), validation, rate limits and the handler run as for the
 *   operation, as with inject;
 * - an onSend hook wraps the operation's answer, as sent, into the JSON-RPC answer McpService
 *   gives (text content, structuredContent, isError, `_meta`), HTTP 200; a 401 stays the /mcp
 *   challenge (401 with `resource_metadata`).
 * Anything else (another method, a batch, a write, an unknown tool, bad arguments, the catalog not
 * built yet) goes to the /mcp route unchanged: its buffered body is handed back to Fastify's body
 * parser by a preParsing hook. The request's log line names the operation's GET.
 */
const MCP_CALL = Symbol('mcpCall');
const MCP_BODY = Symbol('mcpBody');
/** A tools/call that fits a few KiB; anything bigger is not a read's arguments. */
const MAX_FAST_BODY = 16 * 1024;

interface FastCall {
  id: string | number;
}

type Raw = IncomingMessage & { [MCP_CALL]?: FastCall; [MCP_BODY]?: Buffer };

export function installMcpFastPath(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const mcp = app.get(McpService);
  const config = app.get(AppConfig);

  // the /mcp route's body, read before Fastify (below), handed back to its body parser
  fastify.addHook('preParsing', (req, _reply, payload, done) => {
    const body = (req.raw as Raw)[MCP_BODY];
    if (body === undefined) return done(null, payload);
    const replay = Readable.from([body]) as Readable & { receivedEncodedLength?: number };
    replay.receivedEncodedLength = body.length;
    done(null, replay);
  });

  fastify.addHook('onSend', (req, reply, payload, done) => {
    const call = (req.raw as Raw)[MCP_CALL];
    if (call === undefined) return done(null, payload);
    const status = reply.statusCode;
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
    if (status === 401) {
      // the /mcp challenge: the client's authorization flow starts from it
      const challenge = String(reply.getHeader('www-authenticate') ?? 'Bearer').replace(/^Bearer\s*/i, '');
      const metadata = `resource_metadata="${resourceMetadataUrl(requestBaseUrl(config, req))}"`;
      reply.header('WWW-Authenticate', `Bearer ${challenge ? `${challenge}, ${metadata}` : metadata}`);
      return done(null, payload);
    }
    const meta = { http_status: status, ...answerHeaders(reply.getHeaders() as Record<string, unknown>) };
    const result = JSON.stringify({ content: [{ type: 'text', text: text || `HTTP ${status}` }], isError: status >= 400, _meta: meta });
    const structured = status < 400 && text.charCodeAt(0) === 123; /* { */
    const json = `{"jsonrpc":"2.0","id":${JSON.stringify(call.id)},"result":${structured ? `${result.slice(0, -1)},"structuredContent":${text}}` : result}}`;
    reply.code(200);
    for (const h of ['link', 'etag', 'last-modified', 'location', 'content-disposition']) reply.removeHeader(h);
    reply.header('Content-Type', 'application/json').header('Cache-Control', 'no-store');
    done(null, json);
  });

  const server = fastify.server;
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (listeners.length !== 1) {
    // not the one Fastify listener this expects: every call goes through the /mcp route
    new Logger('McpFastPath').warn({ listeners: listeners.length }, 'MCP read fast path not installed');
    return;
  }
  const route = listeners[0];
  server.removeAllListeners('request');
  server.on('request', (req: Raw, res: ServerResponse) => {
    const h = req.headers;
    const length = Number(h['content-length']);
    if (
      req.method !== 'POST' ||
      (req.url !== '/mcp' && req.url !== '/mcp/' && !req.url?.startsWith('/mcp?')) ||
      !h.authorization?.startsWith('Bearer ') ||
      !(length > 0 && length <= MAX_FAST_BODY) ||
      h['transfer-encoding'] !== undefined ||
      !/^application\/json\s*(;|$)/i.test(h['content-type'] ?? '') ||
      !h.accept?.includes('application/json') ||
      !h.accept.includes('text/event-stream') ||
      (h['mcp-protocol-version'] !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(h['mcp-protocol-version']))) ||
      !mcp.ready()
    ) {
      return route(req, res);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      chunks.push(c);
    });
    req.on('error', () => undefined);
    req.on('end', () => {
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      const fast = size === length ? fastRequest(mcp, body) : undefined;
      if (!fast) {
        req[MCP_BODY] = body;
        return route(req, res);
      }
      req[MCP_CALL] = { id: fast.id };
      req.method = 'GET';
      req.url = fast.url;
      delete h['content-length'];
      delete h['content-type'];
      h.accept = 'application/json';
      route(req, res);
    });
  });
}

/** The GET of a single tools/call of a read tool, or undefined (the /mcp route answers it). */
function fastRequest(mcp: McpService, body: Buffer): { id: string | number; url: string } | undefined {
  let msg: any;
  try {
    msg = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!msg || typeof msg !== 'object' || Array.isArray(msg) || msg.jsonrpc !== '2.0' || msg.method !== 'tools/call') return undefined;
  if (typeof msg.id !== 'string' && typeof msg.id !== 'number') return undefined;
  const name = msg.params?.name;
  const args = msg.params?.arguments ?? {};
  if (typeof name !== 'string' || !args || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const url = mcp.readUrl(name, args);
  return url === undefined ? undefined : { id: msg.id, url };
}
