import { Controller, Get, Header, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../../core/auth/decorators';
import { KeysService } from '../../core/auth/keys.service';
import { SCOPE_CODENAMES } from '../../core/auth/scopes';
import { AppConfig, issuerUrl } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { NeutralApi } from '../../core/http/interfaces';

@ApiTags('oauth')
@NeutralApi()
@Controller('.well-known')
export class DiscoveryController {
  constructor(
    private readonly keys: KeysService,
    private readonly config: AppConfig,
  ) {}

  /**
   * RFC 8414 authorization server metadata: `issuer` is the token issuer (PUBLIC_URL, or
   * http://localhost:${PORT}); the endpoints are on this request's base so that they reach the
   * server that answered (CONVENTIONS §9).
   */
  @Public()
  @Get('oauth-authorization-server')
  @Header('Cache-Control', 'public, max-age=300')
  metadata(@Req() req: FastifyRequest) {
    const base = requestBaseUrl(this.config, req);
    return {
      issuer: issuerUrl(this.config),
      authorization_endpoint: `${base}/v2/oauth/authorize`,
      token_endpoint: `${base}/v2/auth/token`,
      registration_endpoint: `${base}/v2/oauth/register`,
      revocation_endpoint: `${base}/v2/auth/revoke`,
      jwks_uri: `${base}/.well-known/jwks.json`,
      scopes_supported: [...SCOPE_CODENAMES],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      // an https URL may be a client_id: its Client ID Metadata Document (client-metadata-documents.ts)
      client_id_metadata_document_supported: true,
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      authorization_response_iss_parameter_supported: true,
    };
  }

  @Public()
  @Get('jwks.json')
  @Header('Cache-Control', 'public, max-age=300')
  jwks() {
    return this.keys.jwks();
  }
}
