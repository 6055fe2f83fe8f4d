import { Body, Controller, Delete, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { presentResults, runBatch } from '../../core/batch/batch';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { batchBodySchema } from '../../core/http/request-schemas';
import { pageDocument, parsePage, V2Page } from '../../core/pagination/cursor-page';
import { dateTimeParam } from '../../core/http/query-params';
import { isoOf } from '../../core/database/pool-reads';
import { VisibilityOverrideListQuery } from './dto/list.dto';
import { overrideTupleKey, VisibilityOverrideItem } from './dto/visibility-override.dto';
import { presentOverride } from './groups.presenter';
import { GroupsService } from './groups.service';
import { VisibilityOverridesService } from './visibility-overrides.service';
import { V2 } from '../../core/http/interfaces';

/**
 * /v2/groups/{id}/relationships/published-course-visibility/. Rule 9: the group is resolved in the
 * caller's organization first (404 otherwise), before the batch envelope is looked at.
 */
@ApiTags('groups')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/groups/:id/relationships/published-course-visibility')
export class VisibilityOverridesV2Controller {
  constructor(
    private readonly groups: GroupsService,
    private readonly overrides: VisibilityOverridesService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('student-groups:read')
  @ApiQuery({
    name: 'filter[updated_since]',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
  })
  async list(@Auth() p: Principal, @Param('id') id: string, @Query() q: VisibilityOverrideListQuery, @Req() req: FastifyRequest) {
    const updatedSince = dateTimeParam(q as Record<string, unknown>, 'filter[updated_since]', true);
    const groupId = await this.groups.requireGroupId(p, id);
    const page = parsePage(req.query as Record<string, unknown>, this.config.APP_SECRET, `visibility-overrides:${groupId}`);
    const visible = q['filter[is_visible]'];
    const rows = await this.overrides.list(p, groupId, page, {
      publishedCourseId: q['filter[published_course_id]'],
      isVisible: visible === undefined ? undefined : visible === 'true',
      updatedSince,
    });
    if (updatedSince) return new V2Page(page, requestBaseUrl(this.config, req), req.url, this.config.APP_SECRET).documentAt(rows, presentOverride, (o) => ({ t: isoOf(o.updatedAt), id: o.id }));
    return pageDocument(rows, page, presentOverride, requestBaseUrl(this.config, req), req.url, this.config.APP_SECRET);
  }

  @Post()
  @Scopes('student-groups:write')
  @ApiBody({ description: 'Published courses to show or hide for the group', schema: batchBodySchema(VisibilityOverrideItem, 'visibility-overrides') })
  async add(@Auth() p: Principal, @Param('id') id: string, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.batch(p, id, body, reply, async (groupId, items) => presentResults(await this.overrides.add(p, groupId, items), presentOverride));
  }

  @Delete()
  @Scopes('student-groups:write')
  @ApiBody({ description: 'Visibility overrides to remove', schema: batchBodySchema(VisibilityOverrideItem, 'visibility-overrides') })
  async remove(@Auth() p: Principal, @Param('id') id: string, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.batch(p, id, body, reply, (groupId, items) => this.overrides.remove(p, groupId, items));
  }

  /** The group first (404 outside the organization), then the batch of (published course, visibility) items. */
  private async batch<R>(p: Principal, id: string, body: unknown, reply: FastifyReply, apply: (groupId: string, items: ValidItem<VisibilityOverrideItem>[]) => Promise<Map<number, ItemOutcome<R>>>) {
    const groupId = await this.groups.requireGroupId(p, id);
    const result = await runBatch(
      body,
      {
        itemClass: VisibilityOverrideItem,
        type: 'visibility-overrides',
        dedupeKey: overrideTupleKey,
        dedupePointer: '/attributes/published_course_id',
        maxItems: this.config.BATCH_MAX_ITEMS,
      },
      (items) => apply(groupId, items),
    );
    reply.status(result.status);
    return result.body;
  }
}
