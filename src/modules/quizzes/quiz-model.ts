import { newUuid } from '../../core/ids/ids';

/**
 * The quiz model's columns, rows and rules shared by the /v1 and /v2 services (one model, two
 * interfaces: CONVENTIONS §12). docs/decisions/quizzes.md.
 */

export const QUESTION_TYPES = ['MULTIPLE_CHOICE', 'MULTIPLE_ANSWER', 'FILL_IN_THE_BLANK', 'FREEFORM'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const ALIGNMENTS = ['left', 'center', 'right'] as const;
/** QUIZ_MAX_TIME_LIMIT_SECONDS of the published documents. */
export const MAX_TIME_LIMIT_SECONDS = 3_600_000;
export const INT32_MAX = 2147483647;

// the row types live in the stores of their tables (docs/decisions/data-access.md)
export type { QuizRow } from './quizzes.store';
export type { QuestionBankRow } from './question-banks.store';
export type { QuestionRow, StoredAnswer } from './questions.store';
import type { StoredAnswer } from './questions.store';
export type { AssignmentRow } from './question-bank-assignments.store';

/** A writable column: its PostgreSQL type and its value on create when not sent. */
export interface ColumnSpec {
  type: 'text' | 'integer' | 'boolean' | 'jsonb';
  default: string;
}

export const QUIZ_COLUMNS: Record<string, ColumnSpec> = {
  name: { type: 'text', default: `''` },
  html: { type: 'text', default: `''` },
  passing_percentage_correct: { type: 'integer', default: '0' },
  show_results_on_failure: { type: 'boolean', default: 'false' },
  max_attempts: { type: 'integer', default: '0' },
  require_correct_response: { type: 'boolean', default: 'false' },
  randomize_questions: { type: 'boolean', default: 'false' },
  limit_question_count: { type: 'integer', default: '0' },
  randomize_answers: { type: 'boolean', default: 'false' },
  time_limit_seconds: { type: 'integer', default: 'NULL' },
  show_question_feedback: { type: 'boolean', default: 'false' },
  skip_start_screen: { type: 'boolean', default: 'false' },
  alignment: { type: 'text', default: `'center'` },
};

export const BANK_COLUMNS: Record<string, ColumnSpec> = { name: { type: 'text', default: `''` } };

export const QUESTION_COLUMNS: Record<string, ColumnSpec> = {
  type: { type: 'text', default: `''` },
  html: { type: 'text', default: `''` },
  case_sensitive: { type: 'boolean', default: 'false' },
  requires_manual_grading: { type: 'boolean', default: 'false' },
  is_graded: { type: 'boolean', default: 'true' },
  is_optional: { type: 'boolean', default: 'false' },
  correct_answer_feedback_html: { type: 'text', default: `''` },
  incorrect_answer_feedback_html: { type: 'text', default: `''` },
  answer_feedback_html: { type: 'text', default: `''` },
  answers: { type: 'jsonb', default: `'[]'::jsonb` },
};

export const ASSIGNMENT_COLUMNS: Record<string, ColumnSpec> = {
  order: { type: 'integer', default: '0' },
  randomize_questions: { type: 'boolean', default: 'false' },
  limit_question_count: { type: 'integer', default: '0' },
};

const quote = (col: string) => (col === 'order' ? `"order"` : col);

/** `v.d ->> 'col'` cast to the column's type (jsonb values stay jsonb). */
function valueOf(col: string, spec: ColumnSpec, d = 'v.d'): string {
  return spec.type === 'jsonb' ? `(${d} -> '${col}')` : `(${d} ->> '${col}')::${spec.type}`;
}

/**
 * The SET list of a set-wise update from `unnest(ids, changes jsonb[]) AS v(id, d)`: a column
 * changes only when its member is in the row's `d` (an explicit null sets NULL).
 */
export function setClause(alias: string, columns: Record<string, ColumnSpec>): string {
  return Object.entries(columns)
    .map(([col, spec]) => `${quote(col)} = CASE WHEN v.d ? '${col}' THEN ${valueOf(col, spec)} ELSE ${alias}.${quote(col)} END`)
    .join(', ');
}

/** The column list and SELECT expressions of a set-wise insert from `unnest(...) AS v(id, d)`: a member not in `d` takes the column default. */
export function insertColumns(columns: Record<string, ColumnSpec>): { names: string; values: string } {
  const entries = Object.entries(columns);
  return {
    names: entries.map(([c]) => quote(c)).join(', '),
    values: entries.map(([col, spec]) => `CASE WHEN v.d ? '${col}' THEN ${valueOf(col, spec)} ELSE ${spec.default} END`).join(', '),
  };
}

/** Fresh ids in ascending order: rows of one INSERT share created_at, so the keyset order (created_at, id) is request order. */
export function sortedIds(n: number): string[] {
  return Array.from({ length: n }, () => newUuid()).sort();
}

/** Answers as stored: new ids, order by position (index * 10); fill-in-the-blank answers are all correct. */
export function storedAnswers(type: string, answers: { answer_text: string; correct?: boolean }[] | undefined): StoredAnswer[] {
  return (answers ?? []).map((a, i) => ({ id: newUuid(), answer_text: a.answer_text, correct: type === 'FILL_IN_THE_BLANK' ? true : a.correct === true, order: i * 10 }));
}

/** A rule broken by a question: the member (as /v1 names it) and the message. */
export interface QuestionProblem {
  field: 'type' | 'answers' | 'case_sensitive' | 'requires_manual_grading' | 'correct_answer_feedback_html' | 'incorrect_answer_feedback_html';
  message: string;
}

/**
 * The per-type rules of a question (resource-reference-api.md, quizzes; the published /v2
 * QuestionCreateRequest): answers required (at least one) for the three auto-graded types and
 * none for FREEFORM; a MULTIPLE_CHOICE question has exactly one correct answer and a
 * MULTIPLE_ANSWER one at least one; `case_sensitive` only on FILL_IN_THE_BLANK;
 * `requires_manual_grading` only on FREEFORM; no correct/incorrect feedback on FREEFORM.
 */
export function questionProblems(q: {
  type: string;
  answers: { answer_text: string; correct?: boolean }[];
  case_sensitive: boolean;
  requires_manual_grading: boolean;
  correct_answer_feedback_html: string;
  incorrect_answer_feedback_html: string;
}): QuestionProblem[] {
  const out: QuestionProblem[] = [];
  const graded = q.type !== 'FREEFORM';
  if (graded && q.answers.length === 0) out.push({ field: 'answers', message: `At least one answer is required for a ${q.type} question.` });
  if (!graded && q.answers.length > 0) out.push({ field: 'answers', message: 'A FREEFORM question takes no answers.' });
  if (q.type === 'MULTIPLE_CHOICE' && q.answers.length && q.answers.filter((a) => a.correct === true).length !== 1) {
    out.push({ field: 'answers', message: 'A MULTIPLE_CHOICE question needs exactly one correct answer.' });
  }
  if (q.type === 'MULTIPLE_ANSWER' && q.answers.length && !q.answers.some((a) => a.correct === true)) {
    out.push({ field: 'answers', message: 'A MULTIPLE_ANSWER question needs at least one correct answer.' });
  }
  if (q.case_sensitive && q.type !== 'FILL_IN_THE_BLANK') out.push({ field: 'case_sensitive', message: 'Only a FILL_IN_THE_BLANK question can be case sensitive.' });
  if (q.requires_manual_grading && graded) out.push({ field: 'requires_manual_grading', message: `A ${q.type} question is graded automatically; only FREEFORM questions require manual grading.` });
  if (!graded && q.correct_answer_feedback_html) out.push({ field: 'correct_answer_feedback_html', message: 'A FREEFORM question has no correct-answer feedback.' });
  if (!graded && q.incorrect_answer_feedback_html) out.push({ field: 'incorrect_answer_feedback_html', message: 'A FREEFORM question has no incorrect-answer feedback.' });
  return out;
}

/** The live-quiz SELECT list (every column of quizzes). */
export const QUIZ_SELECT = `q.id, q.organization_id, q.name, q.html, q.passing_percentage_correct, q.show_results_on_failure, q.max_attempts,
  q.require_correct_response, q.randomize_questions, q.limit_question_count, q.randomize_answers, q.time_limit_seconds,
  q.show_question_feedback, q.skip_start_screen, q.alignment, q.created_at, q.updated_at`;

/** A bank with its counts (live questions, quizzes bound). */
export const BANK_SELECT = `b.id, b.name, b.created_at, b.updated_at,
  (SELECT count(*)::int FROM questions x WHERE x.organization_id = b.organization_id AND x.question_bank_id = b.id AND x.deleted_at IS NULL) AS question_count,
  (SELECT count(*)::int FROM question_bank_assignments a JOIN quizzes z ON z.id = a.quiz_id AND z.organization_id = a.organization_id AND z.deleted_at IS NULL
     WHERE a.organization_id = b.organization_id AND a.question_bank_id = b.id) AS quiz_association_count`;

export const QUESTION_SELECT = `x.id, x.quiz_id, x.question_bank_id, x.type, x.html, x."order", x.case_sensitive, x.requires_manual_grading, x.is_graded,
  x.is_optional, x.correct_answer_feedback_html, x.incorrect_answer_feedback_html, x.answer_feedback_html, x.answers, x.created_at, x.updated_at`;

export const ASSIGNMENT_SELECT = `a.id, a.quiz_id, a.question_bank_id, a."order", a.randomize_questions, a.limit_question_count, a.created_at, a.updated_at, b.name,
  (SELECT count(*)::int FROM questions x WHERE x.organization_id = a.organization_id AND x.question_bank_id = a.question_bank_id AND x.deleted_at IS NULL) AS question_count,
  (SELECT count(*)::int FROM question_bank_assignments a2 JOIN quizzes z ON z.id = a2.quiz_id AND z.organization_id = a2.organization_id AND z.deleted_at IS NULL
     WHERE a2.organization_id = a.organization_id AND a2.question_bank_id = a.question_bank_id) AS quiz_association_count`;
