import { Controller } from '@nestjs/common';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/http/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { UserEnrollmentsV1Service } from './user-enrollments.v1.service';
import { presentUserPathEnrollment, presentUserPlanEnrollment } from './users.v1.presenter';

/**
 * The enrollment sub-lists of a /v1 user (students:read): users_plan_enrollments_list and
 * users_published_path_enrollments_list. The published document answers them as bare arrays;
 * resource-reference-api.md (which wins) gives them `page` and the /v1 list envelope, with the
 * "users and their sub-lists" cap of 1000 (docs/decisions/v1-users.md).
 */
@V1()
@V1Resource<UserEnrollmentsV1Service>({
  service: 'enrollments', at: 'published-path-enrollments', id: 'published_path_enrollment_id', scopes: 'students', present: presentUserPathEnrollment,
  list: { call: 'pathEnrollments', cap: V1_PAGE_CAP.large },
})
@V1Resource<UserEnrollmentsV1Service>({
  service: 'enrollments', at: 'plan-enrollments', id: 'plan_enrollment_id', scopes: 'students', present: presentUserPlanEnrollment,
  list: { call: 'planEnrollments', cap: V1_PAGE_CAP.large },
})
@Controller('v1/users/:user_id')
export class UserListsV1Controller {
  constructor(readonly enrollments: UserEnrollmentsV1Service) {}
}
