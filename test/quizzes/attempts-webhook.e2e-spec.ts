import { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '../../src/core/config/config';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { dropRedisPrefix, Receiver, startReceiver, verifyStandardWebhook } from '../support/webhook-receiver';
import { FITB, MC, makeQuiz, quizCourse, right, wrong } from './attempts-support';

jest.setTimeout(60_000);

/**
 * A quiz authored, attached to a lesson, attempted and passed through the API alone, with a real
 * worker delivering to a local receiver: QUIZ_COMPLETION for each graded attempt (failed, then
 * passed), then the lesson's and the course's completions, each once and signed.
 */
describe('graded attempts end to end, with QUIZ_COMPLETION delivered', () => {
  let t: TestApp;
  let worker: INestApplicationContext | null = null;
  let r: Receiver;

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true });
    r = await startReceiver();
  });
  afterAll(async () => {
    await worker?.close();
    await r.close();
    await t.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
  });

  it('fail, then pass: two QUIZ_COMPLETION, one LESSON_COMPLETION and one COURSE_COMPLETION, signed', async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const hook = await t.post('/v1/webhooks', { target_url: r.url }, key);
    expect(hook.status).toBe(201);
    const quiz = await makeQuiz(t, org, { name: 'Safety basics', passing_percentage_correct: 100 }, [MC, FITB]);
    const c = await quizCourse(t, org, quiz.id);
    const body = (answers: unknown[]) => ({ user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers });
    const failed = await t.post(`/v1/quizzes/${quiz.id}/attempts`, body([right(quiz.questions[0]), wrong(quiz.questions[1])]), key);
    expect(failed.body).toMatchObject({ passed: false, percentage_correct: 50 });
    const passed = await t.post(`/v1/quizzes/${quiz.id}/attempts`, body(quiz.questions.map(right)), key);
    expect(passed.body).toMatchObject({ passed: true, percentage_correct: 100 });

    worker = await createWorker(loadConfig(process.env, { ...t.config, WEBHOOK_RELAY_INTERVAL_MS: 100, WEBHOOK_RETRY_SCALE: 0.001 }));
    await worker.init();
    // DOMAIN_ENROLLMENT, COURSE_ENROLLMENT, 2 x QUIZ_COMPLETION, LESSON_COMPLETION, COURSE_COMPLETION
    const got = await r.waitFor(6, 30_000);
    await new Promise((res) => setTimeout(res, 500)); // nothing more arrives
    expect(r.received).toHaveLength(6);
    for (const g of got) expect(verifyStandardWebhook(hook.body.secret, g.headers, g.body)).toBe(true);
    const bodies = got.map((g) => JSON.parse(g.body));
    expect(bodies.map((b) => b.event_type).sort()).toEqual(['COURSE_COMPLETION', 'COURSE_ENROLLMENT', 'DOMAIN_ENROLLMENT', 'LESSON_COMPLETION', 'QUIZ_COMPLETION', 'QUIZ_COMPLETION']);
    const quizEvents = bodies.filter((b) => b.event_type === 'QUIZ_COMPLETION').sort((a, b) => a.attempt.attempt_number - b.attempt.attempt_number);
    const common = {
      user: { id: c.learner.id, email: c.learner.email, first_name: 'Ada', last_name: 'Lovelace' },
      course: { id: c.courseId, published_course_id: c.publishedCourseId, url: expect.stringContaining(org.domain_name) },
      domain: { name: org.domain_name },
      domain_access_code: null,
      signup_fields: {},
    };
    expect(quizEvents[0]).toMatchObject({
      ...common,
      quiz: { id: quiz.id, name: 'Safety basics', score: 50, passed: false },
      attempt: { id: failed.body.id, attempt_number: 1 },
      success_status: 'FAILED',
      score: 50,
      completed_at: failed.body.submitted_at,
    });
    expect(quizEvents[1]).toMatchObject({
      ...common,
      quiz: { id: quiz.id, score: 100, passed: true },
      attempt: { id: passed.body.id, attempt_number: 2 },
      success_status: 'PASSED',
      score: 100,
      completed_at: passed.body.submitted_at,
    });
    // the answer key is not in the events either
    const text = JSON.stringify(quizEvents);
    for (const q of quiz.questions) for (const a of q.answers) expect(text).not.toContain(a.id);
    expect(bodies.find((b) => b.event_type === 'LESSON_COMPLETION')).toMatchObject({ lesson: { id: c.quizLesson }, success_status: 'PASSED', score: 2 });
    expect(bodies.find((b) => b.event_type === 'COURSE_COMPLETION')).toMatchObject({ user: { id: c.learner.id }, completed_at: passed.body.submitted_at });
  });
});
