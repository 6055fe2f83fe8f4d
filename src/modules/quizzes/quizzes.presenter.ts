import { Type, type Static } from '@sinclair/typebox';
import { v2Resource } from '../../core/http/v2-resource-kit';
import { DateTime, declaredV1, declaredV2, nullable, PublicId, StringEnum, V2ResourceSchema, V2UnlinkedResourceSchema } from '../../core/openapi/declared-shape';
import { omitEmpty } from '../../core/http/optional-members';
import { encodeId } from '../../core/ids/ids';
import { uuidV5 } from '../../core/ids/uuid-v5';
import { ALIGNMENTS, type AssignmentRow, type QuestionBankRow, type QuestionRow, type QuizRow, type StoredAnswer } from './quiz-model';

/** The /v1 and /v2 shapes of the quiz model (published Quiz, QuestionBank, Question, QuestionSummary, QuestionBankAssignment; /v2 *Resource). */

const NAMESPACE = uuidV5('6ba7b811-9dad-11d1-80b4-00c04fd430c8', 'https://course-platform.invalid/external-id');
/** external_id: a stable UUID5 of the object's kind and uuid (as courses and lessons derive theirs). */
const externalId = (kind: string, uuid: string) => uuidV5(NAMESPACE, `${kind}:${uuid}`);
const iso = (d: Date) => new Date(d).toISOString();

/** The published /v1 Answer of a question. */
const AnswerSchema = Type.Object({ id: PublicId(), answer_text: Type.String(), correct: Type.Boolean(), order: Type.Integer() });

const answersOf = (answers: StoredAnswer[]): Static<typeof AnswerSchema>[] =>
  [...answers].sort((a, b) => a.order - b.order).map((a) => ({ id: encodeId('answer', a.id), answer_text: a.answer_text, correct: a.correct, order: a.order }));

/* ---------------------------------------------------------------------- /v1 */

/** The published /v1 shapes, declared once (core/openapi/declared-shape.ts). */
export const QuizV1Schema = declaredV1(
  'Quiz',
  Type.Object({
    id: PublicId(),
    name: Type.String(),
    html: Type.String(),
    passing_percentage_correct: Type.Integer(),
    show_results_on_failure: Type.Boolean(),
    max_attempts: Type.Integer(),
    require_correct_response: Type.Boolean(),
    randomize_questions: Type.Boolean(),
    limit_question_count: Type.Integer(),
    randomize_answers: Type.Boolean(),
    time_limit_seconds: nullable(Type.Integer()),
    show_question_feedback: Type.Boolean(),
    alignment: Type.String(),
  }),
);

export const QuestionBankV1Schema = declaredV1('QuestionBank', Type.Object({ id: PublicId(), name: Type.String(), question_count: Type.Integer(), quiz_association_count: Type.Integer() }));

/** Question and QuestionUpdate: the parent it does not have is left out (optional, not nullable). */
export const QuestionV1Schema = declaredV1(
  ['Question', 'QuestionUpdate'],
  Type.Object({
    id: PublicId(),
    quiz: Type.Optional(PublicId()),
    quiz_question_bank: Type.Optional(PublicId()),
    html: Type.String(),
    type: Type.String(),
    requires_manual_grading: Type.Boolean(),
    case_sensitive: Type.Boolean(),
    correct_answer_feedback_html: Type.String(),
    incorrect_answer_feedback_html: Type.String(),
    answers: Type.Array(AnswerSchema),
  }),
);

export const QuestionSummaryV1Schema = declaredV1(
  'QuestionSummary',
  Type.Object({
    id: PublicId(),
    html: Type.String(),
    case_sensitive: Type.Boolean(),
    requires_manual_grading: Type.Boolean(),
    correct_answer_feedback_html: Type.String(),
    incorrect_answer_feedback_html: Type.String(),
    answer_feedback_html: Type.String(),
    is_graded: Type.Boolean(),
    is_optional: Type.Boolean(),
    type: Type.String(),
    order: Type.Integer(),
    answers: Type.Array(AnswerSchema),
  }),
);

export const QuestionBankAssignmentV1Schema = declaredV1(
  'QuestionBankAssignment',
  Type.Object({
    id: PublicId(),
    name: Type.String(),
    order: Type.Integer(),
    randomize_questions: Type.Boolean(),
    limit_question_count: Type.Integer(),
    question_count: Type.Integer(),
    quiz_association_count: Type.Integer(),
  }),
);

export function presentQuizV1(q: QuizRow): Static<typeof QuizV1Schema> {
  return {
    id: encodeId('quiz', q.id),
    name: q.name,
    html: q.html,
    passing_percentage_correct: q.passing_percentage_correct,
    show_results_on_failure: q.show_results_on_failure,
    max_attempts: q.max_attempts,
    require_correct_response: q.require_correct_response,
    randomize_questions: q.randomize_questions,
    limit_question_count: q.limit_question_count,
    randomize_answers: q.randomize_answers,
    time_limit_seconds: q.time_limit_seconds,
    show_question_feedback: q.show_question_feedback,
    alignment: q.alignment,
  };
}

export function presentBankV1(b: QuestionBankRow): Static<typeof QuestionBankV1Schema> {
  return { id: encodeId('questionBank', b.id), name: b.name, question_count: b.question_count, quiz_association_count: b.quiz_association_count };
}

/** Question (quiz-questions create, read). */
export function presentQuestionV1(x: QuestionRow): Static<typeof QuestionV1Schema> {
  // the parent it does not have is left out (optional, not nullable in the published Question)
  return omitEmpty(
    {
      id: encodeId('question', x.id),
      quiz: x.quiz_id ? encodeId('quiz', x.quiz_id) : null,
      quiz_question_bank: x.question_bank_id ? encodeId('questionBank', x.question_bank_id) : null,
      html: x.html,
      type: x.type,
      requires_manual_grading: x.requires_manual_grading,
      case_sensitive: x.case_sensitive,
      correct_answer_feedback_html: x.correct_answer_feedback_html,
      incorrect_answer_feedback_html: x.incorrect_answer_feedback_html,
      answers: answersOf(x.answers),
    },
    ['quiz', 'quiz_question_bank'],
  );
}

/** QuestionSummary (a quiz's or bank's questions). */
export function presentQuestionSummaryV1(x: QuestionRow): Static<typeof QuestionSummaryV1Schema> {
  return {
    id: encodeId('question', x.id),
    html: x.html,
    case_sensitive: x.case_sensitive,
    requires_manual_grading: x.requires_manual_grading,
    correct_answer_feedback_html: x.correct_answer_feedback_html,
    incorrect_answer_feedback_html: x.incorrect_answer_feedback_html,
    answer_feedback_html: x.answer_feedback_html,
    is_graded: x.is_graded,
    is_optional: x.is_optional,
    type: x.type,
    order: x.order,
    answers: answersOf(x.answers),
  };
}

/** QuestionBankAssignment: the bank (its id) as bound to the quiz. */
export function presentAssignmentV1(a: AssignmentRow): Static<typeof QuestionBankAssignmentV1Schema> {
  return {
    id: encodeId('questionBank', a.question_bank_id),
    name: a.name,
    order: a.order,
    randomize_questions: a.randomize_questions,
    limit_question_count: a.limit_question_count,
    question_count: a.question_count,
    quiz_association_count: a.quiz_association_count,
  };
}

/* ---------------------------------------------------------------------- /v2 */

/**
 * The /v2 resources of the quiz model (QuizResource, QuestionBankResource, QuestionResource,
 * QuestionBankAssignmentResource of the published document), declared once
 * (core/openapi/declared-shape.ts): the types of the presenters below.
 */
export const QuizResourceSchema = declaredV2(
  'QuizResource',
  V2ResourceSchema(
    'quizzes',
    Type.Object({
      name: Type.String(),
      description_html: Type.String(),
      passing_percentage_correct: Type.Integer(),
      max_attempts: Type.Integer(),
      require_correct_response: Type.Boolean(),
      randomize_questions: Type.Boolean(),
      limit_question_count: Type.Integer(),
      randomize_answers: Type.Boolean(),
      show_results_on_failure: Type.Boolean(),
      show_question_feedback: Type.Boolean(),
      time_limit_seconds: nullable(Type.Integer()),
      skip_start_screen: nullable(Type.Boolean()),
      alignment: StringEnum(ALIGNMENTS),
      external_id: Type.String(),
      created_at: DateTime(),
      modified_at: DateTime(),
    }),
    { description: 'A quiz (QuizResource).' },
  ),
);
export type QuizResource = Static<typeof QuizResourceSchema>;

export const QuestionBankResourceSchema = declaredV2(
  'QuestionBankResource',
  V2ResourceSchema('question-banks', Type.Object({ name: Type.String(), external_id: Type.String(), created_at: DateTime(), modified_at: DateTime() }), {
    description: 'A question bank (QuestionBankResource).',
  }),
);
export type QuestionBankResource = Static<typeof QuestionBankResourceSchema>;

export const QuestionResourceSchema = declaredV2(
  'QuestionResource',
  V2ResourceSchema(
    'questions',
    Type.Object({
      question_html: Type.String(),
      order: Type.Integer(),
      question_type: Type.String(),
      case_sensitive: Type.Boolean(),
      requires_manual_grading: Type.Boolean(),
      is_graded: Type.Boolean(),
      is_optional: Type.Boolean(),
      correct_answer_feedback_html: Type.String(),
      incorrect_answer_feedback_html: Type.String(),
      answer_feedback_html: Type.String(),
      quiz_id: nullable(PublicId()),
      question_bank_id: nullable(PublicId()),
      external_id: Type.String(),
      created_at: DateTime(),
      modified_at: DateTime(),
      answers: Type.Array(AnswerSchema),
    }),
    { description: 'A question (QuestionResource).' },
  ),
);
export type QuestionResource = Static<typeof QuestionResourceSchema>;

export const QuestionBankAssignmentResourceSchema = declaredV2(
  'QuestionBankAssignmentResource',
  V2UnlinkedResourceSchema(
    'question-bank-assignments',
    Type.Object({
      question_bank_id: PublicId(),
      order: Type.Integer(),
      randomize_questions: Type.Boolean(),
      limit_question_count: Type.Integer(),
      created_at: DateTime(),
      modified_at: DateTime(),
    }),
    { description: 'A question bank bound to a quiz (QuestionBankAssignmentResource).' },
  ),
);
export type QuestionBankAssignmentResource = Static<typeof QuestionBankAssignmentResourceSchema>;

export function presentQuizV2(q: QuizRow, baseUrl: string): QuizResource {
  return v2Resource<'quizzes', QuizResource['attributes']>('quizzes', 'quiz', q.id, baseUrl, {
    name: q.name,
    description_html: q.html,
    passing_percentage_correct: q.passing_percentage_correct,
    max_attempts: q.max_attempts,
    require_correct_response: q.require_correct_response,
    randomize_questions: q.randomize_questions,
    limit_question_count: q.limit_question_count,
    randomize_answers: q.randomize_answers,
    show_results_on_failure: q.show_results_on_failure,
    show_question_feedback: q.show_question_feedback,
    time_limit_seconds: q.time_limit_seconds,
    skip_start_screen: q.skip_start_screen,
    alignment: q.alignment,
    external_id: externalId('quiz', q.id),
    created_at: iso(q.created_at),
    modified_at: iso(q.updated_at),
  });
}

export function presentBankV2(b: QuestionBankRow, baseUrl: string): QuestionBankResource {
  return v2Resource<'question-banks', QuestionBankResource['attributes']>('question-banks', 'questionBank', b.id, baseUrl, {
    name: b.name,
    external_id: externalId('question-bank', b.id),
    created_at: iso(b.created_at),
    modified_at: iso(b.updated_at),
  });
}

export function presentQuestionV2(x: QuestionRow, baseUrl: string): QuestionResource {
  return v2Resource<'questions', QuestionResource['attributes']>('questions', 'question', x.id, baseUrl, {
    question_html: x.html,
    order: x.order,
    question_type: x.type,
    case_sensitive: x.case_sensitive,
    requires_manual_grading: x.requires_manual_grading,
    is_graded: x.is_graded,
    is_optional: x.is_optional,
    correct_answer_feedback_html: x.correct_answer_feedback_html,
    incorrect_answer_feedback_html: x.incorrect_answer_feedback_html,
    answer_feedback_html: x.answer_feedback_html,
    quiz_id: x.quiz_id ? encodeId('quiz', x.quiz_id) : null,
    question_bank_id: x.question_bank_id ? encodeId('questionBank', x.question_bank_id) : null,
    external_id: externalId('question', x.id),
    created_at: iso(x.created_at),
    modified_at: iso(x.updated_at),
    answers: answersOf(x.answers),
  });
}

export function presentAssignmentV2(a: AssignmentRow): QuestionBankAssignmentResource {
  return {
    type: 'question-bank-assignments',
    id: encodeId('questionBankAssignment', a.id),
    attributes: {
      question_bank_id: encodeId('questionBank', a.question_bank_id),
      order: a.order,
      randomize_questions: a.randomize_questions,
      limit_question_count: a.limit_question_count,
      created_at: iso(a.created_at),
      modified_at: iso(a.updated_at),
    },
  };
}
