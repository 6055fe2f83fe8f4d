import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import type { TestApp } from '../support/app';
import { journey } from '../support/learner-journey';

/** Fixtures of the graded-attempt tests, made through the API alone. */

export function ok<T = any>(res: { status: number; body: any }, what: string): T {
  if (res.status !== 200 && res.status !== 201 && res.status !== 204) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

export const MC = { html: '<p>2 + 2?</p>', type: 'MULTIPLE_CHOICE', answers: [{ answer_text: '4', correct: true }, { answer_text: '5' }, { answer_text: '22' }] };
export const MA = { html: '<p>Even?</p>', type: 'MULTIPLE_ANSWER', answers: [{ answer_text: '2', correct: true }, { answer_text: '3' }, { answer_text: '4', correct: true }] };
export const FITB = { html: '<p>Capital of France?</p>', type: 'FILL_IN_THE_BLANK', answers: [{ answer_text: 'Paris' }, { answer_text: 'Lutetia' }] };
export const FREE = { html: '<p>Why?</p>', type: 'FREEFORM' };

export interface Question {
  id: string;
  type: string;
  answers: { id: string; answer_text: string; correct: boolean }[];
}

/** A quiz with the given settings and questions (its own), through /v1. */
export async function makeQuiz(t: TestApp, org: CreatedOrg, settings: Record<string, unknown>, questions: Record<string, unknown>[]) {
  const key = { basic: org.api_key };
  const quiz = ok(await t.post('/v1/quizzes', { name: `Quiz ${Math.random().toString(36).slice(2)}`, ...settings }, key), 'quiz');
  const qs: Question[] = [];
  for (const q of questions) qs.push(ok(await t.post('/v1/quiz-questions', { ...q, quiz: quiz.id }, key), 'question'));
  return { id: quiz.id as string, questions: qs };
}

/** A published course whose lessons are `before` HTML lessons then a QUIZ lesson linking `quizId`; a learner enrolled in it. */
export async function quizCourse(t: TestApp, org: CreatedOrg, quizId: string, opts: { otherLessons?: number; enroll?: boolean } = {}) {
  const key = { basic: org.api_key };
  const j = journey(t, org);
  const lessons = [...Array.from({ length: opts.otherLessons ?? 0 }, () => ({})), { type: 'QUIZ', title: 'The quiz' }];
  const c = await j.course(lessons);
  const quizLesson = c.lessonIds[c.lessonIds.length - 1];
  ok(await t.patch(`/v1/lessons/${quizLesson}`, { content_quiz_id: quizId }, key), 'link quiz');
  const learner = await j.learner();
  if (opts.enroll !== false) await j.enroll(learner.id, c.publishedCourseId);
  return { ...c, quizLesson, learner, j };
}

/** The correct answer of a question, as an attempt sends it. */
export function right(q: Question): Record<string, unknown> {
  if (q.type === 'FILL_IN_THE_BLANK') return { question_id: q.id, text: q.answers[0].answer_text };
  if (q.type === 'FREEFORM') return { question_id: q.id, text: 'Because.' };
  return { question_id: q.id, answer_ids: q.answers.filter((a) => a.correct).map((a) => a.id) };
}

/** A wrong answer of an auto-graded question. */
export function wrong(q: Question): Record<string, unknown> {
  if (q.type === 'FILL_IN_THE_BLANK') return { question_id: q.id, text: 'Berlin' };
  return { question_id: q.id, answer_ids: [q.answers.find((a) => !a.correct)!.id] };
}
