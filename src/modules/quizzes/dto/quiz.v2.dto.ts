import { IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { ObjectList } from '../../../core/http/array-rules';
import { Attributes, Rules } from '../../../core/http/rules';
import { Closed } from '../../../core/http/closed';
import { ALIGNMENTS, INT32_MAX, MAX_TIME_LIMIT_SECONDS, QUESTION_TYPES } from '../quiz-model';
import { MAX_ANSWERS } from './quiz.v1.dto';

/** PostgreSQL text cannot hold NUL characters. */
const NO_NUL = /^[^\u0000]*$/;
const Text = (max = 1_000_000) => Rules(IsString(), MaxLength(max), Matches(NO_NUL, { message: 'must not contain NUL characters' }));
const Name = () => Rules(IsString(), MinLength(1), MaxLength(500), Matches(/\S/, { message: 'must not be blank' }), Matches(NO_NUL, { message: 'must not contain NUL characters' }));
/** Present means not null (non-nullable members): validated whenever sent. */
const Sent = (key: string) => ValidateIf((o) => o[key] !== undefined);
const Count = (max = INT32_MAX) => Rules(IsInt(), Min(0), Max(max));

/** The members of QuizCreateRequest and QuizUpdateRequest besides `name`, each optional. */
class QuizOptionalAttributes {
  @Sent('description_html') @Text() description_html?: string;
  @Sent('passing_percentage_correct') @Count(100) passing_percentage_correct?: number;
  @Sent('max_attempts') @Count() max_attempts?: number;
  @Sent('require_correct_response') @IsBoolean() require_correct_response?: boolean;
  @Sent('randomize_questions') @IsBoolean() randomize_questions?: boolean;
  @Sent('limit_question_count') @Count() limit_question_count?: number;
  @Sent('randomize_answers') @IsBoolean() randomize_answers?: boolean;
  @Sent('show_results_on_failure') @IsBoolean() show_results_on_failure?: boolean;
  @Sent('show_question_feedback') @IsBoolean() show_question_feedback?: boolean;
  @IsOptional() @Count(MAX_TIME_LIMIT_SECONDS) time_limit_seconds?: number | null;
  @IsOptional() @IsBoolean() skip_start_screen?: boolean | null;
  @Sent('alignment') @IsIn(ALIGNMENTS) alignment?: string;
}
export const QUIZ_V2_MEMBERS = [
  'name',
  'description_html',
  'passing_percentage_correct',
  'max_attempts',
  'require_correct_response',
  'randomize_questions',
  'limit_question_count',
  'randomize_answers',
  'show_results_on_failure',
  'show_question_feedback',
  'time_limit_seconds',
  'skip_start_screen',
  'alignment',
];

/** QuizUpdateRequest (additionalProperties: false). */
@Closed()
export class QuizUpdateAttributes extends QuizOptionalAttributes {
  @Sent('name') @Name() name?: string;
}

/** QuizCreateRequest (additionalProperties: false). */
@Closed()
export class QuizCreateAttributes extends QuizOptionalAttributes {
  @IsDefined() @Name() name: string;
}

export class QuizCreateItem {
  @Attributes(() => QuizCreateAttributes) attributes: QuizCreateAttributes;
}

export class QuizUpdateItem {
  /** Any string: an id that does not decode is that item's not_found (v2-api.md rule 4). */
  @IsString() id: string;
  @Attributes(() => QuizUpdateAttributes) attributes: QuizUpdateAttributes;
}

export class IdItem {
  @IsString() id: string;
}

/** QuestionBankUpdateRequest (additionalProperties: false). */
@Closed()
export class BankUpdateAttributes {
  @Sent('name') @Name() name?: string;
}
/** QuestionBankCreateRequest (additionalProperties: false). */
@Closed()
export class BankCreateAttributes {
  @IsDefined() @Name() name: string;
}
export class BankCreateItem {
  @Attributes(() => BankCreateAttributes) attributes: BankCreateAttributes;
}
export class BankUpdateItem {
  @IsString() id: string;
  @Attributes(() => BankUpdateAttributes) attributes: BankUpdateAttributes;
}

/** AnswerCreateRequest (additionalProperties: false: an answer's `order` is its position, never sent). */
@Closed()
export class AnswerCreateAttributes {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(1000) @Matches(NO_NUL, { message: 'must not contain NUL characters' }) answer_text: string;
  @Sent('correct') @IsBoolean() correct?: boolean;
}

/** QuestionCreateRequest (additionalProperties: false). */
@Closed()
export class QuestionCreateAttributes {
  @IsOptional() @IsString() quiz_id?: string | null;
  @IsOptional() @IsString() question_bank_id?: string | null;
  @IsDefined() @IsString() @Matches(/\S/, { message: 'must not be blank' }) @Text() question_html: string;
  @IsDefined() @IsIn(QUESTION_TYPES) question_type: string;
  @Sent('case_sensitive') @IsBoolean() case_sensitive?: boolean;
  @Sent('requires_manual_grading') @IsBoolean() requires_manual_grading?: boolean;
  @Sent('correct_answer_feedback_html') @Text() correct_answer_feedback_html?: string;
  @Sent('incorrect_answer_feedback_html') @Text() incorrect_answer_feedback_html?: string;
  @Sent('answers') @ObjectList(() => AnswerCreateAttributes, MAX_ANSWERS) answers?: AnswerCreateAttributes[];
}
export const QUESTION_CREATE_MEMBERS = [
  'quiz_id',
  'question_bank_id',
  'question_html',
  'question_type',
  'case_sensitive',
  'requires_manual_grading',
  'correct_answer_feedback_html',
  'incorrect_answer_feedback_html',
  'answers',
];

/** QuestionUpdateRequest (additionalProperties: false): question members only (answers, type, parent and order are read-only). */
@Closed()
export class QuestionUpdateAttributes {
  @Sent('question_html') @IsString() @Matches(/\S/, { message: 'must not be blank' }) @Text() question_html?: string;
  @Sent('correct_answer_feedback_html') @Text() correct_answer_feedback_html?: string;
  @Sent('incorrect_answer_feedback_html') @Text() incorrect_answer_feedback_html?: string;
  @Sent('answer_feedback_html') @Text() answer_feedback_html?: string;
  @Sent('case_sensitive') @IsBoolean() case_sensitive?: boolean;
  @Sent('requires_manual_grading') @IsBoolean() requires_manual_grading?: boolean;
  @Sent('is_graded') @IsBoolean() is_graded?: boolean;
  @Sent('is_optional') @IsBoolean() is_optional?: boolean;
}
export const QUESTION_UPDATE_MEMBERS = [
  'question_html',
  'correct_answer_feedback_html',
  'incorrect_answer_feedback_html',
  'answer_feedback_html',
  'case_sensitive',
  'requires_manual_grading',
  'is_graded',
  'is_optional',
];

export class QuestionCreateItem {
  @Attributes(() => QuestionCreateAttributes) attributes: QuestionCreateAttributes;
}
export class QuestionUpdateItem {
  @IsString() id: string;
  @Attributes(() => QuestionUpdateAttributes) attributes: QuestionUpdateAttributes;
}

/** QuestionBankAssignmentBindRequest (additionalProperties: false). */
@Closed()
export class AssignmentAttributes {
  @IsDefined() @IsString() question_bank_id: string;
  @IsOptional() @Count() order?: number | null;
  @Sent('randomize_questions') @IsBoolean() randomize_questions?: boolean;
  @Sent('limit_question_count') @Count() limit_question_count?: number;
}
/** QuestionBankAssignmentUpdateRequest (additionalProperties: false). */
@Closed()
export class AssignmentUpdateAttributes extends AssignmentAttributes {
  @Sent('order') @Count() declare order?: number;
}
/** The unbind item's attributes (_QuestionBankAssignmentDeleteData: open). */
export class AssignmentKeyAttributes {
  @IsDefined() @IsString() question_bank_id: string;
}
export const ASSIGNMENT_MEMBERS = ['question_bank_id', 'order', 'randomize_questions', 'limit_question_count'];

export class AssignmentBindItem {
  @Attributes(() => AssignmentAttributes) attributes: AssignmentAttributes;
}
export class AssignmentUpdateItem {
  @Attributes(() => AssignmentUpdateAttributes) attributes: AssignmentUpdateAttributes;
}
export class AssignmentUnbindItem {
  @Attributes(() => AssignmentKeyAttributes) attributes: AssignmentKeyAttributes;
}
