import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Scopes } from '../../core/auth/decorators';
import { describeScope, SCOPE_CODENAMES, SCOPE_PRESETS } from '../../core/auth/scopes';

const CATALOG = {
  data: SCOPE_CODENAMES.map((c) => ({ type: 'scopes', id: c, attributes: describeScope(c) })),
  meta: { presets: SCOPE_PRESETS },
};

@ApiTags('scopes')
@ApiBearerAuth('JWTAuth')
@Controller('v2/scopes')
export class ScopesController {
  /** The catalog is constant: built once. */
  @Get()
  @Scopes('clients:read')
  catalog() {
    return CATALOG;
  }
}
