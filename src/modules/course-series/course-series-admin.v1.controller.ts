import { Controller } from '@nestjs/common';
import { Extension } from '../../core/http/extension';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/http/v1-resource';
import { CourseSeriesAdminService } from './course-series-admin.service';
import { presentCourseSeries } from './course-series.presenter';
import { CourseSeriesCreateDto, CourseSeriesPatchDto } from './dto/course-series-write.dto';

/**
 * POST /v1/domains/{domain_name}/course-series, PUT/PATCH/DELETE .../course-series/{course_series_id}
 * (CONVENTIONS §15, `course-families:write`): the published CourseSeries.
 */
@V1()
@Extension('creates (with its offer), updates (PUT: title required; PATCH: any member) or deletes a course series of the domain, with its ordered published courses; answers the CourseSeries.')
@V1Resource<CourseSeriesAdminService>({
  service: 'series', id: 'course_series_id', scopes: 'course-families', present: presentCourseSeries,
  create: { call: 'create', body: CourseSeriesCreateDto },
  update: { call: 'update', body: CourseSeriesCreateDto, patchBody: CourseSeriesPatchDto },
  remove: { call: 'remove', handler: 'destroy' },
})
@Controller('v1/domains/:domain_name/course-series')
export class CourseSeriesAdminV1Controller {
  constructor(readonly series: CourseSeriesAdminService) {}
}
