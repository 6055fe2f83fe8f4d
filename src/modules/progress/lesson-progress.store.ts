/**
 * The `lesson_progress` table (the progress module owns it): a learner's progress in one lesson of
 * a course progress, addressed by its id or its progress token. The row type is checked against
 * the migrated schema by row-types.spec.ts (docs/decisions/data-access.md); statements name the
 * organization as `$org` (scoped()).
 */

/** A row of `lesson_progress`, every column (`SELECT *`, `RETURNING *`). @table lesson_progress */
export interface LessonProgressRow {
  id: string;
  organization_id: string;
  course_progress_id: string;
  user_id: string;
  lesson_id: string;
  progress_token: string;
  view_count: number;
  last_viewed_on: Date | null;
  finished_at: Date | null;
  completed_at: Date | null;
  success_status: string | null;
  score: number | null;
  max_score: number | null;
  custom_data: string | null;
  validation_status: string | null;
  validation_data: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

/** A /v1 progress token (ProgressReads.tokens): the columns the list shows. @table lesson_progress */
export interface ProgressTokenRow {
  progress_token: string;
  completed_at: Date | null;
  success_status: string | null;
  score: number | null;
  max_score: number | null;
}
