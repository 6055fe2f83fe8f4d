import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { presentCourseSeries, presentSeriesCourse } from './course-series.presenter';
import { CourseSeriesService } from './course-series.service';

/** /v1/domains/{domain_name}/course-series (the `course-families` scope family). */
@V1()
@V1Resource<CourseSeriesService>({
  service: CourseSeriesService,
  id: 'course_series_id',
  scopes: 'course-families',
  present: presentCourseSeries,
  list: { call: (s) => s.list, cap: V1_PAGE_CAP.small },
  read: { call: (s) => s.read },
})
@Controller('v1/domains/:domain_name/course-series')
export class CourseSeriesV1Controller {
  constructor(readonly series: CourseSeriesService) {}

  @Get(':course_series_id/published-courses')
  @Scopes('course-families:read')
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async courses(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('course_series_id') id: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count, domainName } = await this.series.publishedCourses(p, domain, id, page, v1UpdatedSince(query));
    return page.list(
      rows.map((r) => presentSeriesCourse(r, domainName)),
      count,
    );
  }
}
