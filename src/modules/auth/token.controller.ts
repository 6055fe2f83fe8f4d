import { Body, Controller, Headers, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../core/auth/decorators';
import { oauthError, TokenResponse, TokenService } from './token.service';
import { asObject, basicChallenge, clientCredentials, parseTokenRequest, str } from './token-request';
import { FastPath } from '../../core/routes/fast-path';
import { OAuthApi } from '../../core/http/interfaces';

@ApiTags('oauth')
@OAuthApi()
@Controller('v2/auth')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Public()
  @Post('token')
  @HttpCode(200)
  @FastPath('cachedToken')
  @ApiOperation({ summary: 'Exchange credentials for an access token (client_credentials, refresh_token, authorization_code)' })
  async token(@Body() rawBody: unknown, @Headers('authorization') authorization: string | undefined, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    return basicChallenge(authorization, () => this.grant(rawBody, authorization, req.ip));
  }

  /**
   * The token route's fast path (core/routes/fast-path.ts): a client_credentials request whose client
   * is cached as verified for this secret gets its token here, without Nest's pipeline; anything
   * else (another grant, a client to read, any refusal) goes on to token() above, which answers it.
   */
  cachedToken(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
    let answer: TokenResponse | undefined;
    try {
      const { grantType, creds, body } = parseTokenRequest(req.body, req.headers.authorization);
      if (grantType === 'client_credentials') answer = this.tokens.cachedClientCredentials(creds, str(body.scope), req.ip);
    } catch {
      answer = undefined; // token() gives the error
    }
    if (answer === undefined) return done();
    reply.code(200).header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(answer);
  }

  private async grant(rawBody: unknown, authorization: string | undefined, ip: string) {
    const { grantType, creds, body } = parseTokenRequest(rawBody, authorization);
    const scope = str(body.scope);
    switch (grantType) {
      case 'client_credentials':
        return this.tokens.clientCredentials(creds, scope, ip);
      case 'refresh_token':
        return this.tokens.refresh(creds, str(body.refresh_token), scope, ip);
      case 'authorization_code':
        return this.tokens.authorizationCode(creds, { code: str(body.code), codeVerifier: str(body.code_verifier), redirectUri: str(body.redirect_uri) }, ip);
      default:
        throw oauthError(400, 'unsupported_grant_type', `The grant type "${grantType}" is not supported.`);
    }
  }

  @Public()
  @Post('revoke')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Revoke a refresh token or a code-flow access token (RFC 7009). The published body alone (token, token_type_hint) revokes the token it names; client credentials, when sent (body or Basic; a public client sends client_id), must be valid and then only that client's tokens are revoked. 200 even for unknown tokens or another client's",
  })
  @ApiOkResponse({ description: 'Revoked, or nothing to revoke (RFC 7009 section 2.2): an empty object', schema: { type: 'object', properties: {}, additionalProperties: false } })
  async revoke(@Body() rawBody: unknown, @Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) reply: FastifyReply) {
    reply.header('Cache-Control', 'no-store');
    return basicChallenge(authorization, async () => {
      const body = asObject(rawBody);
      for (const k of ['client_id', 'client_secret']) {
        if (body[k] !== undefined && body[k] !== null && typeof body[k] !== 'string') throw oauthError(400, 'invalid_request', `${k} must be a string.`);
      }
      const creds = clientCredentials(authorization, body);
      const token = body.token;
      if (typeof token !== 'string' || token.length === 0) throw oauthError(400, 'invalid_request', 'token is required.');
      if (body.token_type_hint !== undefined && body.token_type_hint !== null && typeof body.token_type_hint !== 'string') {
        throw oauthError(400, 'invalid_request', 'token_type_hint must be a string.');
      }
      await this.tokens.revoke(creds, token);
      return {};
    });
  }
}
