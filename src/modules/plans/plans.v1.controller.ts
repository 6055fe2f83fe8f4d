import { Controller } from '@nestjs/common';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { ProgramEnrollmentCreateDto, ProgramEnrollmentUpdateDto } from '../enrollments/dto/program-enrollment.v1.dto';
import { presentPlan, presentPlanEnrollment } from './plans.presenter';
import { PlansService } from './plans.service';

/**
 * /v1/domains/{domain_name}/plan (singular, as published): plans (`plans`) and their enrollments
 * (`enrollments`; enrolling answers 201, or 200 with the enrollment the user already has).
 */
@V1()
@V1Resource<PlansService>({
  service: PlansService,
  id: 'plan_id',
  scopes: 'plans',
  present: presentPlan,
  list: { call: (s) => s.list, cap: V1_PAGE_CAP.small },
  read: { call: (s) => s.read },
})
@V1Resource<PlansService>({
  service: PlansService,
  at: ':plan_id/plan-enrollments',
  id: 'plan_enrollment_id',
  scopes: 'enrollments',
  present: presentPlanEnrollment,
  list: { call: (s) => s.listEnrollments, handler: 'enrollments', cap: V1_PAGE_CAP.large },
  create: { call: (s) => s.enroll, upsert: true, body: ProgramEnrollmentCreateDto },
  read: { call: (s) => s.readEnrollment, handler: 'enrollment' },
  update: { call: (s) => s.updateEnrollment, handler: 'update', body: ProgramEnrollmentUpdateDto },
})
@Controller('v1/domains/:domain_name/plan')
export class PlansV1Controller {
  constructor(readonly plans: PlansService) {}
}
