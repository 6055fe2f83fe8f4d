import { Controller } from '@nestjs/common';
import { PlanCreateDto, PlanPatchDto } from './dto/plan-write.dto';
import { ProgramAdminV1 } from './program-admin';
import { PlanSchema, presentPlan } from './plans.presenter';
import { PlansAdminService } from './plans-admin.service';

const EXTENSION =
  'creates (with its offer), updates (PUT: name and hidden required; PATCH: any member) or deletes a plan of the domain, with the published courses and paths it grants; answers the Plan.';

/**
 * POST /v1/domains/{domain_name}/plan (singular, as published), PUT/PATCH/DELETE .../plan/{plan_id}
 * (CONVENTIONS §15, `plans:write`): the published Plan, with its published courses and paths.
 */
@ProgramAdminV1({ service: PlansAdminService, id: 'plan_id', scopes: 'plans', present: presentPlan, schema: PlanSchema, create: PlanCreateDto, patch: PlanPatchDto, description: EXTENSION })
@Controller('v1/domains/:domain_name/plan')
export class PlansAdminV1Controller {
  constructor(readonly plans: PlansAdminService) {}
}
