import { Controller, Get, Header, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../../core/auth/decorators';
import { SCOPE_CODENAMES } from '../../core/auth/scopes';
import { AppConfig, issuerUrl } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { NeutralApi } from '../../core/http/interfaces';
import { openApi, StringEnum } from '../../core/openapi/declared-shape';
import { Type, type Static } from '@sinclair/typebox';

/**
 * RFC 9728 protected resource metadata. The API (/v1, /v2 and /mcp) is one resource server whose
 * tokens carry `aud` = its base URL (docs/decisions/oauth.md, "Audience"); the metadata is served
 * for that resource at the root form, and for the MCP endpoint at the path-suffixed form that MCP
 * clients derive from `https://host/mcp` (section 3.1), each with its own `resource` (section 3.3:
 * the identifier the well-known URL was built from). The authorization server is this server, named
 * by its issuer identifier (PUBLIC_URL, else http://localhost:${PORT}): exactly the RFC 8414
 * `issuer` of its metadata and the `iss` of its tokens, whatever host this metadata was asked on,
 * since a client compares the two (RFC 8414 section 3.3; CONVENTIONS §9).
 */
/** What metadata() answers (RFC 9728 section 2), declared once (core/openapi/declared-shape.ts): the handlers' type and the document's schema. */
const ProtectedResourceMetadataSchema = Type.Object({
  resource: Type.String({ format: 'uri' }),
  authorization_servers: Type.Array(Type.String({ format: 'uri' })),
  scopes_supported: Type.Array(Type.String()),
  bearer_methods_supported: Type.Array(StringEnum(['header'] as const)),
  resource_name: Type.String(),
  resource_documentation: Type.String({ format: 'uri' }),
});
type ProtectedResourceMetadata = Static<typeof ProtectedResourceMetadataSchema>;

@ApiTags('oauth')
@NeutralApi()
@Controller('.well-known/oauth-protected-resource')
export class ProtectedResourceController {
  constructor(private readonly config: AppConfig) {}

  @Public()
  @Get()
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'OAuth 2.0 protected resource metadata of the API (RFC 9728)' })
  @ApiOkResponse({ description: 'RFC 9728 protected resource metadata', schema: openApi(ProtectedResourceMetadataSchema) })
  api(@Req() req: FastifyRequest): ProtectedResourceMetadata {
    return this.metadata(requestBaseUrl(this.config, req), '');
  }

  @Public()
  @Get('mcp')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'OAuth 2.0 protected resource metadata of the MCP server at /mcp (RFC 9728)' })
  @ApiOkResponse({ description: 'RFC 9728 protected resource metadata', schema: openApi(ProtectedResourceMetadataSchema) })
  mcp(@Req() req: FastifyRequest): ProtectedResourceMetadata {
    return this.metadata(requestBaseUrl(this.config, req), '/mcp');
  }

  private metadata(base: string, path: string): ProtectedResourceMetadata {
    return {
      resource: `${base}${path}`,
      authorization_servers: [issuerUrl(this.config)],
      scopes_supported: [...SCOPE_CODENAMES],
      bearer_methods_supported: ['header'],
      resource_name: path ? 'Course Platform API (MCP server)' : 'Course Platform API',
      resource_documentation: `${base}/docs`,
    };
  }
}
