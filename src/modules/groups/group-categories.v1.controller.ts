import { Controller, Get, Param } from '@nestjs/common';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { presentGroupCategory } from './groups.v1.presenter';
import { GroupsV1Service } from './groups.v1.service';
import { V1 } from '../../core/http/interfaces';

/** /v1/group-categories: read-only (categories have no create operation on either interface). */
@V1()
@Controller('v1/group-categories')
export class GroupCategoriesV1Controller {
  constructor(private readonly groups: GroupsV1Service) {}

  /** Section 8 leaves the page size caller-set: default 100, capped at 1000. */
  @Get()
  @Scopes('student-groups:read')
  async list(@Auth() p: Principal, @Paged(V1_PAGE_CAP.large, V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.groups.listCategories(p, page);
    return page.list(rows.map(presentGroupCategory), count);
  }

  @Get(':group_category_id')
  @Scopes('student-groups:read')
  async read(@Auth() p: Principal, @Param('group_category_id') id: string) {
    return presentGroupCategory(await this.groups.getCategory(p, id));
  }
}
