/**
 * The row types of the `lessons` table as the lessons module's /v2 reads answer them
 * (docs/decisions/data-access.md), checked against the migrated schema by row-types.spec.ts.
 * The reads keep timestamps as pg's text (TEXT_TIMESTAMPS).
 */

/** A row of the /v2 lesson reads (LIST_COLUMNS, and content_items when selected). @table lessons */
export interface LessonListRow {
  id: string;
  created_at: string;
  updated_at: string;
  course_id: string;
  title: string;
  type: string;
  order: number;
  description_html: string;
  content_html: string | null;
  quiz_id: string | null;
  external_id: string;
  /** absent from the list statements */
  content_items?: unknown;
}

const LESSON_LIST_COLUMNS: { [K in Exclude<keyof LessonListRow, 'content_items'>]-?: true } = {
  id: true,
  created_at: true,
  updated_at: true,
  course_id: true,
  title: true,
  type: true,
  order: true,
  description_html: true,
  content_html: true,
  quiz_id: true,
  external_id: true,
};

/** LessonListRow's columns but content_items, for a SELECT list of the lessons aliased `l`. */
export const LIST_COLUMNS = Object.keys(LESSON_LIST_COLUMNS)
  .map((c) => (c === 'order' ? 'l."order"' : `l.${c}`))
  .join(', ');
