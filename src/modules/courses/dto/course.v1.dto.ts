import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { Bool, Choice, Filter, Int, Obj, PageParam, Required, Str, StrList, requireMembers } from '../../../core/http/v1-rules';

export const TIME_FORMATS = ['HOURS_MINUTES_SECONDS', 'HOURS_MINUTES', 'HOURS_MINUTES_VERBOSE', 'MINUTES_VERBOSE'] as const;
export type TimeFormat = (typeof TIME_FORMATS)[number];

/** The longest certificate validity a course may set (100 years): keeps issued_at + validity a valid timestamp. */
export const MAX_CERTIFICATE_VALIDITY_DAYS = 36500;

/**
 * The course's certificate settings (CONVENTIONS §15, docs/decisions/progress.md): members this
 * platform adds to the published Course (read, create, PUT and PATCH), marked `x-extension` in the
 * OpenAPI document. Only these members are documented there: the published ones follow the
 * published document.
 */
export const CERTIFICATE_MEMBERS_DOC = {
  issues_certificate: {
    type: Boolean,
    default: true,
    description: 'Extension (not in the published API): whether completing the course issues a certificate. Default true.',
    'x-extension': true,
  },
  certificate_validity_days: {
    type: 'integer' as const,
    minimum: 1,
    maximum: MAX_CERTIFICATE_VALIDITY_DAYS,
    nullable: true,
    description: "Extension (not in the published API): a certificate's validity in days from its issue (expires_at = issued_at + days); null: it never expires. Default null.",
    'x-extension': true,
  },
};

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
  @ApiPropertyOptional(CERTIFICATE_MEMBERS_DOC.issues_certificate) @Bool() issues_certificate?: boolean;
  @ApiPropertyOptional(CERTIFICATE_MEMBERS_DOC.certificate_validity_days) @Int(1, MAX_CERTIFICATE_VALIDITY_DAYS, { nullable: true }) certificate_validity_days?: number | null;
}

/** CourseRequest (POST and PUT): enforce_sequential_navigation, short_description and title are required. */
export class CourseRequest extends PatchedCourseRequest {}
requireMembers(CourseRequest, ['title', 'short_description', 'enforce_sequential_navigation']);

export class CourseListQuery {
  @Filter() label__name?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'extension: changed at or after (RFC 3339 with an offset); the list is then ordered by last change' })
  @Allow()
  updated_since?: unknown;
  @PageParam() page?: unknown;
  @PageParam() page_size?: unknown;
}

/** NestedLabelAssociationRequest: `{"label": {"id": "..."}}`. The id is checked by the service. */
export class CourseLabelRequest {
  @Required() @Obj() label: { id?: unknown };
}
