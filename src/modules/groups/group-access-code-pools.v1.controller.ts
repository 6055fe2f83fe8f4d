import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { V1GroupAccessCodePoolCreateDto } from './dto/v1-group.dto';
import { presentGroupAccessCodePool } from './groups.v1.presenter';
import { GroupLinksV1Service } from './group-links.v1.service';
import { V1 } from '../../core/http/interfaces';

/** /v1/groups/{group_id}/access-code-pools: access code pools assigned to a group (scopes student-groups:*). */
@V1()
@Controller('v1/groups/:group_id/access-code-pools')
export class GroupAccessCodePoolsV1Controller {
  constructor(private readonly groups: GroupLinksV1Service) {}

  @Get()
  @Scopes('student-groups:read')
  async list(@Auth() p: Principal, @Param('group_id') groupId: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.groups.listPools(p, groupId, page);
    return page.list(rows.map(presentGroupAccessCodePool), count);
  }

  /** 201 when assigned, 200 with the existing link when the pool was already assigned. */
  @Post()
  @Scopes('student-groups:write')
  async create(@Auth() p: Principal, @Param('group_id') groupId: string, @Body() dto: V1GroupAccessCodePoolCreateDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const { row, created } = await this.groups.addPool(p, groupId, dto);
    reply.status(created ? 201 : 200);
    return presentGroupAccessCodePool(row);
  }

  @Get(':access_code_pool_id')
  @Scopes('student-groups:read')
  async read(@Auth() p: Principal, @Param('group_id') groupId: string, @Param('access_code_pool_id') poolId: string) {
    return presentGroupAccessCodePool(await this.groups.readPool(p, groupId, poolId));
  }

  @Delete(':access_code_pool_id')
  @HttpCode(204)
  @Scopes('student-groups:write')
  async remove(@Auth() p: Principal, @Param('group_id') groupId: string, @Param('access_code_pool_id') poolId: string) {
    await this.groups.removePool(p, groupId, poolId);
  }
}
