import { Body, Controller, Get, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { parseV1Page, V1_PAGE_CAP, v1List } from '../../core/pagination/v1-page';
import { DomainsService } from '../domains/domains.service';
import { PublishedCoursesService } from '../published-courses/published-courses.service';
import { EnrollmentCreateDto, EnrollmentUpdateDto } from './dto/enrollment.v1.dto';
import { presentEnrollment } from './enrollments.v1.presenter';
import { V1 } from '../../core/http/interfaces';
import { ExtensionMembers } from '../../core/http/extension';
import { EnrollmentsV1Service } from './enrollments.v1.service';
import { ApiQuery } from '@nestjs/swagger';
import { v1UpdatedSince } from '../../core/pagination/updated-since';

/** /v1/domains/{domain_name}/published-courses/{published_course_id}/enrollments */
@V1()
@Controller('v1/domains/:domain_name/published-courses/:published_course_id/enrollments')
export class EnrollmentsV1Controller {
  constructor(
    private readonly domains: DomainsService,
    private readonly published: PublishedCoursesService,
    private readonly enrollments: EnrollmentsV1Service,
    private readonly config: AppConfig,
  ) {}

  private async scope(p: Principal, name: string, pcId: string) {
    const domain = await this.domains.requireByName(p, name);
    const pc = await this.published.get(p, domain, pcId);
    return { domain, pc };
  }

  @Get()
  @Scopes('enrollments:read')
  @ApiQuery({
    name: 'updated_since',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'extension: changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
  })
  async list(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') pcId: string, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.large);
    const updatedSince = v1UpdatedSince(query);
    const { pc } = await this.scope(p, name, pcId);
    const { rows, count } = await this.enrollments.list(p, pc, page, updatedSince);
    return v1List(rows.map(presentEnrollment), count, page, requestBaseUrl(this.config, req), req.url);
  }

  @Post()
  @Scopes('enrollments:write')
  async create(
    @Auth() p: Principal,
    @Param('domain_name') name: string,
    @Param('published_course_id') pcId: string,
    @Body() dto: EnrollmentCreateDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { domain, pc } = await this.scope(p, name, pcId);
    const { row, created } = await this.enrollments.create(p, domain, pc, dto);
    reply.status(created ? 201 : 200);
    return presentEnrollment(row);
  }

  @Get(':enrollment_id')
  @Scopes('enrollments:read')
  async read(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') pcId: string, @Param('enrollment_id') id: string) {
    const { pc } = await this.scope(p, name, pcId);
    return presentEnrollment(await this.enrollments.get(p, pc, id));
  }

  @Put(':enrollment_id')
  @ExtensionMembers(['rating', 'feedback'])
  @Scopes('enrollments:write')
  async update(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') pcId: string, @Param('enrollment_id') id: string, @Body() dto: EnrollmentUpdateDto) {
    const { pc } = await this.scope(p, name, pcId);
    return presentEnrollment(await this.enrollments.update(p, pc, id, dto));
  }

  @Patch(':enrollment_id')
  @ExtensionMembers(['rating', 'feedback'])
  @Scopes('enrollments:write')
  async partialUpdate(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') pcId: string, @Param('enrollment_id') id: string, @Body() dto: EnrollmentUpdateDto) {
    return this.update(p, name, pcId, id, dto);
  }
}
