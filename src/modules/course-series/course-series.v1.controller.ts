import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { parseV1Page, V1_PAGE_CAP, v1List } from '../../core/pagination/v1-page';
import { presentCourseSeries, presentSeriesCourse } from './course-series.presenter';
import { CourseSeriesService } from './course-series.service';
import { V1 } from '../../core/http/interfaces';

/** /v1/domains/{domain_name}/course-series (the `course-families` scope family). */
@V1()
@Controller('v1/domains/:domain_name/course-series')
export class CourseSeriesV1Controller {
  constructor(
    private readonly series: CourseSeriesService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('course-families:read')
  async list(@Auth() p: Principal, @Param('domain_name') domain: string, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.small);
    const { rows, count } = await this.series.list(p, domain, page);
    return v1List(rows.map(presentCourseSeries), count, page, requestBaseUrl(this.config, req), req.url);
  }

  @Get(':course_series_id')
  @Scopes('course-families:read')
  async read(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('course_series_id') id: string) {
    return presentCourseSeries(await this.series.read(p, domain, id));
  }

  @Get(':course_series_id/published-courses')
  @Scopes('course-families:read')
  async courses(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('course_series_id') id: string, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.small);
    const { rows, count, domainName } = await this.series.publishedCourses(p, domain, id, page);
    return v1List(rows.map((r) => presentSeriesCourse(r, domainName)), count, page, requestBaseUrl(this.config, req), req.url);
  }
}
