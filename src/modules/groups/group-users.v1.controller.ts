import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { V1GroupUserCreateDto } from './dto/v1-group.dto';
import { presentGroupUser, presentUserGroup } from './groups.v1.presenter';
import { GroupLinksV1Service } from './group-links.v1.service';
import { V1 } from '../../core/http/interfaces';

/** /v1/groups/{group_id}/users: the members of a group (scopes student-groups:*). */
@V1()
@Controller('v1/groups/:group_id/users')
export class GroupUsersV1Controller {
  constructor(private readonly groups: GroupLinksV1Service) {}

  @Get()
  @Scopes('student-groups:read')
  async list(@Auth() p: Principal, @Param('group_id') groupId: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.groups.listUsers(p, groupId, page);
    return page.list(rows.map(presentGroupUser), count);
  }

  /** 201 when the user joins, 200 with the existing membership when already a member. */
  @Post()
  @Scopes('student-groups:write')
  async create(@Auth() p: Principal, @Param('group_id') groupId: string, @Body() dto: V1GroupUserCreateDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const { row, created } = await this.groups.addUser(p, groupId, dto);
    reply.status(created ? 201 : 200);
    return presentGroupUser(row);
  }

  @Get(':user_id')
  @Scopes('student-groups:read')
  async read(@Auth() p: Principal, @Param('group_id') groupId: string, @Param('user_id') userId: string) {
    return presentGroupUser(await this.groups.readUser(p, groupId, userId));
  }

  @Delete(':user_id')
  @HttpCode(204)
  @Scopes('student-groups:write')
  async remove(@Auth() p: Principal, @Param('group_id') groupId: string, @Param('user_id') userId: string) {
    await this.groups.removeUser(p, groupId, userId);
  }
}

/** /v1/users/{user_id}/groups: the groups of a user (student-groups:read or students:read). */
@V1()
@Controller('v1/users/:user_id/groups')
export class UserGroupsV1Controller {
  constructor(private readonly groups: GroupLinksV1Service) {}

  @Get()
  @Scopes('student-groups:read', 'students:read')
  async list(@Auth() p: Principal, @Param('user_id') userId: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.groups.listUserGroups(p, userId, page);
    return page.list(rows.map(presentUserGroup), count);
  }
}
