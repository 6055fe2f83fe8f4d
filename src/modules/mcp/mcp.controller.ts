import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthService } from '../../core/auth/auth.service';
import { Public } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { ApiError } from '../../core/http/api-error';
import { requestBaseUrl } from '../../core/http/base-url';
import { NeutralApi } from '../../core/http/interfaces';
import { checkBatch } from './batch-limits';
import { randomUUID } from 'node:crypto';
import { Caller, Confirmer, confirmationRequest, FORWARDED_HEADERS, McpService, rpcJson, RpcMessage, RpcResponse, ToolView } from './mcp.service';

/** Where a client finds this resource's RFC 9728 metadata (the path-suffixed form of `/mcp`). */
export const resourceMetadataUrl = (base: string) => `${base}/.well-known/oauth-protected-resource/mcp`;

const JSON_CONTENT = /^application\/json\s*(;|$)/i;
/** The prefix of the session id of a client that declared form elicitation. */
const ELICITING = 'e-';
/** Whether initialize's params declare form-mode elicitation (`{}` means form, as the SDK reads it). */
function formElicitation(params: unknown): boolean {
  const e = (params as { capabilities?: { elicitation?: unknown } } | undefined)?.capabilities?.elicitation;
  if (!e || typeof e !== 'object') return false;
  const modes = Object.keys(e);
  return modes.length === 0 || modes.includes('form');
}
const isMessage = (m: unknown): m is RpcMessage =>
  !!m && typeof m === 'object' && !Array.isArray(m) && (m as RpcMessage).jsonrpc === '2.0' && (typeof (m as RpcMessage).method === 'string' || 'result' in (m as object) || 'error' in (m as object));

/**
 * `/mcp`: the MCP server over the Streamable HTTP transport of @modelcontextprotocol/sdk, stateless
 * (no session: every POST carries its own token and gets a fresh server, so any API process can
 * answer any request) and answering JSON rather than an event stream. A protected resource of our
 * OAuth server: a missing or invalid token is 401 with `WWW-Authenticate: Bearer
 * resource_metadata="…"` (RFC 9728 section 5.1), which starts an MCP client's authorization flow.
 * Public for the global guard because this route writes its own challenge; every tool call is
 * then authorized by the guard of the operation it runs.
 */
@ApiExcludeController()
@NeutralApi()
@Controller('mcp')
export class McpController {
  constructor(
    private readonly mcp: McpService,
    private readonly auth: AuthService,
    private readonly config: AppConfig,
  ) {}

  @Public()
  @Post()
  async post(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await this.authenticate(req);
    // JSON-RPC batches: refused where the protocol version has none, capped where it has them
    const refused = checkBatch(req.body, req.headers['mcp-protocol-version'], this.config.BATCH_MAX_ITEMS);
    if (refused) {
      await reply.status(refused.status).header('Content-Type', 'application/json').header('Cache-Control', 'no-store').send(refused.body);
      return;
    }
    // what the SDK's Streamable HTTP transport checks, in its order and with its answers
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return this.rpcError(reply, 406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    }
    if (!JSON_CONTENT.test(req.headers['content-type'] ?? '')) return this.rpcError(reply, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    const body = req.body;
    const batch = Array.isArray(body);
    const messages: unknown[] = batch ? body : [body];
    if (!messages.every(isMessage)) return this.rpcError(reply, 400, -32700, 'Parse error: Invalid JSON-RPC message');
    const init = messages.some((m) => m.method === 'initialize');
    if (init && messages.length > 1) return this.rpcError(reply, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
    const version = req.headers['mcp-protocol-version'];
    if (!init && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) {
      return this.rpcError(reply, 400, -32000, `Bad Request: Unsupported protocol version: ${String(version)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
    }
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const v = req.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    const caller = { principal, authorization: req.headers.authorization!, headers, ip: req.ip };
    const view: ToolView = (req.query as Record<string, unknown> | undefined)?.tools === 'all' ? 'all' : 'default';
    // a client that declares (form) elicitation at initialize gets a session id saying so, which it
    // sends with every request: its destructive calls then ask its user (an event-stream answer)
    const initialize = messages.find((m) => m.method === 'initialize');
    if (initialize && formElicitation(initialize.params)) reply.header('Mcp-Session-Id', `${ELICITING}${randomUUID()}`);
    if (!batch && String(req.headers['mcp-session-id'] ?? '').startsWith(ELICITING) && (await this.mcp.needsConfirmation(messages[0]))) {
      return this.answerAsking(req, reply, messages[0], caller, view);
    }
    const answers: RpcResponse[] = [];
    // one after the other, as the SDK's server handles a batch's messages in order
    for (const m of messages) {
      const a = await this.mcp.handle(m, caller, view);
      if (a) answers.push(a);
    }
    reply.header('Cache-Control', 'no-store');
    // notifications and responses only: 202 without a body
    if (!answers.length) return reply.status(202).send();
    return reply
      .status(200)
      .header('Content-Type', 'application/json')
      .send(batch ? `[${answers.map(rpcJson).join(',')}]` : rpcJson(answers[0]));
  }

  /**
   * A destructive call of a client that supports elicitation: the answer is an event stream that
   * first carries our `elicitation/create` request; the client's answer comes as another POST
   * (McpService.handle routes it to the waiting call), then the call's result ends the stream.
   * The waiting call lives in this process: with several API processes, sessions must be sticky.
   */
  private async answerAsking(req: FastifyRequest, reply: FastifyReply, message: RpcMessage, caller: Caller, view: ToolView) {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-request-id': String(req.id) });
    const send = (json: string) => res.write(`event: message\ndata: ${json}\n\n`);
    const confirmer: Confirmer = async (tool) => {
      const id = `elicit-${randomUUID()}`;
      const answer = this.mcp.awaitAnswer(id);
      send(JSON.stringify(confirmationRequest(id, tool)));
      const result = (await answer)?.result as { action?: unknown; content?: { confirm?: unknown } } | undefined;
      return result?.action === 'accept' && result.content?.confirm === true;
    };
    try {
      const answer = await this.mcp.handle(message, caller, view, confirmer);
      if (answer) send(rpcJson(answer));
    } finally {
      res.end();
    }
  }

  private rpcError(reply: FastifyReply, status: number, code: number, message: string) {
    return reply.status(status).header('Content-Type', 'application/json').header('Cache-Control', 'no-store').send({ jsonrpc: '2.0', error: { code, message }, id: null });
  }

  /** No server-initiated stream and no sessions (stateless): 405, as the transport specification allows. */
  @Public()
  @Get()
  async stream(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    await this.authenticate(req);
    this.methodNotAllowed(reply, 'This server sends no event stream: POST JSON-RPC messages to /mcp.');
  }

  @Public()
  @Delete()
  async endSession(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    await this.authenticate(req);
    this.methodNotAllowed(reply, 'This server keeps no sessions to end.');
  }

  private methodNotAllowed(reply: FastifyReply, message: string) {
    reply
      .status(405)
      .header('Allow', 'POST')
      .header('Content-Type', 'application/json')
      .send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  }

  /** A bearer access token of our server (no API keys); 401s carry the resource metadata's URL. */
  private async authenticate(req: FastifyRequest): Promise<Principal> {
    try {
      return await this.auth.authenticate(req.headers.authorization, false);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) {
        const challenge = e.headers['WWW-Authenticate'] ?? 'Bearer';
        const params = challenge.replace(/^Bearer\s*/i, '');
        const metadata = `resource_metadata="${resourceMetadataUrl(requestBaseUrl(this.config, req))}"`;
        e.headers['WWW-Authenticate'] = `Bearer ${params ? `${params}, ${metadata}` : metadata}`;
      }
      throw e;
    }
  }
}
