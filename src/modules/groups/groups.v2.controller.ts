import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { runBatch } from '../../core/batch/batch';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { pageDocument, parsePage } from '../../core/pagination/cursor-page';
import { GroupCreateItem, GroupDeleteItem, GroupUpdateItem } from './dto/group.dto';
import { GroupListQuery } from './dto/list.dto';
import { GroupsService } from './groups.service';
import { V2 } from '../../core/http/interfaces';

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
@Controller('v2/groups')
export class GroupsV2Controller {
  constructor(
    private readonly groups: GroupsService,
    private readonly config: AppConfig,
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

  @Post()
  @Scopes('student-groups:write')
  async create(@Auth() p: Principal, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const result = await runBatch(
      body,
      { itemClass: GroupCreateItem, type: 'groups', dedupeKey: groupNameKey, dedupePointer: '/attributes/name', maxItems: this.config.BATCH_MAX_ITEMS },
      (items) => this.groups.create(p, items),
    );
    reply.status(result.status);
    return result.body;
  }

  @Patch()
  @Scopes('student-groups:write')
  async update(@Auth() p: Principal, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const result = await runBatch(
      body,
      { itemClass: GroupUpdateItem, type: 'groups', dedupeKey: idKey, dedupePointer: '/id', maxItems: this.config.BATCH_MAX_ITEMS },
      (items) => this.groups.update(p, items),
    );
    reply.status(result.status);
    return result.body;
  }

  @Delete()
  @Scopes('student-groups:write')
  async remove(@Auth() p: Principal, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const result = await runBatch(
      body,
      { itemClass: GroupDeleteItem, type: 'groups', dedupeKey: idKey, dedupePointer: '/id', maxItems: this.config.BATCH_MAX_ITEMS },
      (items) => this.groups.remove(p, items),
    );
    reply.status(result.status);
    return result.body;
  }
}
