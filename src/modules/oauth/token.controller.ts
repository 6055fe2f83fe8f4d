import { Body, Controller, Headers, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../core/auth/decorators';
import { ApiError } from '../../core/http/api-error';
import { ClientCredentials, oauthError, TokenService } from './token.service';
import { OAuthApi } from '../../core/http/interfaces';

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Client authentication: HTTP Basic (RFC 6749 2.3.1, form-encoded parts) or body members, not both. */
export function clientCredentials(authorization: string | undefined, body: Record<string, unknown>): ClientCredentials {
  const bodyId = str(body.client_id);
  const bodySecret = str(body.client_secret);
  if (authorization && /^basic /i.test(authorization)) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw oauthError(401, 'invalid_client', 'Malformed Basic credentials.');
    let id: string;
    let secret: string;
    try {
      id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw oauthError(401, 'invalid_client', 'Malformed Basic credentials.');
    }
    if (bodySecret !== undefined) throw oauthError(400, 'invalid_request', 'Use one client authentication method, not both.');
    if (bodyId !== undefined && bodyId !== id) throw oauthError(400, 'invalid_request', 'client_id differs from the Basic credentials.');
    return { clientId: id, clientSecret: secret };
  }
  return { clientId: bodyId, clientSecret: bodySecret };
}

/** RFC 6749 section 5.2: a client that tried HTTP Basic and failed gets a 401 with the Basic challenge. */
async function basicChallenge<T>(authorization: string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401 && authorization && /^basic /i.test(authorization)) {
      err.headers['WWW-Authenticate'] = 'Basic realm="oauth", charset="UTF-8"';
    }
    throw err;
  }
}

function asObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw oauthError(400, 'invalid_request', 'The request body must be a JSON object or a form.');
  return body as Record<string, unknown>;
}

@ApiTags('oauth')
@OAuthApi()
@Controller('v2/auth')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Public()
  @Post('token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchange credentials for an access token (client_credentials, refresh_token, authorization_code)' })
  async token(@Body() rawBody: unknown, @Headers('authorization') authorization: string | undefined, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    return basicChallenge(authorization, () => this.grant(rawBody, authorization, req.ip));
  }

  private async grant(rawBody: unknown, authorization: string | undefined, ip: string) {
    const body = asObject(rawBody);
    for (const [k, v] of Object.entries(body)) {
      if (v !== undefined && v !== null && typeof v !== 'string') throw oauthError(400, 'invalid_request', `${k} must be a string.`);
    }
    const grantType = str(body.grant_type) ?? 'client_credentials';
    const creds = clientCredentials(authorization, body);
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
  @ApiOperation({ summary: "Revoke a refresh token (RFC 7009). The client authenticates as at the token endpoint (body or Basic; a public client sends client_id); 200 even for unknown tokens or another client's" })
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
