import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../core/auth/decorators';
import { NeutralApi } from '../../core/http/interfaces';
import { contentSecurityPolicy, errorPage, escapeHtml, readCookie } from '../../core/http/html-page';
import { SsoFailure, SsoOutcome, SsoService } from './sso.service';

/**
 * The browser side of administrator single sign-on (CONVENTIONS §19): `start` (the `login_url`),
 * the OIDC callback, the SAML ACS (HTTP-POST binding) and its `complete` step, and the SP metadata.
 * HTML and redirects, never cached or framed; a refusal is a page saying why (4xx).
 */
@ApiExcludeController()
@NeutralApi()
@Controller('auth/sso/:organization_id')
export class SsoController {
  constructor(private readonly sso: SsoService) {}

  @Public()
  @Get('start')
  start(@Param('organization_id') org: string, @Query('return_to') returnTo: unknown, @Res() reply: FastifyReply) {
    return this.run(reply, () => this.sso.start(org, returnTo));
  }

  @Public()
  @Get('oidc/callback')
  callback(@Param('organization_id') org: string, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.run(reply, () => this.sso.oidcCallback(org, query ?? {}, readCookie(req.headers.cookie, 'cp_sso_flow')));
  }

  @Public()
  @Post('saml/acs')
  acs(@Param('organization_id') org: string, @Body() body: unknown, @Res() reply: FastifyReply) {
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    return this.run(reply, () => this.sso.samlAcs(org, fields));
  }

  @Public()
  @Get('saml/complete')
  complete(@Param('organization_id') org: string, @Query('ticket') ticket: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.run(reply, () => this.sso.samlComplete(org, ticket, readCookie(req.headers.cookie, 'cp_sso_flow')));
  }

  @Public()
  @Get('saml/metadata')
  metadata(@Param('organization_id') org: string, @Res() reply: FastifyReply) {
    return this.run(reply, async () => ({ status: 200, html: await this.sso.metadata(org), contentType: 'application/samlmetadata+xml; charset=utf-8', cookies: [] }));
  }

  private async run(reply: FastifyReply, work: () => Promise<SsoOutcome>) {
    let outcome: SsoOutcome;
    try {
      outcome = await work();
    } catch (e) {
      if (!(e instanceof SsoFailure)) throw e;
      const back = e.returnTo ? `<p><a href="${escapeHtml(e.returnTo)}">Back to the sign-in page</a></p>` : '';
      outcome = { status: e.status, html: errorPage(e.title, e.message).replace('</main>', `${back}</main>`), cookies: [] };
    }
    reply
      .header('Cache-Control', 'no-store')
      .header('Pragma', 'no-cache')
      .header('X-Frame-Options', 'DENY')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header('Content-Security-Policy', contentSecurityPolicy());
    if (outcome.cookies.length) reply.header('Set-Cookie', outcome.cookies);
    if (outcome.location) return reply.redirect(outcome.location, outcome.status ?? 302);
    return reply
      .status(outcome.status ?? 200)
      .header('Content-Type', outcome.contentType ?? 'text/html; charset=utf-8')
      .send(outcome.html);
  }
}
