/**
 * The `quiz_attempts` table (the quizzes module owns it): one learner's attempt at a quiz: the questions drawn, the responses, the grade. Its row type is checked against the
 * migrated schema by row-types.spec.ts (docs/decisions/data-access.md).
 */

/** An attempt's state (quiz_attempts.status). */
export const ATTEMPT_STATUSES = ['IN_PROGRESS', 'GRADED', 'PENDING_REVIEW', 'TIMED_OUT'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** A stored attempt (ATTEMPT_SELECT). @table quiz_attempts */
export interface AttemptRow {
  id: string;
  quiz_id: string;
  user_id: string;
  lesson_id: string;
  published_course_id: string;
  attempt_number: number;
  status: AttemptStatus;
  questions: { id: string; correct: boolean | null; counted: boolean; answered: boolean }[];
  score: number | null;
  max_score: number | null;
  percentage_correct: number | null;
  passed: boolean | null;
  started_at: Date;
  submitted_at: Date | null;
  created_at: Date;
}
