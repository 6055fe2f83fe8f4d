import { Controller, Get, Param, Query } from '@nestjs/common';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { strParam } from '../../core/http/v1-rules';
import { V1Resource } from '../../core/routes/v1-resource';
import { ApiQuery } from '@nestjs/swagger';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import { presentCode, presentPool } from './access-codes.presenter';
import { AccessCodesService } from './access-codes.service';
import { AccessCodeDto, PoolCreateDto, PoolUpdateDto } from './dto/access-code.dto';
import { V1 } from '../../core/http/interfaces';

/** /v1/domains/{domain_name}/access-code-pools and their access-codes (the `access-codes` family). */
@V1()
@V1Resource<AccessCodesService>({
  service: AccessCodesService,
  id: 'access_code_pool_id',
  scopes: 'access-codes',
  present: presentPool,
  create: { call: (s) => s.createPool, body: PoolCreateDto },
  read: { call: (s) => s.readPool },
  update: { call: (s) => s.updatePool, body: PoolUpdateDto },
  remove: { call: (s) => s.deletePool },
})
@V1Resource<AccessCodesService>({
  service: AccessCodesService,
  at: ':access_code_pool_id/access-codes',
  id: 'access_code_id',
  scopes: 'access-codes',
  present: presentCode,
  list: { call: (s) => s.listCodes, cap: V1_PAGE_CAP.large },
  create: { call: (s) => s.createCode, body: AccessCodeDto },
  read: { call: (s) => s.readCode },
  update: { call: (s) => s.updateCode, body: AccessCodeDto },
  remove: { call: (s) => s.deleteCode },
})
@Controller('v1/domains/:domain_name/access-code-pools')
export class AccessCodesV1Controller {
  constructor(private readonly codes: AccessCodesService) {}

  /** The pools, filtered by an exact `name` (up to 255 characters) and `updated_since` (then by last change). */
  @Get()
  @Scopes('access-codes:read')
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async listPools(@Auth() p: Principal, @Param('domain_name') domain: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.codes.listPools(p, domain, page, strParam(query, 'name'), v1UpdatedSince(query));
    return page.list(rows.map(presentPool), count);
  }
}
