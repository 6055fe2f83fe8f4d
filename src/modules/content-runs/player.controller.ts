import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../core/auth/decorators';
import { NeutralApi } from '../../core/http/interfaces';
import { FileStorage } from '../../core/storage/storage';
import { packageFilesPrefix } from '../content-files/entities';
import { keyPath } from '../content-files/storage-names';
import { unsafeEntryName } from '../content-files/zip-inspect';
import { contentTypeOf } from '../files/mime';
import { LaunchesService, RUNTIME_CALLS, RuntimeCall, Session } from './launches.service';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { Cmi5Service } from './cmi5.service';
import { adapterScript, CONTENT_CSP, contentSrc, PLAYER_CSP, playerPage } from './player';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What a learner's browser opens (CONVENTIONS §18, docs/decisions/content-runs.md), all open
 * (the launch token and the signed session path are the credentials):
 * - GET /launch/{token}: single-use, 5 minutes; opens the session and redirects to its player;
 * - GET /play/{session}/: the player page (adapter, then the launch file in a frame);
 * - GET /play/{session}/adapter.js: the SCORM API of the attempt's standard;
 * - POST /play/{session}/runtime/{initialize|get|set|commit|terminate}: the SCORM runtime;
 * - GET /play/{session}/c/{path}: the package's files, from storage, under this session only.
 * A refused launch or session is 403 `{"detail"}` (expired, used, altered), never another
 * organization's content.
 */
@NeutralApi()
@ApiExcludeController()
@Controller()
export class PlayerController {
  constructor(
    private readonly launches: LaunchesService,
    private readonly storage: FileStorage,
    private readonly cmi5: Cmi5Service,
    private readonly config: AppConfig,
  ) {}

  @Get('launch/:token')
  @Public()
  async launch(@Param('token') token: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const session = await this.launches.open(token);
    if (!session) return deny(reply, 403, 'This launch link is invalid, has expired or was already used.');
    const s = await this.launches.session(session);
    if (!s) return deny(reply, 403, 'This launch link is invalid, has expired or was already used.');
    // SCORM: the player page (adapter, then the content in a frame); cmi5 and TinCan: the AU itself with its launch parameters
    const location = s.standard === 'CMI5' || s.standard === 'XAPI' ? await this.cmi5.launchLocation(s, `/play/${session}/`, requestBaseUrl(this.config, req)) : `/play/${session}/`;
    return reply.code(302).header('Location', location).header('Cache-Control', 'no-store').send();
  }

  /** The cmi5 fetch URL (one use): the launch's own LRS credentials. */
  @Post('play/:session/fetch')
  @Public()
  @HttpCode(200)
  async fetch(@Param('session') token: string, @Res() reply: FastifyReply) {
    const s = await this.launches.session(token);
    if (!s) return deny(reply, 403, 'This content session is invalid or has expired.');
    const out = await this.cmi5.fetch(s);
    return reply.code(out.status).header('Content-Type', JSON_TYPE).header('Cache-Control', 'no-store').send(JSON.stringify(out.body));
  }

  @Get('play/:session')
  @Public()
  async player(@Param('session') token: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const s = await this.launches.session(token);
    if (!s) return deny(reply, 403, 'This content session is invalid or has expired.');
    if (!req.url.split('?', 1)[0].endsWith('/')) return reply.code(301).header('Location', `/play/${token}/`).send();
    return reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', PLAYER_CSP)
      .header('Cache-Control', 'no-store')
      .send(playerPage(s.title, contentSrc(s.launchPath ?? 'index.html', s.launchParameters)));
  }

  @Get('play/:session/adapter.js')
  @Public()
  async adapter(@Param('session') token: string, @Res() reply: FastifyReply) {
    const s = await this.launches.session(token);
    if (!s) return deny(reply, 403, 'This content session is invalid or has expired.');
    return reply
      .header('Content-Type', 'text/javascript; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .send(adapterScript(s.standard === 'SCORM_1_2' ? '1.2' : '2004'));
  }

  @Post('play/:session/runtime/:call')
  @Public()
  @HttpCode(200)
  async runtime(@Param('session') token: string, @Param('call') call: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const s = await this.launches.session(token);
    if (!s) return deny(reply, 403, 'This content session is invalid or has expired.');
    if (!(RUNTIME_CALLS as readonly string[]).includes(call)) return deny(reply, 404, 'Not found.');
    let body: unknown = req.body ?? {};
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body || '{}');
      } catch {
        return deny(reply, 400, 'The body is not JSON.');
      }
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return deny(reply, 400, 'The body must be a JSON object.');
    const answer = await this.launches.runtime(s, call as RuntimeCall, body as Record<string, unknown>);
    return reply.header('Content-Type', JSON_TYPE).header('Cache-Control', 'no-store').send(JSON.stringify(answer));
  }

  @Get('play/:session/c/*')
  @Public()
  async file(@Param('session') token: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const s = await this.launches.session(token);
    if (!s) return deny(reply, 403, 'This content session is invalid or has expired.');
    const rel = relativePath(req.url, token);
    if (!rel) return deny(reply, 404, 'Not found.');
    return this.sendFile(reply, s, rel);
  }

  private async sendFile(reply: FastifyReply, s: Session, rel: string) {
    const key = `${packageFilesPrefix(s.storagePrefix)}/${keyPath(rel)}`;
    const stat = await this.storage.stat(key);
    const body = stat ? await this.storage.read(key) : null;
    if (!stat || !body) return deny(reply, 404, 'Not found.');
    return reply
      .header('Content-Type', contentTypeOf(rel))
      .header('Content-Length', String(stat.size))
      .header('Content-Security-Policy', CONTENT_CSP)
      .header('X-Frame-Options', 'SAMEORIGIN')
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      .header('Cache-Control', 'private, max-age=300')
      .send(body);
  }
}

/** The package-relative path of a `/play/<session>/c/<path>` URL, decoded and checked; null when unsafe. */
export function relativePath(url: string, token: string): string | null {
  const path = url.split('?', 1)[0];
  const prefix = `/play/${token}/c/`;
  if (!path.startsWith(prefix)) return null;
  let rel: string;
  try {
    rel = path
      .slice(prefix.length)
      .split('/')
      .map((seg) => decodeURIComponent(seg))
      .join('/');
  } catch {
    return null;
  }
  if (!rel || rel.endsWith('/') || unsafeEntryName(rel)) return null;
  return rel;
}

function deny(reply: FastifyReply, status: number, detail: string) {
  return reply.code(status).header('Content-Type', JSON_TYPE).header('Cache-Control', 'no-store').send(JSON.stringify({ detail }));
}
