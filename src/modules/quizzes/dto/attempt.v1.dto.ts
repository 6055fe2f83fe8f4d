import { Type } from 'class-transformer';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, ValidateNested } from 'class-validator';
import { ObjectList } from '../../../core/http/array-rules';
import { Filter, PageParam, Present, Required, Str, StrList, V1Obj, V1Str } from '../../../core/http/v1-rules';

/** The most answers one attempt carries (a bound for the request: more than any quiz asks). */
export const MAX_ATTEMPT_ANSWERS = 1000;
/** The longest text answer (fill in the blank, freeform). */
export const MAX_ANSWER_TEXT = 100_000;

export class AttemptUserRef {
  @V1Str({ required: true, min: 1, max: 64 }) id: string;
}

/**
 * One answer: the question and either the chosen answers (`answer_ids`: multiple choice, multiple
 * answer) or a `text` (fill in the blank, freeform). Which one a question takes is checked against
 * the question by the service.
 */
export class AttemptAnswerRequest {
  @V1Str({ required: true, min: 1, max: 64 }) question_id: string;
  @Present() @StrList(64, 100) answer_ids?: string[];
  @Str({ max: MAX_ANSWER_TEXT }) text?: string;
}

/** POST /v1/quizzes/{quiz_id}/attempts (CONVENTIONS §12): `user {id}`, `published_course_id`, `answers`. */
export class AttemptRequest {
  @V1Obj({ required: true }) @ValidateNested() @Type(() => AttemptUserRef) user: AttemptUserRef;
  @V1Str({ required: true, min: 1, max: 64 }) published_course_id: string;
  @Required() @ObjectList(() => AttemptAnswerRequest, MAX_ATTEMPT_ANSWERS) answers: AttemptAnswerRequest[];
}

/** GET /v1/quizzes/{quiz_id}/attempts: `user_id` narrows to one learner; `updated_since` to the attempts submitted since (an attempt never changes). */
export class AttemptListQuery {
  @Filter() user_id?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'extension: changed at or after (RFC 3339 with an offset); the list is then ordered by last change' })
  @Allow()
  updated_since?: unknown;
  @PageParam() page?: unknown;
  @PageParam() page_size?: unknown;
}
