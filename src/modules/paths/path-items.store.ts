/**
 * The `path_items` table (the paths module owns it): the row type of its page statement
 * (row-types.spec.ts checks it against the migrated schema; docs/decisions/data-access.md).
 */

/** A path item with its published course, the course's title and its live-lesson counts. @table path_items */
export interface PathItemViewRow {
  id: string;
  organization_id: string;
  path_id: string;
  published_course_id: string;
  order: number;
  created_at: Date;
  updated_at: Date;
  /** @column published_courses.slug */
  slug: string;
  /** @column published_courses.course_id */
  c_id: string;
  /** @column courses.title */
  c_title: string;
  /** @computed count of the course's live lessons */
  lesson_count: number;
  /** @computed count of its live lessons that are not optional */
  required_count: number;
}
