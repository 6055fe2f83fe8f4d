import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { strParam } from '../../core/http/v1-rules';
import { presentCode, presentPool } from './access-codes.presenter';
import { AccessCodesService } from './access-codes.service';
import { AccessCodeDto, PoolCreateDto, PoolUpdateDto } from './dto/access-code.dto';
import { V1 } from '../../core/http/interfaces';
import { PutAndPatch } from '../../core/http/put-and-patch';

/** /v1/domains/{domain_name}/access-code-pools and their access-codes (the `access-codes` family). */
@V1()
@Controller('v1/domains/:domain_name/access-code-pools')
export class AccessCodesV1Controller {
  constructor(private readonly codes: AccessCodesService) {}

  @Get()
  @Scopes('access-codes:read')
  async listPools(@Auth() p: Principal, @Param('domain_name') domain: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.codes.listPools(p, domain, page, strParam(query, 'name', 255));
    return page.list(rows.map(presentPool), count);
  }

  @Post()
  @Scopes('access-codes:write')
  async createPool(@Auth() p: Principal, @Param('domain_name') domain: string, @Body() dto: PoolCreateDto) {
    return presentPool(await this.codes.createPool(p, domain, dto));
  }

  @Get(':access_code_pool_id')
  @Scopes('access-codes:read')
  async readPool(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('access_code_pool_id') id: string) {
    return presentPool(await this.codes.readPool(p, domain, id));
  }

  @PutAndPatch(':access_code_pool_id')
  @Scopes('access-codes:write')
  async updatePool(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('access_code_pool_id') id: string, @Body() dto: PoolUpdateDto) {
    return presentPool(await this.codes.updatePool(p, domain, id, dto));
  }

  @Delete(':access_code_pool_id')
  @HttpCode(204)
  @Scopes('access-codes:write')
  async deletePool(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('access_code_pool_id') id: string) {
    await this.codes.deletePool(p, domain, id);
  }

  @Get(':access_code_pool_id/access-codes')
  @Scopes('access-codes:read')
  async listCodes(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('access_code_pool_id') id: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.codes.listCodes(p, domain, id, page);
    return page.list(rows.map(presentCode), count);
  }

  @Post(':access_code_pool_id/access-codes')
  @Scopes('access-codes:write')
  async createCode(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('access_code_pool_id') id: string, @Body() dto: AccessCodeDto) {
    return presentCode(await this.codes.createCode(p, domain, id, dto));
  }

  @Get(':access_code_pool_id/access-codes/:access_code_id')
  @Scopes('access-codes:read')
  async readCode(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('access_code_pool_id') id: string, @Param('access_code_id') codeId: string) {
    return presentCode(await this.codes.readCode(p, domain, id, codeId));
  }

  @PutAndPatch(':access_code_pool_id/access-codes/:access_code_id')
  @Scopes('access-codes:write')
  async updateCode(
    @Auth() p: Principal,
    @Param('domain_name') domain: string,
    @Param('access_code_pool_id') id: string,
    @Param('access_code_id') codeId: string,
    @Body() dto: AccessCodeDto,
  ) {
    return presentCode(await this.codes.updateCode(p, domain, id, codeId, dto));
  }

  @Delete(':access_code_pool_id/access-codes/:access_code_id')
  @HttpCode(204)
  @Scopes('access-codes:write')
  async deleteCode(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('access_code_pool_id') id: string, @Param('access_code_id') codeId: string) {
    await this.codes.deleteCode(p, domain, id, codeId);
  }
}
