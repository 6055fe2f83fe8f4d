import { Controller, Get, Header } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Scopes } from '../../core/auth/decorators';
import { describeScope, SCOPE_CODENAMES, SCOPE_PRESETS } from '../../core/auth/scopes';
import { V2 } from '../../core/http/interfaces';

const CATALOG = {
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
  /** The catalog is constant: built and serialized once (the /v2 media type is set on send). */
  @Get()
  @Scopes('clients:read')
  @Header('Content-Type', 'application/json; charset=utf-8')
  catalog(): string {
    return CATALOG_JSON;
  }
}
