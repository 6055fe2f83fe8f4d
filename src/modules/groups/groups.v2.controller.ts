import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { GroupCreateItem, GroupDeleteItem, GroupUpdateItem } from './dto/group.dto';
import { GroupListQuery } from './dto/list.dto';
import { GroupReadRow, GroupsService } from './groups.service';
import { presentGroup } from './groups.presenter';
import { dateTimeParam } from '../../core/http/query-params';
import { isoOf } from '../../core/database/pool-reads';
import { V2 } from '../../core/http/interfaces';
import { V2Batches } from '../../core/routes/v2-batch';
import { FastRead } from '../../core/routes/fast-path';

/** Case-insensitive, trimmed: "Sales" and " sales" are the same name inside one create batch. */
export function groupNameKey(raw: Record<string, any>): string | undefined {
  const name = raw?.attributes?.name;
  if (typeof name !== 'string' || !name.trim()) return undefined; // a blank name is a validation error, not a duplicate
  return name.trim().toLowerCase();
}

const idKey = (raw: Record<string, any>) => (typeof raw?.id === 'string' ? raw.id : undefined);

@ApiTags('groups')
@ApiBearerAuth('JWTAuth')
@V2()
@V2Batches<GroupsService>({
  service: GroupsService,
  type: 'groups',
  scopes: 'student-groups',
  create: { call: (s) => s.create, present: presentGroup, item: GroupCreateItem, dedupeKey: groupNameKey, dedupePointer: '/attributes/name' },
  update: { call: (s) => s.update, present: presentGroup, item: GroupUpdateItem, dedupeKey: idKey, dedupePointer: '/id' },
  remove: { call: (s) => s.remove, item: GroupDeleteItem, dedupeKey: idKey, dedupePointer: '/id' },
})
@Controller('v2/groups')
export class GroupsV2Controller {
  constructor(
    readonly groups: GroupsService,
    readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('student-groups:read')
  @FastRead<GroupsV2Controller>((c, { principal, validQuery, page }) => c.list(principal, validQuery(GroupListQuery), page('groups')))
  @ApiQuery({
    name: 'filter[updated_since]',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
  })
  async list(@Auth() p: Principal, @Query() q: GroupListQuery, @CursorPaged('groups', { document: false }) page: V2Page) {
    const updatedSince = dateTimeParam(q as Record<string, unknown>, 'filter[updated_since]', true);
    const rows = await this.groups.list(p, page, { name: q['filter[name]'], categoryId: q['filter[category_id]'], updatedSince });
    const present = (g: GroupReadRow) => presentGroup(g);
    return updatedSince ? page.documentAt(rows, present, (g) => ({ t: isoOf(g.updatedAt), id: g.id })) : page.document(rows, present);
  }

  @Get(':id')
  @Scopes('student-groups:read')
  @FastRead<GroupsV2Controller>((c, { principal, params }) => c.get(principal, params.id))
  async get(@Auth() p: Principal, @Param('id') id: string) {
    return { data: presentGroup(await this.groups.get(p, id)) };
  }
}
