/**
 * The row types of the `courses` table as the courses module's statements answer them
 * (docs/decisions/data-access.md): the columns a /v2 course shows, and the computed attributes
 * the page statements add. row-types.spec.ts checks them against the migrated schema; the
 * column list of the statements is built from the row type, so the two cannot drift.
 */

/** The columns of `courses` a /v2 course shows (CourseFields), as pg answers them. @table courses */
export interface CourseRow {
  id: string;
  created_at: Date;
  updated_at: Date;
  external_id: string;
  title: string;
  short_description: string;
  long_description_html: string;
  enforce_sequential_navigation: boolean;
  promo_image_url: string;
  issues_certificate: boolean;
  certificate_validity_days: number | null;
}

const COURSE_ROW_COLUMNS: { [K in keyof CourseRow]-?: true } = {
  id: true,
  created_at: true,
  updated_at: true,
  external_id: true,
  title: true,
  short_description: true,
  long_description_html: true,
  enforce_sequential_navigation: true,
  promo_image_url: true,
  issues_certificate: true,
  certificate_validity_days: true,
};

/** CourseRow's columns, for a SELECT list (unaliased): every member, and only those. */
export const COURSE_COLUMNS = Object.keys(COURSE_ROW_COLUMNS).join(', ');

/** The computed attributes of a course (STATS_COLUMNS of courses.service.ts). */
export interface CourseStatsColumns {
  /** @computed count of live lessons */
  lesson_count: number;
  /** @computed max(lessons.updated_at) */
  lessons_updated_at: Date | null;
  /** @computed averageRating of course_ratings on the organization's scale */
  average_rating: number | null;
  /** @computed a live published course exists */
  is_published: boolean;
}

/** A row of the /v2 page statements: the course and its computed attributes. @table courses */
export interface CourseViewRow extends CourseRow, CourseStatsColumns {}
