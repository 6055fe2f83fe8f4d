import { Body, Controller, Get, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { EnrollmentCreateDto, EnrollmentUpdateDto } from '../enrollments/dto/program-enrollment.v1.dto';
import { presentPlan, presentPlanEnrollment } from './plans.presenter';
import { PlansService } from './plans.service';
import { V1 } from '../../core/http/interfaces';
import { PutAndPatch } from '../../core/http/put-and-patch';

/** /v1/domains/{domain_name}/plan (singular, as published): plans (`plans`) and their enrollments (`enrollments`). */
@V1()
@Controller('v1/domains/:domain_name/plan')
export class PlansV1Controller {
  constructor(private readonly plans: PlansService) {}

  @Get()
  @Scopes('plans:read')
  async list(@Auth() p: Principal, @Param('domain_name') domain: string, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.plans.list(p, domain, page);
    return page.list(rows.map(presentPlan), count);
  }

  @Get(':plan_id')
  @Scopes('plans:read')
  async read(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('plan_id') id: string) {
    return presentPlan(await this.plans.read(p, domain, id));
  }

  @Get(':plan_id/plan-enrollments')
  @Scopes('enrollments:read')
  async enrollments(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('plan_id') id: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.plans.listEnrollments(p, domain, id, page);
    return page.list(rows.map(presentPlanEnrollment), count);
  }

  @Post(':plan_id/plan-enrollments')
  @Scopes('enrollments:write')
  async enroll(
    @Auth() p: Principal,
    @Param('domain_name') domain: string,
    @Param('plan_id') id: string,
    @Body() dto: EnrollmentCreateDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { view, created } = await this.plans.enroll(p, domain, id, dto);
    reply.status(created ? 201 : 200);
    return presentPlanEnrollment(view);
  }

  @Get(':plan_id/plan-enrollments/:plan_enrollment_id')
  @Scopes('enrollments:read')
  async enrollment(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('plan_id') id: string, @Param('plan_enrollment_id') eid: string) {
    return presentPlanEnrollment(await this.plans.readEnrollment(p, domain, id, eid));
  }

  @PutAndPatch(':plan_id/plan-enrollments/:plan_enrollment_id')
  @Scopes('enrollments:write')
  async update(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('plan_id') id: string, @Param('plan_enrollment_id') eid: string, @Body() dto: EnrollmentUpdateDto) {
    return presentPlanEnrollment(await this.plans.updateEnrollment(p, domain, id, eid, dto));
  }
}
