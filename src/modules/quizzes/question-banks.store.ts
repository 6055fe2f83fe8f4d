/**
 * The `question_banks` table (the quizzes module owns it): a named pool of questions that quizzes draw from; soft-deleted (deleted_at). Its row type is checked against the
 * migrated schema by row-types.spec.ts (docs/decisions/data-access.md).
 */

/** A bank with its counts (BANK_SELECT). @table question_banks */
export interface QuestionBankRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
  /** @computed live questions of the bank */
  question_count: number;
  /** @computed live quizzes the bank is bound to */
  quiz_association_count: number;
}
