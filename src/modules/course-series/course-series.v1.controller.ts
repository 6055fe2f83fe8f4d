import { Controller, Get, Param } from '@nestjs/common';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { presentCourseSeries, presentSeriesCourse } from './course-series.presenter';
import { CourseSeriesService } from './course-series.service';
import { V1 } from '../../core/http/interfaces';

/** /v1/domains/{domain_name}/course-series (the `course-families` scope family). */
@V1()
@Controller('v1/domains/:domain_name/course-series')
export class CourseSeriesV1Controller {
  constructor(private readonly series: CourseSeriesService) {}

  @Get()
  @Scopes('course-families:read')
  async list(@Auth() p: Principal, @Param('domain_name') domain: string, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.series.list(p, domain, page);
    return page.list(rows.map(presentCourseSeries), count);
  }

  @Get(':course_series_id')
  @Scopes('course-families:read')
  async read(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('course_series_id') id: string) {
    return presentCourseSeries(await this.series.read(p, domain, id));
  }

  @Get(':course_series_id/published-courses')
  @Scopes('course-families:read')
  async courses(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('course_series_id') id: string, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count, domainName } = await this.series.publishedCourses(p, domain, id, page);
    return page.list(rows.map((r) => presentSeriesCourse(r, domainName)), count);
  }
}
