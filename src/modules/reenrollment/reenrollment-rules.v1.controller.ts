import { Body, Controller, HttpCode, Param } from '@nestjs/common';
import { Auth } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { ScopedRoutes } from '../../core/routes/scoped-routes';
import { DomainsService } from '../domains/domains.service';
import { ReenrollmentRuleRequest, ReenrollmentRuleUpdateRequest } from './dto/reenrollment-rule.dto';
import { presentReenrollmentRule, ReenrollmentRulesService } from './reenrollment-rules.service';

const route = ScopedRoutes('published-courses');

/**
 * /v1/domains/{domain_name}/published-courses/{published_course_id}/reenrollment_rule (scopes
 * published-courses:*): read, create (200, as published), PUT and PATCH (both partial), delete.
 */
@V1()
@Controller('v1/domains/:domain_name/published-courses/:published_course_id/reenrollment_rule')
export class ReenrollmentRulesV1Controller {
  constructor(
    private readonly domains: DomainsService,
    private readonly rules: ReenrollmentRulesService,
  ) {}

  @route.get()
  async read(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string) {
    return presentReenrollmentRule(await this.rules.get(p, await this.domains.requireByName(p, name), id));
  }

  @route.post()
  @HttpCode(200)
  async create(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Body() dto: ReenrollmentRuleRequest) {
    return presentReenrollmentRule(await this.rules.create(p, await this.domains.requireByName(p, name), id, dto));
  }

  /** PUT and PATCH are identical - both do partial updates (the published description). */
  @route.putAndPatch()
  async update(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Body() dto: ReenrollmentRuleUpdateRequest) {
    return presentReenrollmentRule(await this.rules.update(p, await this.domains.requireByName(p, name), id, dto));
  }

  @route.delete(undefined, 204)
  async destroy(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string): Promise<void> {
    await this.rules.remove(p, await this.domains.requireByName(p, name), id);
  }
}
