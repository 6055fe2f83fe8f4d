import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthService } from '../../core/auth/auth.service';
import { Public } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { ApiError } from '../../core/http/api-error';
import { requestBaseUrl } from '../../core/http/base-url';
import { NeutralApi } from '../../core/http/interfaces';
import { checkBatch } from './batch-limits';
import { FORWARDED_HEADERS, McpService } from './mcp.service';

/** Where a client finds this resource's RFC 9728 metadata (the path-suffixed form of `/mcp`). */
export const resourceMetadataUrl = (base: string) => `${base}/.well-known/oauth-protected-resource/mcp`;

/** Hop-by-hop and length headers are not copied into the transport's Request (its body is already parsed). */
const SKIPPED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect']);

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
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const v = req.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    const server = this.mcp.server({ principal, authorization: req.headers.authorization!, headers, ip: req.ip });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(this.webRequest(req), { parsedBody: req.body });
      reply.status(response.status);
      response.headers.forEach((value, name) => {
        if (name !== 'content-length') reply.header(name, value);
      });
      reply.header('Cache-Control', 'no-store');
      const text = await response.text();
      await reply.send(text === '' ? undefined : text);
    } finally {
      await transport.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    }
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

  /** The Web Request the SDK's transport reads (method, URL, headers; the body is passed parsed). */
  private webRequest(req: FastifyRequest): Request {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || SKIPPED_HEADERS.has(name)) continue;
      if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
      else headers.set(name, String(value));
    }
    return new Request(`${requestBaseUrl(this.config, req)}${req.url}`, { method: req.method, headers });
  }
}
