/**
 * The `question_bank_assignments` table (the quizzes module owns it): which question banks a quiz draws from, in which order, how many. Its row type is checked against the
 * migrated schema by row-types.spec.ts (docs/decisions/data-access.md).
 */

/** A bank bound to a quiz, with the bank's name and counts (ASSIGNMENT_SELECT). @table question_bank_assignments */
export interface AssignmentRow {
  id: string;
  quiz_id: string;
  question_bank_id: string;
  order: number;
  randomize_questions: boolean;
  limit_question_count: number;
  created_at: Date;
  updated_at: Date;
  /** the bank's name: @column question_banks.name */
  name: string;
  /** @computed live questions of the bank */
  question_count: number;
  /** @computed live quizzes the bank is bound to */
  quiz_association_count: number;
}
