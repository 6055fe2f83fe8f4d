/**
 * The `course_progress_cycles` table (the progress module owns it): one row per ended completion
 * cycle of a course progress (a re-enrollment keeps the previous cycle's completion, score and
 * lessons). The row type is checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md).
 */

/** A row of `course_progress_cycles`, every column. @table course_progress_cycles */
export interface CourseProgressCycleRow {
  id: string;
  organization_id: string;
  course_progress_id: string;
  user_id: string;
  published_course_id: string;
  completed_at: Date;
  success_status: string | null;
  score: number | null;
  max_score: number | null;
  certificate_id: string | null;
  lessons: unknown[];
  ended_at: Date;
  created_at: Date;
}
