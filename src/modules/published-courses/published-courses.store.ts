import type { Timestamp } from '../../core/database/pool-reads';

/**
 * The row types of the `published_courses` table as the module's statements answer them
 * (docs/decisions/data-access.md), checked against the migrated schema by row-types.spec.ts, and
 * the /v1 catalog's column list.
 */

/** The settings columns of a published course, wherever a query reads them. @table published_courses */
export interface PublishedCourseSettingsRow {
  is_hidden: boolean;
  strict_enforce_group_visibility: boolean;
  registration_required: boolean;
  registration_starts_at: Date | null;
  registration_ends_at: Date | null;
  restrict_access_start_end_dates: boolean;
  allow_self_service_reenroll: boolean;
  unique_progress_per_enrollment: boolean;
  require_all_prerequisites: boolean;
}

/** One row of the /v1 published-course queries (PUBLISHED_COURSE_SELECT): its columns and its course's. @table published_courses */
export interface PublishedCourseRow extends PublishedCourseSettingsRow {
  id: string;
  course_id: string;
  slug: string;
  /** @column courses.title */
  course_title: string;
  /** @column courses.short_description */
  course_short_description: string;
  /** @column courses.long_description_html */
  course_long_description_html: string;
}

/** One row of the /v2 published-course reads (published_courses columns). @table published_courses */
export interface PublishedCourseV2Row {
  id: string;
  course_id: string;
  domain_id: string;
  slug: string;
  external_id: string;
  is_hidden: boolean;
  visible_on_catalog: boolean;
  open_access: boolean;
  strict_enforce_group_visibility: boolean;
  visibility_override_type: string;
  registration_starts_at: Timestamp | null;
  registration_ends_at: Timestamp | null;
  restrict_access_start_end_dates: boolean;
  allow_self_service_reenroll: boolean;
  unique_progress_per_enrollment: boolean;
  require_all_prerequisites: boolean;
  unpublished_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** What the catalog statements compute per course (lesson counts; the searchable lessons). */
export interface LessonStats {
  lessonCount: number;
  requiredLessonCount: number;
}

export interface SearchableLesson {
  id: string;
  title: string;
  type: string;
  order: number;
  search_keywords: string;
}

/** Columns of the /v1 published-course queries (alias pc = published_courses, c = courses): PublishedCourseRow's, and created_at. */
export const PUBLISHED_COURSE_SELECT = `pc.id, pc.course_id, pc.slug, pc.is_hidden, pc.strict_enforce_group_visibility, pc.registration_required,
  pc.registration_starts_at, pc.registration_ends_at, pc.restrict_access_start_end_dates, pc.allow_self_service_reenroll,
  pc.unique_progress_per_enrollment, pc.require_all_prerequisites, pc.created_at,
  c.title AS course_title, c.short_description AS course_short_description, c.long_description_html AS course_long_description_html`;
