import { Body, Controller, Get, Headers, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../core/auth/decorators';
import { contentSecurityPolicy } from '../../core/http/html-page';
import { AuthorizeOutcome, AuthorizeService } from './authorize.service';
import { OAuthApi } from '../../core/http/interfaces';

/**
 * `GET /v2/oauth/authorize` shows the sign-in and consent page; `POST` signs the administrator in
 * and answers with a 302 to the client's redirect_uri. Browser-facing, so HTML and redirects, never
 * the JSON envelopes; never cached, never framed.
 */
@ApiExcludeController()
@OAuthApi('authorize')
@Controller('v2/oauth/authorize')
export class AuthorizeController {
  constructor(private readonly authorize: AuthorizeService) {}

  @Public()
  @Get()
  async show(@Query() query: Record<string, unknown>, @Headers('cookie') cookie: string | undefined, @Res() reply: FastifyReply) {
    this.send(reply, await this.authorize.show(query ?? {}, cookie));
  }

  @Public()
  @Post()
  async submit(@Body() body: unknown, @Headers('cookie') cookie: string | undefined, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    this.send(reply, await this.authorize.submit(fields, cookie, req.ip));
  }

  private send(reply: FastifyReply, outcome: AuthorizeOutcome) {
    reply
      .header('Cache-Control', 'no-store')
      .header('Pragma', 'no-cache')
      .header('X-Frame-Options', 'DENY')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header('Content-Security-Policy', contentSecurityPolicy(outcome.kind === 'page' ? outcome.redirectOrigin : undefined));
    if (outcome.setCookie) reply.header('Set-Cookie', outcome.setCookie);
    if (outcome.kind === 'redirect') {
      reply.redirect(outcome.location, 302);
      return;
    }
    if (outcome.retryAfter !== undefined) reply.header('Retry-After', String(outcome.retryAfter));
    reply.status(outcome.status).header('Content-Type', 'text/html; charset=utf-8').send(outcome.html);
  }
}
