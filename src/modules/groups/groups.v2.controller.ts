import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { pageDocument, parsePage } from '../../core/pagination/cursor-page';
import { GroupCreateItem, GroupDeleteItem, GroupUpdateItem } from './dto/group.dto';
import { GroupListQuery } from './dto/list.dto';
import { GroupsService } from './groups.service';
import { V2 } from '../../core/http/interfaces';
import { V2Batches } from '../../core/http/v2-batch';

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
  service: 'groups', type: 'groups', scopes: 'student-groups',
  create: { call: 'create', item: GroupCreateItem, dedupeKey: groupNameKey, dedupePointer: '/attributes/name' },
  update: { call: 'update', item: GroupUpdateItem, dedupeKey: idKey, dedupePointer: '/id' },
  remove: { call: 'remove', item: GroupDeleteItem, dedupeKey: idKey, dedupePointer: '/id' },
})
@Controller('v2/groups')
export class GroupsV2Controller {
  constructor(
    readonly groups: GroupsService,
    readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('student-groups:read')
  async list(@Auth() p: Principal, @Query() q: GroupListQuery, @Req() req: FastifyRequest) {
    const page = parsePage(req.query as Record<string, unknown>, this.config.APP_SECRET, 'groups');
    const rows = await this.groups.list(p, page, { name: q['filter[name]'], categoryId: q['filter[category_id]'] });
    return pageDocument(rows, page, (g) => this.groups.present(g), requestBaseUrl(this.config, req), req.url, this.config.APP_SECRET);
  }

  @Get(':id')
  @Scopes('student-groups:read')
  async get(@Auth() p: Principal, @Param('id') id: string) {
    return { data: this.groups.present(await this.groups.get(p, id)) };
  }

}
