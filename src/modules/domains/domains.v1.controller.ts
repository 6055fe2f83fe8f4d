import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { DomainsService } from './domains.service';
import { presentDomainV1 } from './domains.presenter';
import { DomainUpdateDto } from './dto/domain-update.dto';
import { V1 } from '../../core/http/interfaces';
import { PutAndPatch } from '../../core/http/put-and-patch';

/** /v1/domains: list, read, update. Domains are created by the CLI only. */
@V1()
@Controller('v1/domains')
export class DomainsV1Controller {
  constructor(private readonly domains: DomainsService) {}

  @Get()
  @Scopes('domains:read')
  async list(@Auth() p: Principal, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.domains.listV1(p, page);
    return page.list(rows.map(presentDomainV1), count);
  }

  @Get(':domain_name')
  @Scopes('domains:read')
  async read(@Auth() p: Principal, @Param('domain_name') name: string) {
    return presentDomainV1(await this.domains.requireByName(p, name));
  }

  @PutAndPatch(':domain_name')
  @Scopes('domains:write')
  async update(@Auth() p: Principal, @Param('domain_name') name: string, @Body() dto: DomainUpdateDto) {
    return presentDomainV1(await this.domains.updateV1(p, name, dto));
  }
}
