import { Controller } from '@nestjs/common';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { ApiQuery } from '@nestjs/swagger';
import { OnHandlers } from '../../core/http/v1-controller-kit';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import { presentGroupCategory } from './groups.v1.presenter';
import { GroupsV1Service } from './groups.v1.service';

/**
 * /v1/group-categories: the published reads (the writes are extensions: group-categories-admin.v1.controller.ts).
 * Section 8 leaves the page size caller-set: default 100, capped at 1000.
 */
@V1()
@OnHandlers({ list: [ApiQuery(V1_UPDATED_SINCE_QUERY)] })
@V1Resource<GroupsV1Service>({
  service: GroupsV1Service,
  id: 'group_category_id',
  scopes: 'student-groups',
  present: presentGroupCategory,
  list: { call: (s) => s.listCategories, handler: 'list', cap: V1_PAGE_CAP.large, defaultSize: V1_PAGE_CAP.small, filters: (q: Record<string, unknown>) => ({ updatedSince: v1UpdatedSince(q) }) },
  read: { call: (s) => s.getCategory, handler: 'read' },
})
@Controller('v1/group-categories')
export class GroupCategoriesV1Controller {
  constructor(readonly groups: GroupsV1Service) {}
}
