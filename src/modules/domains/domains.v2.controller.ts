import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { BaseUrl } from '../../core/http/base-url';
import { V2 } from '../../core/http/interfaces';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { dateTimeParam, enumParam, filterParam, includeParam } from '../../core/http/query-params';
import { isoOf } from '../../core/database/pool-reads';
import type { Domain } from './domain.entity';
import { DomainsV2Service } from './domains.v2.service';
import { presentDomainV2 } from './domains.v2.presenter';

const ACCESS = ['PUBLIC', 'PRIVATE', 'PRIVATE_CODE'] as const;
const INCLUDES = ['theme'] as const;

/**
 * /v2/domains: list (filter[access], filter[name], include=theme) and read; scope domains:read.
 * Domains are created by the CLI only. No themes exist here: include=theme is accepted and adds an
 * empty `included` (docs/decisions/v2-rest.md).
 */
@ApiTags('domains')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/domains')
export class DomainsV2Controller {
  constructor(private readonly domains: DomainsV2Service) {}

  @Get()
  @Scopes('domains:read')
  @ApiQuery({ name: 'filter[access]', required: false, schema: { type: 'string', enum: [...ACCESS] } })
  @ApiQuery({ name: 'filter[name]', required: false, schema: { type: 'string' }, description: 'Exact hostname match.' })
  @ApiQuery({ name: 'include', required: false, schema: { type: 'string' }, description: 'Comma-separated related resources to include. Supported: theme.' })
  @ApiQuery({
    name: 'filter[updated_since]',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
  })
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('domains') page: V2Page) {
    const include = includeParam(query, INCLUDES);
    const access = enumParam(query, 'filter[access]', ACCESS);
    const name = filterParam(query, 'filter[name]', 253)?.trim().toLowerCase();
    const updatedSince = dateTimeParam(query, 'filter[updated_since]', true);
    const rows = await this.domains.list(p, page, { access, name, updatedSince });
    const present = (d: Domain) => presentDomainV2(d, page.baseUrl);
    const doc = updatedSince ? page.documentAt(rows, present, (d) => ({ t: isoOf(d.updatedAt), id: d.id })) : page.document(rows, present);
    return include.size ? { ...doc, included: [] } : doc;
  }

  @Get(':id')
  @Scopes('domains:read')
  async get(@Auth() p: Principal, @Param('id') id: string, @BaseUrl() base: string) {
    return { data: presentDomainV2(await this.domains.get(p, id), base) };
  }
}
