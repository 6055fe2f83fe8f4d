import { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '../../src/core/config/config';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { journey } from '../support/learner-journey';
import { dropRedisPrefix, Receiver, startReceiver, verifyStandardWebhook } from '../support/webhook-receiver';

jest.setTimeout(60_000);

/**
 * The whole learner journey through the API alone, with a real worker delivering to a local
 * receiver: enroll, complete the lessons, the course completes, a certificate appears, the path
 * completes, and the receiver gets each event once with a valid signature.
 */
describe('learner journey end to end, with webhook deliveries', () => {
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

  it('enroll, complete, certificate, path completion; each event delivered once, signed', async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const hook = await t.post('/v1/webhooks', { target_url: r.url }, key);
    expect(hook.status).toBe(201);
    const j = journey(t, org);
    const c = await j.course([{ title: 'A' }, { title: 'B' }]);
    const s = await j.learner();
    const pp = await j.path([c.publishedCourseId]);
    await j.enrollPath(s.id, pp.id);
    await j.enroll(s.id, c.publishedCourseId);
    for (const l of await j.lessons(s.id, c.publishedCourseId)) {
      const res = await t.patch(`/v1/lesson-progress/${l.lesson_progress.lesson_progress_id}`, { finished_at: '2026-07-01T00:00:00Z' }, key);
      expect(res.status).toBe(200);
    }
    const certs = await t.get(`/v2/certificates/?filter[student.id]=${s.id}`, { token: await t.tokenFor(org) });
    expect(certs.body.data).toHaveLength(1);
    const analytics = await t.get(`/v2/analytics/courses/${c.courseId}`, { token: await t.tokenFor(org) });
    expect(analytics.status).toBe(200);
    expect(analytics.body.data.attributes).toMatchObject({ enrollments: 1, completions: 1, in_progress: 0, completion_rate: 1, certificates_issued: 1 });

    worker = await createWorker(loadConfig(process.env, { ...t.config, WEBHOOK_RELAY_INTERVAL_MS: 100, WEBHOOK_RETRY_SCALE: 0.001 }));
    await worker.init();
    // DOMAIN_ENROLLMENT, PATH_ENROLLMENT, COURSE_ENROLLMENT, 2 x LESSON_COMPLETION, COURSE_COMPLETION, PATH_COMPLETION
    const got = await r.waitFor(7, 30_000);
    await new Promise((res) => setTimeout(res, 500)); // nothing more arrives (no duplicate)
    expect(r.received).toHaveLength(7);
    for (const g of got) expect(verifyStandardWebhook(hook.body.secret, g.headers, g.body)).toBe(true);
    const bodies = got.map((g) => JSON.parse(g.body));
    const types = bodies.map((b) => b.event_type).sort();
    expect(types).toEqual(['COURSE_COMPLETION', 'COURSE_ENROLLMENT', 'DOMAIN_ENROLLMENT', 'LESSON_COMPLETION', 'LESSON_COMPLETION', 'PATH_COMPLETION', 'PATH_ENROLLMENT']);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(7);
    const lessons = bodies
      .filter((b) => b.event_type === 'LESSON_COMPLETION')
      .map((b) => b.lesson.title)
      .sort();
    expect(lessons).toEqual(['A', 'B']);
    const course = bodies.find((b) => b.event_type === 'COURSE_COMPLETION');
    expect(course).toMatchObject({
      user: { id: s.id, email: s.email },
      course: { id: c.courseId, published_course_id: c.publishedCourseId },
      domain: { name: org.domain_name },
      signup_fields: {},
      domain_access_code: null,
    });
    expect(bodies.find((b) => b.event_type === 'PATH_COMPLETION')).toMatchObject({ user: { id: s.id }, path: { published_path_id: pp.id } });
  });
});
