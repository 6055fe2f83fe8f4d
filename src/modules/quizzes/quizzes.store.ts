/**
 * The `quizzes` table (the quizzes module owns it): a quiz with its settings; soft-deleted (deleted_at). Its row type is checked against the
 * migrated schema by row-types.spec.ts (docs/decisions/data-access.md).
 */

/** A live quiz, every column but deleted_at (QUIZ_SELECT). @table quizzes */
export interface QuizRow {
  id: string;
  organization_id: string;
  name: string;
  html: string;
  passing_percentage_correct: number;
  show_results_on_failure: boolean;
  max_attempts: number;
  require_correct_response: boolean;
  randomize_questions: boolean;
  limit_question_count: number;
  randomize_answers: boolean;
  time_limit_seconds: number | null;
  show_question_feedback: boolean;
  skip_start_screen: boolean | null;
  /** CHECK (alignment IN ('left', 'center', 'right')) */
  alignment: 'left' | 'center' | 'right';
  created_at: Date;
  updated_at: Date;
}
