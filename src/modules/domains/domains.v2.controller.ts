import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { V2 } from '../../core/http/interfaces';
import { pageDocument, parsePage } from '../../core/pagination/cursor-page';
import { enumParam, includeParam, stringParam } from '../courses/query-params';
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
  constructor(
    private readonly domains: DomainsV2Service,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('domains:read')
  @ApiQuery({ name: 'filter[access]', required: false, schema: { type: 'string', enum: [...ACCESS] } })
  @ApiQuery({ name: 'filter[name]', required: false, schema: { type: 'string' }, description: 'Exact hostname match.' })
  @ApiQuery({ name: 'include', required: false, schema: { type: 'string' }, description: 'Comma-separated related resources to include. Supported: theme.' })
  @ApiQuery({ name: 'page[size]', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } })
  @ApiQuery({ name: 'page[cursor]', required: false, schema: { type: 'string' } })
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parsePage(query, this.config.APP_SECRET, 'domains');
    const include = includeParam(query, INCLUDES);
    const access = enumParam(query, 'filter[access]', ACCESS);
    const name = stringParam(query, 'filter[name]', 253)?.trim().toLowerCase();
    const rows = await this.domains.list(p, page, { access, name });
    const base = requestBaseUrl(this.config, req);
    const doc = pageDocument(rows, page, (d) => presentDomainV2(d, base), base, req.url, this.config.APP_SECRET);
    return include.size ? { ...doc, included: [] } : doc;
  }

  @Get(':id')
  @Scopes('domains:read')
  async get(@Auth() p: Principal, @Param('id') id: string, @Req() req: FastifyRequest) {
    return { data: presentDomainV2(await this.domains.get(p, id), requestBaseUrl(this.config, req)) };
  }
}
