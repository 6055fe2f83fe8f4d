import { Body, Controller, Get, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { parseV1Page, V1_PAGE_CAP, v1List } from '../../core/pagination/v1-page';
import { EnrollmentCreateDto, EnrollmentUpdateDto } from '../enrollments/dto/program-enrollment.v1.dto';
import { presentPlan, presentPlanEnrollment } from './plans.presenter';
import { PlansService } from './plans.service';
import { V1 } from '../../core/http/interfaces';

/** /v1/domains/{domain_name}/plan (singular, as published): plans (`plans`) and their enrollments (`enrollments`). */
@V1()
@Controller('v1/domains/:domain_name/plan')
export class PlansV1Controller {
  constructor(
    private readonly plans: PlansService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('plans:read')
  async list(@Auth() p: Principal, @Param('domain_name') domain: string, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.small);
    const { rows, count } = await this.plans.list(p, domain, page);
    return v1List(rows.map(presentPlan), count, page, requestBaseUrl(this.config, req), req.url);
  }

  @Get(':plan_id')
  @Scopes('plans:read')
  async read(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('plan_id') id: string) {
    return presentPlan(await this.plans.read(p, domain, id));
  }

  @Get(':plan_id/plan-enrollments')
  @Scopes('enrollments:read')
  async enrollments(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('plan_id') id: string, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.large);
    const { rows, count } = await this.plans.listEnrollments(p, domain, id, page);
    return v1List(rows.map(presentPlanEnrollment), count, page, requestBaseUrl(this.config, req), req.url);
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

  @Put(':plan_id/plan-enrollments/:plan_enrollment_id')
  @Scopes('enrollments:write')
  async update(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('plan_id') id: string, @Param('plan_enrollment_id') eid: string, @Body() dto: EnrollmentUpdateDto) {
    return presentPlanEnrollment(await this.plans.updateEnrollment(p, domain, id, eid, dto));
  }

  @Patch(':plan_id/plan-enrollments/:plan_enrollment_id')
  @Scopes('enrollments:write')
  async partialUpdate(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('plan_id') id: string, @Param('plan_enrollment_id') eid: string, @Body() dto: EnrollmentUpdateDto) {
    return presentPlanEnrollment(await this.plans.updateEnrollment(p, domain, id, eid, dto));
  }
}
