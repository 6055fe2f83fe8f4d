import { All, Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, Public, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { Extension } from '../../core/http/extension';
import { NeutralApi, V1 } from '../../core/http/interfaces';
import { LrsKeyRequest } from './dto/lrs-key.dto';
import { Attachment, LRS_KEY_SCHEMA, LrsPrincipal, LrsService, XapiError } from './lrs.service';
import type { XapiVersion } from './xapi-validate';

/**
 * The LRS's endpoints (docs/decisions/lrs.md "Versions"): `/xapi/` speaks 1.0.x and 2.0.x by the
 * request's X-Experience-API-Version and answers 2.0.0 when the request names none; `/xapi/1.0.3/`
 * is an xAPI 1.0.3 LRS over the same data: 1.0.x only (2.0.x refused as 1.0.3 requires of any
 * version from 1.1.0 on), 1.0.3 on every answer.
 */
interface Endpoint {
  prefix: string;
  versions: readonly XapiVersion[];
  /** the X-Experience-API-Version of an answer to a request that names no version this endpoint speaks */
  fallback: XapiVersion;
  about: { version: string[]; extensions: Record<string, never> };
}
const ENDPOINTS: readonly Endpoint[] = [
  { prefix: '/xapi/1.0.3', versions: ['1.0.3'], fallback: '1.0.3', about: { version: ['1.0.0', '1.0.1', '1.0.2', '1.0.3'], extensions: {} } },
  { prefix: '/xapi', versions: ['1.0.3', '2.0.0'], fallback: '2.0.0', about: { version: ['1.0.0', '1.0.1', '1.0.2', '1.0.3', '2.0.0'], extensions: {} } },
];

/** The endpoint a request path is under and the path of the resource within it (`/statements`, ...). */
export function endpointOf(path: string): { endpoint: Endpoint; resource: string } {
  for (const endpoint of ENDPOINTS) {
    if (path === endpoint.prefix || path.startsWith(`${endpoint.prefix}/`)) return { endpoint, resource: path.slice(endpoint.prefix.length) };
  }
  return { endpoint: ENDPOINTS[ENDPOINTS.length - 1], resource: path };
}

/** The version a request speaks, from X-Experience-API-Version: 1.0.x → 1.0.3, 2.0.x → 2.0.0. */
function versionOf(h: unknown): XapiVersion | null {
  if (typeof h !== 'string') return null;
  if (/^1\.0(\.\d+)?$/.test(h.trim())) return '1.0.3';
  if (/^2\.0(\.\d+)?$/.test(h.trim())) return '2.0.0';
  return null;
}

interface Part {
  headers: Record<string, string>;
  body: Buffer;
}

/** A multipart/mixed body's parts (RFC 2046), headers lower-cased. */
export function multipartMixed(body: Buffer, contentType: string): Part[] | null {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!m) return null;
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts: Part[] = [];
  let pos = body.indexOf(boundary);
  if (pos < 0) return null;
  for (;;) {
    pos += boundary.length;
    if (body.subarray(pos, pos + 2).toString() === '--') break;
    if (body.subarray(pos, pos + 2).toString() === '\r\n') pos += 2;
    const next = body.indexOf(boundary, pos);
    if (next < 0) return null;
    let chunk = body.subarray(pos, next);
    if (chunk.subarray(chunk.length - 2).toString() === '\r\n') chunk = chunk.subarray(0, chunk.length - 2);
    const split = chunk.indexOf('\r\n\r\n');
    const head = split < 0 ? '' : chunk.subarray(0, split).toString('utf8');
    const headers: Record<string, string> = {};
    for (const line of head.split('\r\n')) {
      const c = line.indexOf(':');
      if (c > 0) headers[line.slice(0, c).trim().toLowerCase()] = line.slice(c + 1).trim();
    }
    parts.push({ headers, body: split < 0 ? chunk : chunk.subarray(split + 4) });
    pos = next;
  }
  return parts;
}

/**
 * The LRS at /xapi/ (CONVENTIONS §18, docs/decisions/lrs.md): statements, activity state,
 * activity and agent profiles, activities, agents, about; xAPI 1.0.3 and 2.0.0 by
 * X-Experience-API-Version, and xAPI 1.0.3 alone at /xapi/1.0.3/ (ENDPOINTS above). Authenticated by its own credentials (HTTP Basic with an organization
 * LRS key), so the routes are open to the platform's guard and check the key themselves.
 */
@NeutralApi()
@ApiExcludeController()
@Controller('xapi')
export class LrsController {
  constructor(
    private readonly lrs: LrsService,
    private readonly config: AppConfig,
  ) {}

  @All('*')
  @Public()
  async handle(@Req() incoming: FastifyRequest, @Res() reply: FastifyReply) {
    const { endpoint, resource: path } = endpointOf(incoming.url.split('?', 1)[0].replace(/\/+$/, ''));
    let req = incoming;
    let method = incoming.method.toUpperCase();
    const alt = (incoming.query as Record<string, unknown> | undefined)?.method;
    if (alt !== undefined) {
      // the Alternate Request Syntax (xAPI 1.0.3 Communication 1.3): a POST whose form carries the
      // headers, the content and the parameters of the request named by ?method=
      const form = incoming.body;
      const q = incoming.query as Record<string, unknown>;
      const altVersion = versionOf(
        incoming.headers['x-experience-api-version'] ?? (form && typeof form === 'object' && !Buffer.isBuffer(form) ? (form as Record<string, unknown>)['X-Experience-API-Version'] : undefined),
      );
      if (
        altVersion === '2.0.0' ||
        method !== 'POST' ||
        typeof alt !== 'string' ||
        !['GET', 'PUT', 'POST', 'DELETE'].includes(alt.toUpperCase()) ||
        Object.keys(q).length !== 1 ||
        !/^application\/x-www-form-urlencoded/i.test(String(incoming.headers['content-type'] ?? '')) ||
        !form ||
        typeof form !== 'object' ||
        Buffer.isBuffer(form)
      ) {
        reply.header('X-Experience-API-Version', '1.0.3');
        return send(reply, 400, { error: 'an alternate request is a POST with ?method= only and a form body' });
      }
      const fields = { ...(form as Record<string, unknown>) };
      const headers: Record<string, unknown> = { ...incoming.headers };
      for (const h of ['Authorization', 'X-Experience-API-Version', 'Content-Type', 'Content-Length', 'If-Match', 'If-None-Match']) {
        const key = Object.keys(fields).find((k) => k.toLowerCase() === h.toLowerCase());
        if (key !== undefined) {
          headers[h.toLowerCase()] = fields[key];
          delete fields[key];
        } else if (h === 'Content-Type') headers['content-type'] = 'application/json';
      }
      const content = fields.content;
      delete fields.content;
      let body: unknown = undefined;
      if (typeof content === 'string') {
        if (/^application\/json/i.test(String(headers['content-type']))) {
          try {
            body = JSON.parse(content);
          } catch {
            reply.header('X-Experience-API-Version', '1.0.3');
            return send(reply, 400, { error: 'content is not JSON' });
          }
        } else body = Buffer.from(content);
      }
      method = alt.toUpperCase();
      req = Object.create(incoming, { headers: { value: headers }, body: { value: body }, query: { value: fields }, method: { value: method } }) as FastifyRequest;
    }
    const asked = versionOf(req.headers['x-experience-api-version']);
    const version = asked && endpoint.versions.includes(asked) ? asked : null;
    reply.header('X-Experience-API-Version', version ?? endpoint.fallback);
    if (path === '/statements' && (method === 'GET' || method === 'HEAD')) reply.header('X-Experience-API-Consistent-Through', new Date().toISOString());
    reply.header('Cache-Control', 'no-store');
    try {
      if (path === '/about') {
        if (method !== 'GET' && method !== 'HEAD') throw new XapiError(405, 'GET only');
        return send(reply, 200, endpoint.about);
      }
      if (!version) throw new XapiError(400, `X-Experience-API-Version is missing or not a version this endpoint speaks (${endpoint.versions.map((v) => v.replace(/\.\d+$/, '.x')).join(', ')})`);
      const p = await this.lrs.authenticate(req.headers.authorization, requestBaseUrl(this.config, req));
      if (!p) {
        reply.header('WWW-Authenticate', 'Basic realm="xapi"');
        throw new XapiError(401, 'LRS credentials are missing or wrong');
      }
      const write = ['PUT', 'POST', 'DELETE'].includes(method);
      if (write ? !p.canWrite : !p.canRead) throw new XapiError(403, `this key may not ${write ? 'write' : 'read'}`);
      const q = (req.query ?? {}) as Record<string, unknown>;
      switch (path) {
        case '/statements':
          return await this.statements(req, reply, p, method, q, version, endpoint.prefix);
        case '/activities/state':
          return await this.documents(req, reply, p, method, q, 'state', version);
        case '/activities/profile':
          return await this.documents(req, reply, p, method, q, 'activity_profile', version);
        case '/agents/profile':
          return await this.documents(req, reply, p, method, q, 'agent_profile', version);
        case '/activities':
          if (method !== 'GET' && method !== 'HEAD') throw new XapiError(405, 'GET only');
          return send(reply, 200, await this.lrs.activity(p, q));
        case '/agents':
          if (method !== 'GET' && method !== 'HEAD') throw new XapiError(405, 'GET only');
          return send(reply, 200, await this.lrs.person(p, q));
        default:
          throw new XapiError(404, 'no such resource');
      }
    } catch (e) {
      if (e instanceof XapiError) return send(reply, e.status, { error: e.message });
      throw e;
    }
  }

  private async statements(req: FastifyRequest, reply: FastifyReply, p: LrsPrincipal, method: string, q: Record<string, unknown>, version: XapiVersion, prefix: string) {
    if (method === 'GET' || method === 'HEAD') {
      reply.header('X-Experience-API-Consistent-Through', new Date().toISOString());
      const out = await this.lrs.readStatements(p, q, req.headers['accept-language'] as string | undefined, prefix);
      const json = 'single' in out ? out.single : out.list;
      if ('single' in out) reply.header('Last-Modified', new Date((out as { lastModified: Date }).lastModified).toUTCString());
      else reply.header('X-Experience-API-Consistent-Through', (out as { through: string }).through);
      if (out.attachments.length) {
        const boundary = `xapi-${createHash('sha1')
          .update(String(Date.now()) + Math.random())
          .digest('hex')}`;
        const chunks: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(json)}\r\n`)];
        for (const a of out.attachments) {
          chunks.push(Buffer.from(`--${boundary}\r\nContent-Type: ${a.contentType}\r\nContent-Transfer-Encoding: binary\r\nX-Experience-API-Hash: ${a.sha2}\r\n\r\n`), a.content, Buffer.from('\r\n'));
        }
        chunks.push(Buffer.from(`--${boundary}--`));
        return reply.code(200).header('Content-Type', `multipart/mixed; boundary=${boundary}`).send(Buffer.concat(chunks));
      }
      return send(reply, 200, json);
    }
    if (method !== 'PUT' && method !== 'POST') throw new XapiError(405, 'GET, PUT or POST');
    const { statements, attachments } = this.statementBody(req);
    if (method === 'PUT') {
      for (const k of Object.keys(q)) if (k !== 'statementId') throw new XapiError(400, `unknown parameter ${k}`);
      const id = q.statementId;
      if (typeof id !== 'string') throw new XapiError(400, 'statementId is required');
      if (statements.length !== 1 || Array.isArray(statements[0])) throw new XapiError(400, 'a PUT takes one statement');
      const s = statements[0] as Record<string, unknown>;
      if (s && typeof s === 'object' && s.id !== undefined && String(s.id).toLowerCase() !== id.toLowerCase()) throw new XapiError(400, 'the statement id differs from statementId');
      await this.lrs.store(p, [{ ...(s as object), id }], version, attachments);
      return reply.code(204).send();
    }
    if (Object.keys(q).length) throw new XapiError(400, `unknown parameter ${Object.keys(q)[0]}`);
    const ids = await this.lrs.store(p, statements, version, attachments);
    return send(reply, 200, ids);
  }

  private statementBody(req: FastifyRequest): { statements: unknown[]; attachments: Attachment[] } {
    const type = String(req.headers['content-type'] ?? '');
    let json: unknown = req.body;
    const attachments: Attachment[] = [];
    if (/^multipart\/mixed/i.test(type)) {
      const parts = multipartMixed(req.body as Buffer, type);
      if (!parts || !parts.length) throw new XapiError(400, 'malformed multipart/mixed body');
      if (!/^application\/json/i.test(parts[0].headers['content-type'] ?? '')) throw new XapiError(400, 'the first part must be application/json');
      try {
        json = JSON.parse(parts[0].body.toString('utf8'));
      } catch {
        throw new XapiError(400, 'the statements part is not JSON');
      }
      for (const part of parts.slice(1)) {
        const hash = part.headers['x-experience-api-hash'];
        if (!hash) throw new XapiError(400, 'an attachment part has no X-Experience-API-Hash');
        if (part.headers['content-transfer-encoding'] !== 'binary') throw new XapiError(400, 'an attachment part must have Content-Transfer-Encoding: binary');
        const algos = ['sha256', 'sha384', 'sha512', 'sha224'];
        if (!algos.some((a) => createHash(a).update(part.body).digest('hex') === hash.toLowerCase())) throw new XapiError(400, 'an attachment part does not match its hash');
        attachments.push({ sha2: hash.toLowerCase(), contentType: part.headers['content-type'] ?? 'application/octet-stream', content: part.body });
      }
    } else if (!/^application\/json/i.test(type)) {
      throw new XapiError(400, 'statements are sent as application/json or multipart/mixed');
    }
    if (json === undefined || json === null || typeof json !== 'object') throw new XapiError(400, 'the body must be a statement or an array of statements');
    return { statements: Array.isArray(json) ? json : [json], attachments };
  }

  private async documents(
    req: FastifyRequest,
    reply: FastifyReply,
    p: LrsPrincipal,
    method: string,
    q: Record<string, unknown>,
    kind: 'state' | 'activity_profile' | 'agent_profile',
    version: XapiVersion,
  ) {
    const idName = kind === 'state' ? 'stateId' : 'profileId';
    const pre = { ifMatch: req.headers['if-match'] as string | undefined, ifNoneMatch: req.headers['if-none-match'] as string | undefined };
    if (method === 'GET' || method === 'HEAD') {
      const single = q[idName] !== undefined;
      const key = this.lrs.docKey(kind, q, single, false);
      this.lrs.checkLaunchDocument(p, kind, key, false);
      if (single) {
        const doc = await this.lrs.getDocument(p, kind, key);
        if (!doc) throw new XapiError(404, 'no such document');
        return reply.code(200).header('Content-Type', doc.content_type).header('ETag', `"${doc.etag}"`).header('Last-Modified', new Date(doc.updated).toUTCString()).send(doc.content);
      }
      const list = await this.lrs.listDocuments(p, kind, key, q.since as string | undefined);
      if (list.updated) reply.header('Last-Modified', new Date(list.updated).toUTCString());
      return send(reply, 200, list.ids);
    }
    if (method === 'DELETE') {
      if (kind !== 'state' && q[idName] === undefined) throw new XapiError(400, `${idName} is required`);
      const key = this.lrs.docKey(kind, q, kind !== 'state', false);
      this.lrs.checkLaunchDocument(p, kind, key, true);
      await this.lrs.deleteDocuments(p, kind, key, pre);
      return reply.code(204).send();
    }
    if (method !== 'PUT' && method !== 'POST') throw new XapiError(405, 'GET, PUT, POST or DELETE');
    const key = this.lrs.docKey(kind, q, true, true);
    this.lrs.checkLaunchDocument(p, kind, key, true);
    const type = String(req.headers['content-type'] ?? 'application/octet-stream');
    const raw = req.body;
    const body = Buffer.isBuffer(raw) ? raw : typeof raw === 'string' ? Buffer.from(raw) : raw === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(raw));
    const etag = await this.lrs.writeDocument(p, kind, key, body, type, method === 'POST', pre, version);
    return reply.code(204).header('ETag', `"${etag}"`).send();
  }
}

function send(reply: FastifyReply, status: number, body: unknown) {
  return reply.code(status).header('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify(body));
}

/** POST /v1/lrs-keys (extension, CONVENTIONS §18): an organization LRS key; the secret is shown once. */
@V1()
@ApiTags('v1 lrs keys')
@Extension('An LRS key of the organization (HTTP Basic credentials of /xapi/).')
@Controller('v1/lrs-keys')
export class LrsKeysV1Controller {
  constructor(private readonly lrs: LrsService) {}

  @Post()
  @HttpCode(201)
  @Scopes('lrs:write')
  @ApiOperation({ summary: 'Create an LRS key', description: 'Answers {id, key, secret, read, write, name, created_at}; the secret is shown only here.' })
  @ApiResponse({ status: 201, description: 'The LRS key, with its secret', schema: LRS_KEY_SCHEMA })
  async create(@Auth() p: Principal, @Body() body: LrsKeyRequest) {
    return this.lrs.createKey(p.organizationId, { read: body.read ?? true, write: body.write ?? true, name: body.name ?? '' });
  }
}
