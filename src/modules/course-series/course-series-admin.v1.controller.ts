import { Controller } from '@nestjs/common';
import { ProgramAdminV1 } from '../plans/program-admin';
import { CourseSeriesAdminService } from './course-series-admin.service';
import { CourseSeriesSchema, presentCourseSeries } from './course-series.presenter';
import { CourseSeriesCreateDto, CourseSeriesPatchDto } from './dto/course-series-write.dto';

const EXTENSION = 'creates (with its offer), updates (PUT: title required; PATCH: any member) or deletes a course series of the domain, with its ordered published courses; answers the CourseSeries.';

/**
 * POST /v1/domains/{domain_name}/course-series, PUT/PATCH/DELETE .../course-series/{course_series_id}
 * (CONVENTIONS §15, `course-families:write`): the published CourseSeries.
 */
@ProgramAdminV1({
  service: CourseSeriesAdminService,
  id: 'course_series_id',
  scopes: 'course-families',
  present: presentCourseSeries,
  schema: CourseSeriesSchema,
  create: CourseSeriesCreateDto,
  patch: CourseSeriesPatchDto,
  description: EXTENSION,
})
@Controller('v1/domains/:domain_name/course-series')
export class CourseSeriesAdminV1Controller {
  constructor(readonly series: CourseSeriesAdminService) {}
}
