import { Controller } from '@nestjs/common';
import { Extension } from '../../core/http/extension';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/http/v1-resource';
import { PlanCreateDto, PlanPatchDto } from './dto/plan-write.dto';
import { presentPlan } from './plans.presenter';
import { PlansAdminService } from './plans-admin.service';

/**
 * POST /v1/domains/{domain_name}/plan (singular, as published), PUT/PATCH/DELETE .../plan/{plan_id}
 * (CONVENTIONS §15, `plans:write`): the published Plan, with its published courses and paths.
 */
@V1()
@Extension('creates (with its offer), updates (PUT: name and hidden required; PATCH: any member) or deletes a plan of the domain, with the published courses and paths it grants; answers the Plan.')
@V1Resource<PlansAdminService>({
  service: 'plans', id: 'plan_id', scopes: 'plans', present: presentPlan,
  create: { call: 'create', body: PlanCreateDto },
  update: { call: 'update', body: PlanCreateDto, patchBody: PlanPatchDto },
  remove: { call: 'remove', handler: 'destroy' },
})
@Controller('v1/domains/:domain_name/plan')
export class PlansAdminV1Controller {
  constructor(readonly plans: PlansAdminService) {}
}
