import { Controller, Get, Header } from '@nestjs/common';
import { Type, type Static } from '@sinclair/typebox';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthService } from '../../core/auth/auth.service';
import { Scopes } from '../../core/auth/decorators';
import { describeScope, SCOPE_CODENAMES, SCOPE_PRESETS } from '../../core/auth/scopes';
import { FastPath } from '../../core/routes/fast-path';
import { V2 } from '../../core/http/interfaces';
import { declaredV2 } from '../../core/openapi/declared-shape';

/**
 * ScopeCatalogResponse of the published /v2 document, declared once (core/openapi/declared-shape.ts):
 * the type of the catalog, and what /openapi.json serves as the published component (declaredV2).
 */
export const ScopeCatalogSchema = declaredV2(
  'ScopeCatalogResponse',
  Type.Object({
    data: Type.Array(
      Type.Object({
        type: Type.Literal('scopes'),
        id: Type.String({ description: 'The scope codename.' }),
        attributes: Type.Object({ codename: Type.String(), description: Type.String(), category: Type.String() }),
      }),
    ),
    meta: Type.Object({ presets: Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Scope presets by name: their codenames.' }) }),
  }),
);

const CATALOG: Static<typeof ScopeCatalogSchema> = {
  data: SCOPE_CODENAMES.map((c) => ({ type: 'scopes', id: c, attributes: describeScope(c) })),
  meta: { presets: SCOPE_PRESETS },
};
/** Serialized once too: 17 KB of JSON.stringify per request was a tenth of this route's CPU. */
const CATALOG_JSON = JSON.stringify(CATALOG);

@ApiTags('scopes')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/scopes')
export class ScopesController {
  constructor(private readonly auth: AuthService) {}

  /** The catalog is constant: built and serialized once (the /v2 media type is set on send). */
  @Get()
  @Scopes('clients:read')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @FastPath('cachedCatalog')
  catalog(): string {
    return CATALOG_JSON;
  }

  /**
   * The fast path (core/routes/fast-path.ts): a caller whose Bearer token is cached as valid, with
   * clients:read, gets the catalog here without Nest's pipeline; every other request (no or another
   * credential, one to verify, a missing scope) goes to the global guard and catalog() above.
   */
  cachedCatalog(req: FastifyRequest & { principal?: unknown }, reply: FastifyReply, done: () => void): void {
    const principal = this.auth.cachedBearerPrincipal(req.headers.authorization);
    if (!principal?.scopes.has('clients:read')) return done();
    req.principal = principal;
    reply.header('Content-Type', 'application/json; charset=utf-8').send(CATALOG_JSON);
  }
}
