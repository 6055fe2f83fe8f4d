import { Type, type Static } from '@sinclair/typebox';
import { iso } from '../../core/http/v1-rules';
import { encodeId } from '../../core/ids/ids';
import { DateTime, nullable, PublicId, StringEnum } from '../../core/openapi/declared-shape';
import { ATTEMPT_STATUSES, type AttemptRow } from './quiz-attempts.store';
import type { QuizRow } from './quiz-model';

/**
 * A graded attempt as a learner may see it (docs/decisions/quizzes.md "Graded attempts"): the
 * score, the result and, only when the quiz shows question feedback (and, for a failed attempt,
 * shows results on failure), each drawn question's correct flag with its feedback. Never the
 * answer key: no correct answer ids or texts, no stored responses.
 */
export const AttemptQuestionSchema = Type.Object({
  question_id: PublicId(),
  correct: nullable(Type.Boolean({ description: 'null for a question not graded automatically (graded by hand)' })),
  feedback_html: Type.Optional(nullable(Type.String({ description: "The question's feedback for this answer (on submission only); null when it has none" }))),
});

const ATTEMPT_MEMBERS = {
  id: PublicId(),
  quiz_id: PublicId(),
  user: Type.Object({ id: PublicId() }),
  published_course_id: PublicId(),
  lesson_id: PublicId(),
  attempt_number: Type.Integer(),
  status: StringEnum(ATTEMPT_STATUSES),
  score: nullable(Type.Integer()),
  max_score: nullable(Type.Integer()),
  percentage_correct: nullable(Type.Integer()),
  passed: nullable(Type.Boolean()),
};
const ATTEMPT_TIMES_AND_QUESTIONS = {
  submitted_at: nullable(DateTime()),
  created_at: DateTime(),
  questions: nullable(
    Type.Array(AttemptQuestionSchema, {
      description: 'per question, whether it was answered correctly (and on submission its feedback), when the quiz shows question feedback',
    }),
  ),
};

/** An attempt as a quiz's attempt list answers it (extension, declared once: core/openapi/declared-shape.ts). */
export const AttemptSchema = Type.Object({ ...ATTEMPT_MEMBERS, ...ATTEMPT_TIMES_AND_QUESTIONS });
export type AttemptV1 = Static<typeof AttemptSchema>;

/** An attempt as its submission answers it: with `attempts_remaining` (null: no limit). */
export const SubmittedAttemptSchema = Type.Object({
  ...ATTEMPT_MEMBERS,
  attempts_remaining: nullable(Type.Integer({ minimum: 0, description: 'The attempts the learner has left; null when the quiz has no limit' })),
  ...ATTEMPT_TIMES_AND_QUESTIONS,
});
export type SubmittedAttemptV1 = Static<typeof SubmittedAttemptSchema>;

export function presentAttempt(a: AttemptRow, quiz: QuizRow, feedback?: Map<string, string>): AttemptV1 {
  const showResults = quiz.show_question_feedback && (a.passed === true || quiz.show_results_on_failure);
  return {
    id: encodeId('quizAttempt', a.id),
    quiz_id: encodeId('quiz', a.quiz_id),
    user: { id: encodeId('student', a.user_id) },
    published_course_id: encodeId('publishedCourse', a.published_course_id),
    lesson_id: encodeId('lesson', a.lesson_id),
    attempt_number: a.attempt_number,
    status: a.status,
    score: a.score,
    max_score: a.max_score,
    percentage_correct: a.percentage_correct,
    passed: a.passed,
    submitted_at: iso(a.submitted_at),
    created_at: new Date(a.created_at).toISOString(),
    questions: showResults
      ? a.questions.map((q) => ({
          question_id: encodeId('question', q.id),
          correct: q.correct,
          ...(feedback ? { feedback_html: feedback.get(q.id) || null } : {}),
        }))
      : null,
  };
}

/** A submitted attempt: the attempt with the attempts the learner has left (after `passed`, as before). */
export function presentSubmittedAttempt(a: AttemptRow, quiz: QuizRow, feedback: Map<string, string>): SubmittedAttemptV1 {
  const { submitted_at, created_at, questions, ...head } = presentAttempt(a, quiz, feedback);
  return { ...head, attempts_remaining: quiz.max_attempts > 0 ? Math.max(0, quiz.max_attempts - a.attempt_number) : null, submitted_at, created_at, questions };
}
