import { Controller } from '@nestjs/common';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { UserEnrollmentsV1Service } from './user-enrollments.v1.service';
import { presentUserPathEnrollment, presentUserPlanEnrollment } from './users.v1.presenter';

/**
 * The enrollment sub-lists of a /v1 user (students:read): users_plan_enrollments_list and
 * users_published_path_enrollments_list. Bare JSON arrays as published (CONVENTIONS §16), `page` and
 * `page_size` choosing a window of at most 1,000 (V1_WINDOW; docs/decisions/v1-users.md).
 */
@V1()
@V1Resource<UserEnrollmentsV1Service>({
  service: UserEnrollmentsV1Service,
  at: 'published-path-enrollments',
  id: 'published_path_enrollment_id',
  scopes: 'students',
  present: presentUserPathEnrollment,
  list: { call: (s) => s.pathEnrollments, window: true },
})
@V1Resource<UserEnrollmentsV1Service>({
  service: UserEnrollmentsV1Service,
  at: 'plan-enrollments',
  id: 'plan_enrollment_id',
  scopes: 'students',
  present: presentUserPlanEnrollment,
  list: { call: (s) => s.planEnrollments, window: true },
})
@Controller('v1/users/:user_id')
export class UserListsV1Controller {
  constructor(readonly enrollments: UserEnrollmentsV1Service) {}
}
