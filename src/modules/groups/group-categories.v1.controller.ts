import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { parseV1Page, V1_PAGE_CAP, v1List } from '../../core/pagination/v1-page';
import { presentGroupCategory } from './groups.v1.presenter';
import { GroupsV1Service } from './groups.v1.service';
import { V1 } from '../../core/http/interfaces';

/** /v1/group-categories: read-only (categories have no create operation on either interface). */
@V1()
@Controller('v1/group-categories')
export class GroupCategoriesV1Controller {
  constructor(
    private readonly groups: GroupsV1Service,
    private readonly config: AppConfig,
  ) {}

  /** Section 8 leaves the page size caller-set: default 100, capped at 1000. */
  @Get()
  @Scopes('student-groups:read')
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.large, V1_PAGE_CAP.small);
    const { rows, count } = await this.groups.listCategories(p, page);
    return v1List(rows.map(presentGroupCategory), count, page, requestBaseUrl(this.config, req), req.url);
  }

  @Get(':group_category_id')
  @Scopes('student-groups:read')
  async read(@Auth() p: Principal, @Param('group_category_id') id: string) {
    return presentGroupCategory(await this.groups.getCategory(p, id));
  }
}
