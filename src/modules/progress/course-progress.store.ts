/**
 * The `course_progress` table (the progress module owns it): a learner's progress in a published
 * course (shared by the user's enrollments, or one per enrollment). The row type is checked against
 * the migrated schema by row-types.spec.ts (docs/decisions/data-access.md).
 */

/** A row of `course_progress`, every column. @table course_progress */
export interface CourseProgressRow {
  id: string;
  organization_id: string;
  user_id: string;
  published_course_id: string;
  course_id: string;
  enrollment_id: string | null;
  completed_at: Date | null;
  success_status: string | null;
  score: number | null;
  max_score: number | null;
  credits_earned: string;
  credit_unit_plural: string;
  latest_activity: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The course progress a /v1 user route addresses (ProgressService.courseProgressOf). @table course_progress */
export interface CourseProgressRefRow {
  id: string;
  user_id: string;
  course_id: string;
}
