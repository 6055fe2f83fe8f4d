import { iso } from '../../core/http/v1-rules';
import { encodeId } from '../../core/ids/ids';
import type { AttemptRow } from './attempts.service';
import type { QuizRow } from './quiz-model';

/**
 * A graded attempt as a learner may see it (docs/decisions/quizzes.md "Graded attempts"): the
 * score, the result and, only when the quiz shows question feedback (and, for a failed attempt,
 * shows results on failure), each drawn question's correct flag with its feedback. Never the
 * answer key: no correct answer ids or texts, no stored responses.
 */
const nullable = (type: string, more: object = {}) => ({ type, nullable: true, ...more });
const ATTEMPT_PROPERTIES = {
  id: { type: 'string' },
  quiz_id: { type: 'string' },
  user: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
  published_course_id: { type: 'string' },
  lesson_id: { type: 'string' },
  attempt_number: { type: 'integer' },
  status: { type: 'string' },
  score: nullable('number'),
  max_score: nullable('number'),
  percentage_correct: nullable('number'),
  passed: nullable('boolean'),
  submitted_at: nullable('string', { format: 'date-time' }),
  created_at: { type: 'string', format: 'date-time' },
  questions: {
    type: 'array',
    nullable: true,
    description: 'per question, whether it was answered correctly (and on submission its feedback), when the quiz shows question feedback',
    items: { type: 'object', required: ['question_id', 'correct'], properties: { question_id: { type: 'string' }, correct: nullable('boolean'), feedback_html: nullable('string') } },
  },
};
const ATTEMPT_REQUIRED = Object.keys(ATTEMPT_PROPERTIES);

/** What presentAttempt answers in a list (declared for the OpenAPI document). */
export const ATTEMPT_SCHEMA = { type: 'object', required: ATTEMPT_REQUIRED, properties: ATTEMPT_PROPERTIES };
/** What presentAttempt answers to a submission: with `attempts_remaining` (null: no limit). */
export const SUBMITTED_ATTEMPT_SCHEMA = { type: 'object', required: [...ATTEMPT_REQUIRED, 'attempts_remaining'], properties: { ...ATTEMPT_PROPERTIES, attempts_remaining: nullable('integer') } };

export function presentAttempt(a: AttemptRow, quiz: QuizRow, feedback?: Map<string, string>, withRemaining = false) {
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
    ...(withRemaining ? { attempts_remaining: quiz.max_attempts > 0 ? Math.max(0, quiz.max_attempts - a.attempt_number) : null } : {}),
    submitted_at: iso(a.submitted_at),
    created_at: iso(a.created_at),
    questions: showResults
      ? a.questions.map((q) => ({
          question_id: encodeId('question', q.id),
          correct: q.correct,
          ...(feedback ? { feedback_html: feedback.get(q.id) || null } : {}),
        }))
      : null,
  };
}
