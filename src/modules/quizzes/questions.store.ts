import type { QuestionType } from './quiz-model';

/**
 * The `questions` table (the quizzes module owns it): a question of a quiz or of a question bank, its answers a jsonb array; soft-deleted (deleted_at). Its row type is checked against the
 * migrated schema by row-types.spec.ts (docs/decisions/data-access.md).
 */

/** One answer of a question, as stored in `questions.answers`. */
export interface StoredAnswer {
  id: string;
  answer_text: string;
  correct: boolean;
  order: number;
}

/** A live question (QUESTION_SELECT). @table questions */
export interface QuestionRow {
  id: string;
  quiz_id: string | null;
  question_bank_id: string | null;
  type: QuestionType;
  html: string;
  order: number;
  case_sensitive: boolean;
  requires_manual_grading: boolean;
  is_graded: boolean;
  is_optional: boolean;
  correct_answer_feedback_html: string;
  incorrect_answer_feedback_html: string;
  answer_feedback_html: string;
  answers: StoredAnswer[];
  created_at: Date;
  updated_at: Date;
}
