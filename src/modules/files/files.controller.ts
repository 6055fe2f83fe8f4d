import { ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../core/auth/decorators';
import { AppConfig } from '../../core/config/config';
import { assertKey, FileStorage, verifyFileSignature } from '../../core/storage/storage';
import { contentTypeOf } from './mime';
import { NeutralApi } from '../../core/http/interfaces';

/** Content types a browser would render as active content from our origin: served as attachments. */
const ACTIVE = /^(text\/html|image\/svg\+xml|application\/xml|text\/xml|application\/xhtml\+xml|text\/javascript)/;

/**
 * GET /files/<key>?expires=&signature= — the signed download URLs of assets and web packages.
 * Open (the signature is the credential); an expired, altered or missing signature is 403
 * {"detail"}; a key with no file is 404. The file is streamed from storage with a content type
 * from its extension, `nosniff`, a sandboxing CSP, and as an attachment when a browser would run it.
 */
@NeutralApi()
@Controller('files')
export class FilesController {
  constructor(
    private readonly config: AppConfig,
    private readonly storage: FileStorage,
  ) {}

  @Get('*')
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: "The file's bytes (Content-Type from its name)", schema: { type: 'string', format: 'binary' } })
  @Public()
  async download(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Query() query: Record<string, unknown>) {
    const raw = (req.url.split('?', 1)[0] ?? '').replace(/^\/files\//, '');
    let key: string;
    try {
      key = raw.split('/').map(decodeURIComponent).join('/');
      assertKey(key);
    } catch {
      return this.deny(reply, 404, 'Not found.');
    }
    if (!verifyFileSignature(this.config, key, query.expires, query.signature)) {
      return this.deny(reply, 403, 'This download link is invalid or has expired.');
    }
    const stat = await this.storage.stat(key);
    const body = stat ? await this.storage.read(key) : null;
    if (!stat || !body) return this.deny(reply, 404, 'Not found.');
    const type = stat.contentType || contentTypeOf(key);
    const name = key
      .split('/')
      .pop()!
      .replace(/[^A-Za-z0-9._ ()-]/g, '_');
    reply
      .header('Content-Type', type)
      .header('Content-Length', String(stat.size))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "sandbox; default-src 'none'")
      .header('Cache-Control', 'private, max-age=3600')
      .header('Content-Disposition', `${ACTIVE.test(type) ? 'attachment' : 'inline'}; filename="${name}"`);
    return reply.send(body);
  }

  private deny(reply: FastifyReply, status: number, detail: string) {
    return reply.code(status).header('Content-Type', 'application/json').send(JSON.stringify({ detail }));
  }
}
