import { Body, Controller, Get, Param, Patch, Put, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { parseV1Page, V1_PAGE_CAP, v1List } from '../../core/pagination/v1-page';
import { DomainsService } from './domains.service';
import { presentDomainV1 } from './domains.presenter';
import { DomainUpdateDto } from './dto/domain-update.dto';
import { V1 } from '../../core/http/interfaces';

/** /v1/domains: list, read, update. Domains are created by the CLI only. */
@V1()
@Controller('v1/domains')
export class DomainsV1Controller {
  constructor(
    private readonly domains: DomainsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('domains:read')
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.small);
    const { rows, count } = await this.domains.listV1(p, page);
    return v1List(rows.map(presentDomainV1), count, page, requestBaseUrl(this.config, req), req.url);
  }

  @Get(':domain_name')
  @Scopes('domains:read')
  async read(@Auth() p: Principal, @Param('domain_name') name: string) {
    return presentDomainV1(await this.domains.requireByName(p, name));
  }

  @Put(':domain_name')
  @Scopes('domains:write')
  async update(@Auth() p: Principal, @Param('domain_name') name: string, @Body() dto: DomainUpdateDto) {
    return presentDomainV1(await this.domains.updateV1(p, name, dto));
  }

  @Patch(':domain_name')
  @Scopes('domains:write')
  async partialUpdate(@Auth() p: Principal, @Param('domain_name') name: string, @Body() dto: DomainUpdateDto) {
    return presentDomainV1(await this.domains.updateV1(p, name, dto));
  }
}
