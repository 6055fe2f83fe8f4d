import { requireMembers, V1Bool, V1Str } from '../../../core/http/v1-rules';
import { ProgramList, ProgramRefDto } from '../../plans/dto/plan-write.dto';

/**
 * PATCH /v1/domains/{domain_name}/course-series/{course_series_id} (extension, CONVENTIONS §15): the
 * published CourseSeries' writable members and `published_courses` (ordered `[{id}]` of live
 * published courses of the domain; a list sent replaces the series' courses and their order).
 */
export class CourseSeriesPatchDto {
  @V1Str({ min: 1, max: 500 }) title?: string;
  @V1Bool() visible_on_catalog?: boolean;
  @ProgramList('the series’ published courses, in order') published_courses?: ProgramRefDto[];
}

/** POST and PUT: `title` required, as in the published CourseSeries. */
export class CourseSeriesCreateDto extends CourseSeriesPatchDto {}
requireMembers(CourseSeriesCreateDto, ['title']);
