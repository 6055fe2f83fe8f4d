import { Controller } from '@nestjs/common';
import { Extension } from '../../core/http/extension';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { GroupCategoryDto } from './dto/group-category.dto';
import { GroupCategoriesService } from './group-categories.service';
import { GroupCategorySchema, presentGroupCategory } from './groups.v1.presenter';

/** POST /v1/group-categories, PUT/PATCH/DELETE /v1/group-categories/{group_category_id} (CONVENTIONS §15, `student-groups:write`). */
@V1()
@Extension('creates, renames or deletes a group category (its groups then have none); answers the GroupCategory.')
@V1Resource<GroupCategoriesService>({
  service: GroupCategoriesService,
  id: 'group_category_id',
  scopes: 'student-groups',
  present: presentGroupCategory,
  schema: GroupCategorySchema,
  create: { call: (s) => s.create, body: GroupCategoryDto },
  update: { call: (s) => s.update, body: GroupCategoryDto },
  remove: { call: (s) => s.remove, handler: 'destroy' },
})
@Controller('v1/group-categories')
export class GroupCategoriesAdminV1Controller {
  constructor(readonly categories: GroupCategoriesService) {}
}
