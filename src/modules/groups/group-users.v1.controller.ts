import { Controller, Get, Param, Query, Type } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { OnHandlers } from '../../core/http/v1-controller-kit';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { serviceIn } from '../../core/http/service-ref';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { V1GroupUserCreateDto } from './dto/v1-group.dto';
import { presentGroupUser, presentUserGroup } from './groups.v1.presenter';
import { GroupLinkRows, GroupLinksV1Service } from './group-links.v1.service';

/**
 * The routes of one kind of group link (`/v1/groups/{group_id}/<kind>`, scopes student-groups:*):
 * list (pages of up to 1000), add (201 when linked, 200 with the existing link), read, remove.
 */
export const GroupLinkRoutes = <R>(kind: 'users' | 'pools', id: string, present: (row: R) => unknown, body: Type) =>
  V1Resource<GroupLinkRows<R>>({
    service: serviceIn(GroupLinksV1Service, (l) => (kind === 'users' ? l.users : l.pools) as unknown as GroupLinkRows<R>),
    id,
    scopes: 'student-groups',
    present,
    list: { call: (s) => s.list, cap: V1_PAGE_CAP.large, filters: (q: Record<string, unknown>) => ({ updatedSince: v1UpdatedSince(q) }) },
    create: { call: (s) => s.add, handler: 'create', upsert: true, body },
    read: { call: (s) => s.read },
    remove: { call: (s) => s.remove },
  });

/** /v1/groups/{group_id}/users: the members of a group. */
@V1()
@OnHandlers({ list: [ApiQuery(V1_UPDATED_SINCE_QUERY)] })
@GroupLinkRoutes('users', 'user_id', presentGroupUser, V1GroupUserCreateDto)
@Controller('v1/groups/:group_id/users')
export class GroupUsersV1Controller {
  constructor(readonly links: GroupLinksV1Service) {}
}

/** /v1/users/{user_id}/groups: the groups of a user (student-groups:read or students:read). */
@V1()
@Controller('v1/users/:user_id/groups')
export class UserGroupsV1Controller {
  constructor(private readonly links: GroupLinksV1Service) {}

  @Get()
  @Scopes('student-groups:read', 'students:read')
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async list(@Auth() p: Principal, @Param('user_id') userId: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.links.listUserGroups(p, userId, page, v1UpdatedSince(query));
    return page.list(rows.map(presentUserGroup), count);
  }
}
