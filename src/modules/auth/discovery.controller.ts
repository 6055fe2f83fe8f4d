import { Controller, Get, Header, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../core/auth/decorators';
import { KeysService } from '../../core/auth/keys.service';
import { SCOPE_CODENAMES } from '../../core/auth/scopes';
import { AppConfig, issuerUrl } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { NeutralApi } from '../../core/http/interfaces';
import { openApi } from '../../core/openapi/declared-shape';
import { Type, type Static } from '@sinclair/typebox';

const strings = () => Type.Array(Type.String());
const url = () => Type.String({ format: 'uri' });

/** What metadata() answers (RFC 8414 section 2), declared once (core/openapi/declared-shape.ts): the handler's type and the document's schema. */
const AuthorizationServerMetadataSchema = Type.Object({
  issuer: url(),
  authorization_endpoint: url(),
  token_endpoint: url(),
  registration_endpoint: url(),
  revocation_endpoint: url(),
  jwks_uri: url(),
  scopes_supported: strings(),
  response_types_supported: strings(),
  grant_types_supported: strings(),
  code_challenge_methods_supported: strings(),
  client_id_metadata_document_supported: Type.Boolean({ description: 'An https URL may be a client_id: its Client ID Metadata Document' }),
  token_endpoint_auth_methods_supported: strings(),
  revocation_endpoint_auth_methods_supported: strings(),
  authorization_response_iss_parameter_supported: Type.Boolean(),
});
type AuthorizationServerMetadata = Static<typeof AuthorizationServerMetadataSchema>;

/** What jwks() answers: public JWKs (RFC 7517 section 5). */
const JWK_SET = {
  type: 'object',
  required: ['keys'],
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kty', 'kid'],
        properties: {
          kty: { type: 'string' },
          kid: { type: 'string' },
          use: { type: 'string' },
          alg: { type: 'string' },
          n: { type: 'string' },
          e: { type: 'string' },
          crv: { type: 'string' },
          x: { type: 'string' },
          y: { type: 'string' },
        },
        additionalProperties: true,
      },
    },
  },
};

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
  @ApiOkResponse({ description: 'RFC 8414 authorization server metadata', schema: openApi(AuthorizationServerMetadataSchema) })
  @Header('Cache-Control', 'public, max-age=300')
  metadata(@Req() req: FastifyRequest): AuthorizationServerMetadata {
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
  @ApiOkResponse({ description: 'The public keys that verify access tokens (RFC 7517 JWK Set)', schema: JWK_SET })
  @Header('Cache-Control', 'public, max-age=300')
  jwks() {
    return this.keys.jwks();
  }
}
