import { Bool, Choice, Obj, PageParam, Required, Str, StrList, requireMembers } from '../../../core/http/v1-rules';

export const TIME_FORMATS = ['HOURS_MINUTES_SECONDS', 'HOURS_MINUTES', 'HOURS_MINUTES_VERBOSE', 'MINUTES_VERBOSE'] as const;
export type TimeFormat = (typeof TIME_FORMATS)[number];

/** PatchedCourseRequest: every member optional (PATCH). */
export class PatchedCourseRequest {
  @Str({ min: 1, max: 500 }) title?: string;
  @Str({ min: 1, max: 500 }) short_description?: string;
  @Bool() enforce_sequential_navigation?: boolean;
  @Str({ max: 1_000_000 }) long_description_html?: string;
  @StrList(255) labels?: string[];
  @Bool() display_course_and_lesson_time?: boolean;
  /** May be blank (a read gives "" when unset; a read written back must be accepted, CONVENTIONS §9). */
  @Str({ max: 15 }) manual_course_time?: string;
  @Bool() display_manual_course_time?: boolean;
  @Choice(TIME_FORMATS) course_and_lesson_time_format?: TimeFormat;
}

/** CourseRequest (POST and PUT): enforce_sequential_navigation, short_description and title are required. */
export class CourseRequest extends PatchedCourseRequest {}
requireMembers(CourseRequest, ['title', 'short_description', 'enforce_sequential_navigation']);

export class CourseListQuery {
  @Str() label__name?: string;
  @PageParam() page?: unknown;
  @PageParam() page_size?: unknown;
}

/** NestedLabelAssociationRequest: `{"label": {"id": "..."}}`. The id is checked by the service. */
export class CourseLabelRequest {
  @Required() @Obj() label: { id?: unknown };
}
