import { ObjectList } from '../../../core/http/array-rules';
import { Bool, Choice, Filter, Int, PageParam, Present, Required, Str, requireMembers } from '../../../core/http/v1-rules';
import { ALIGNMENTS, MAX_TIME_LIMIT_SECONDS, QUESTION_TYPES } from '../quiz-model';

/** The most answers one question holds (a bound for the request, not a published limit). */
export const MAX_ANSWERS = 100;

/** PatchedQuizRequest: every member optional. `html` may be blank (a read gives "" when unset; CONVENTIONS §9). */
export class PatchedQuizRequest {
  @Str({ min: 1, max: 500 }) name?: string;
  @Str({ max: 1_000_000 }) html?: string;
  @Int(0, 100) passing_percentage_correct?: number;
  @Bool() show_results_on_failure?: boolean;
  @Int(0) max_attempts?: number;
  @Bool() require_correct_response?: boolean;
  @Bool() randomize_questions?: boolean;
  @Int(0) limit_question_count?: number;
  @Bool() randomize_answers?: boolean;
  @Int(0, MAX_TIME_LIMIT_SECONDS, { nullable: true }) time_limit_seconds?: number | null;
  @Bool() show_question_feedback?: boolean;
  @Choice(ALIGNMENTS) alignment?: string;
}

/** QuizRequest (POST and PUT): `name` required. */
export class QuizRequest extends PatchedQuizRequest {}
requireMembers(QuizRequest, ['name']);

export class QuizListQuery {
  @Filter() name?: string;
  @PageParam() page?: unknown;
  @PageParam() page_size?: unknown;
  /** read by @V1Resource (core/pagination/updated-since.ts) */
  @PageParam() updated_since?: unknown;
}

export class PatchedQuestionBankRequest {
  @Str({ min: 1, max: 500 }) name?: string;
}

export class QuestionBankRequest extends PatchedQuestionBankRequest {}
requireMembers(QuestionBankRequest, ['name']);

/** AnswerRequest. */
export class AnswerRequest {
  @Required() @Str({ min: 1, max: 1000 }) answer_text: string;
  @Bool() correct?: boolean;
}

/** PatchedQuestionUpdateRequest: every member optional; `answers` (beyond the published schema) replaces the answers. */
export class PatchedQuestionUpdateRequest {
  @Str({ min: 1, max: 64, nullable: true }) quiz?: string | null;
  @Str({ min: 1, max: 64, nullable: true }) quiz_question_bank?: string | null;
  @Str({ min: 1, max: 1_000_000 }) html?: string;
  @Choice(QUESTION_TYPES) type?: string;
  @Bool() requires_manual_grading?: boolean;
  @Bool() case_sensitive?: boolean;
  @Str({ max: 1_000_000 }) correct_answer_feedback_html?: string;
  @Str({ max: 1_000_000 }) incorrect_answer_feedback_html?: string;
  @Present() @ObjectList(() => AnswerRequest, MAX_ANSWERS) answers?: AnswerRequest[];
}

/** QuestionUpdateRequest (PUT) and QuestionRequest (POST): `html` and `type` required. */
export class QuestionUpdateRequest extends PatchedQuestionUpdateRequest {}
requireMembers(QuestionUpdateRequest, ['html', 'type']);
export class QuestionRequest extends PatchedQuestionUpdateRequest {}
requireMembers(QuestionRequest, ['html', 'type']);
