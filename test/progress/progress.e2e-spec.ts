import { startTestApp, TestApp } from '../support/app';
import { countQueries, orgUuid } from '../support/fixtures';
import { journey } from '../support/learner-journey';
import { twoOrgs, TwoOrgs } from '../support/two-orgs';

/** Lesson progress, progress tokens, course completion, certificates and path completion (CONVENTIONS §10). */
describe('progress and completion', () => {
  let t: TestApp;
  let w: TwoOrgs;
  let j: ReturnType<typeof journey>;
  const key = () => ({ basic: w.a.api_key });
  const put = (path: string, body: unknown, opts = key()) => t.request('PUT', path, { ...opts, body });
  const events = async (type: string) =>
    (await t.ds.query(`SELECT payload FROM outbox_events WHERE organization_id = $1 AND event_type = $2 ORDER BY created_at, id`, [orgUuid(w.a), type])).map((r: any) => r.payload);

  beforeAll(async () => {
    t = await startTestApp();
    w = await twoOrgs(t);
    j = journey(t, w.a);
  });
  afterAll(() => t.close());

  it('a learner journey through the API: lessons complete, the course completes once, a certificate is issued, the path completes', async () => {
    const c = await j.course([{ title: 'One' }, { title: 'Two' }, { title: 'Extra', optional: true }], { title: 'Journey course' });
    const other = await j.course([{}]);
    const s = await j.learner();
    const enrollment = await j.enroll(s.id, c.publishedCourseId);
    await j.enroll(s.id, other.publishedCourseId);
    const pp = await j.path([c.publishedCourseId, other.publishedCourseId]);
    await j.enrollPath(s.id, pp.id);

    const start = await t.get(`/v1/users/${s.id}/published-courses/${c.publishedCourseId}`, key());
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({
      published_course_id: c.publishedCourseId,
      enrollment_id: enrollment.id,
      course: { id: c.courseId, title: 'Journey course', lesson_count: 3, required_lesson_count: 2 },
      course_progress: { course_progress_id: expect.stringMatching(/^[0-9a-z]+$/), completed_lesson_count: 0, completed_required_lesson_count: 0, completed_at: null },
      all_enrollments: [{ enrollment_id: enrollment.id, active: true, expires_at: null, course_progress_id: start.body.course_progress.course_progress_id }],
    });
    expect(start.body).not.toHaveProperty('certificate'); // left out without one (optional, not nullable where published)

    const lessons = await j.lessons(s.id, c.publishedCourseId);
    expect(lessons.map((l) => l.lesson.title)).toEqual(['One', 'Two', 'Extra']);
    const [one, two] = lessons.map((l) => l.lesson_progress.lesson_progress_id as string);

    // finished_at completes a lesson that needs no validation; LESSON_COMPLETION once
    const fin = await t.patch(`/v1/lesson-progress/${one}`, { finished_at: '2026-01-02T03:04:05Z', score: 8, max_score: 10, success_status: 'PASSED' }, key());
    expect(fin.status).toBe(200);
    expect(fin.body).toMatchObject({ id: one, finished_at: '2026-01-02T03:04:05.000Z', completed_at: '2026-01-02T03:04:05.000Z', score: 8, max_score: 10, view_count: 0 });
    expect(await events('LESSON_COMPLETION')).toHaveLength(1);
    expect((await put(`/v1/lesson-progress/${one}`, { finished_at: '2026-01-02T03:04:05Z' })).status).toBe(200);
    expect(await events('LESSON_COMPLETION')).toHaveLength(1);
    expect(await events('COURSE_COMPLETION')).toHaveLength(0);

    // the second required lesson reported through its progress token: a view, and the course completes
    const tokenOfTwo = (await t.get(`/v1/lesson-progress/${two}`, key())).body.progress_token_id as string;
    expect(tokenOfTwo).toMatch(/^[0-9a-z]+$/);
    expect(tokenOfTwo).not.toBe(two);
    const listed = (await t.get('/v1/progresstokens?page_size=100', key())).body.results as any[];
    expect(listed.map((x) => x.id)).toContain(tokenOfTwo);
    expect((await t.get(`/v1/progresstokens/${tokenOfTwo}`, key())).body).toEqual({ id: tokenOfTwo, completed_at: null, score: null, max_score: null });
    const before = await events('COURSE_COMPLETION');
    const viaToken = await put(`/v1/progresstokens/${tokenOfTwo}`, { completed_at: '2026-01-03T00:00:00Z', success_status: 'PASSED', score: 9, max_score: 10 });
    expect(viaToken.status).toBe(200);
    expect(viaToken.body).toEqual({ id: tokenOfTwo, completed_at: '2026-01-03T00:00:00.000Z', success_status: 'PASSED', score: 9, max_score: 10 });
    const afterTwo = (await t.get(`/v1/lesson-progress/${two}`, key())).body;
    expect(afterTwo).toMatchObject({ completed_at: '2026-01-03T00:00:00.000Z', view_count: 1, success_status: 'PASSED' });
    expect(afterTwo.last_viewed_on).not.toBeNull();

    const completions = await events('COURSE_COMPLETION');
    expect(completions).toHaveLength(before.length + 1);
    expect(completions[completions.length - 1]).toMatchObject({
      event_type: 'COURSE_COMPLETION',
      user: { id: s.id, email: s.email },
      course: { id: c.courseId, published_course_id: c.publishedCourseId, title: 'Journey course' },
      domain: { name: w.a.domain_name },
      success_status: 'PASSED',
      score: 17,
      domain_access_code: null,
      signup_fields: {},
    });
    const done = (await t.get(`/v1/users/${s.id}/published-courses/${c.publishedCourseId}`, key())).body;
    expect(done.course_progress).toMatchObject({
      completed_at: '2026-01-03T00:00:00.000Z',
      completed_lesson_count: 2,
      completed_required_lesson_count: 2,
      score: 17,
      max_score: 20,
      success_status: 'PASSED',
    });
    expect(done.certificate).toEqual({ code: expect.stringMatching(/^[A-Z2-9]{16}$/), validate_url: expect.any(String), issued_at: '2026-01-03T00:00:00.000Z', expires_at: null });

    // the certificate on /v2, the completion on the enrollment
    const certs = await t.get(`/v2/certificates/?filter[student.id]=${s.id}`, { token: w.tokenA });
    expect(certs.status).toBe(200);
    expect(certs.body.data).toHaveLength(1);
    expect(certs.body.data[0].attributes).toMatchObject({ code: done.certificate.code, score_as_percent: 85, expires_at: null });
    const enr = (await t.get(`/v1/domains/${w.a.domain_name}/published-courses/${c.publishedCourseId}/enrollments/${enrollment.id}`, key())).body;
    expect(enr.id).toBe(enrollment.id);

    // the path is not complete until its other course is
    expect(await events('PATH_COMPLETION')).toHaveLength(0);
    const otherLessons = await j.lessons(s.id, other.publishedCourseId);
    expect(
      (await t.patch(`/v1/users/${s.id}/published-courses/${other.publishedCourseId}/lessons/${otherLessons[0].lesson.id}`, { lesson_progress: { completed_at: '2026-02-01T00:00:00Z' } }, key()))
        .status,
    ).toBe(200);
    const paths = await events('PATH_COMPLETION');
    expect(paths).toHaveLength(1);
    expect(paths[0]).toMatchObject({ user: { id: s.id }, path: { published_path_id: pp.id }, domain: { name: w.a.domain_name } });
    // repeating emits nothing
    expect(
      (await t.patch(`/v1/users/${s.id}/published-courses/${other.publishedCourseId}/lessons/${otherLessons[0].lesson.id}`, { lesson_progress: { completed_at: '2026-02-01T00:00:00Z' } }, key()))
        .status,
    ).toBe(200);
    expect(await events('PATH_COMPLETION')).toHaveLength(1);
    expect(await events('COURSE_COMPLETION')).toHaveLength(before.length + 2);
  });

  it('on a lesson that needs no validation the validation members are ignored', async () => {
    const s = await j.learner();
    const plain = await j.course([{}]);
    await j.enroll(s.id, plain.publishedCourseId);
    const [l] = await j.lessons(s.id, plain.publishedCourseId);
    const r = await t.patch(`/v1/lesson-progress/${l.lesson_progress.lesson_progress_id}`, { validation_status: 'FAILED', validation_data: { a: 1 }, custom_data: 'c' }, key());
    expect(r.body).toMatchObject({ validation_status: null, validation_data: null, completed_at: null, custom_data: 'c' });
  });

  it('completed_at null un-completes a lesson; a course completion set directly, removed (certificate expired) and set again', async () => {
    const c = await j.course([{}, {}]);
    const s = await j.learner();
    await j.enroll(s.id, c.publishedCourseId);
    const [l1] = await j.lessons(s.id, c.publishedCourseId);
    const lp = l1.lesson_progress.lesson_progress_id;
    await t.patch(`/v1/lesson-progress/${lp}`, { finished_at: '2026-01-01T00:00:00Z' }, key());
    const undone = await t.patch(`/v1/lesson-progress/${lp}`, { completed_at: null }, key());
    expect(undone.body).toMatchObject({ finished_at: '2026-01-01T00:00:00.000Z', completed_at: null });

    const base = `/v1/users/${s.id}/published-courses/${c.publishedCourseId}`;
    expect((await put(base, {})).status).toBe(400); // PUT needs course_progress
    const set = await put(base, { course_progress: { completed_at: '2026-04-01T00:00:00Z', score: 3, max_score: 4 } });
    expect(set.status).toBe(200);
    expect(set.body.course_progress).toMatchObject({ completed_at: '2026-04-01T00:00:00.000Z', score: 3, max_score: 4 });
    const code = set.body.certificate.code;
    const removed = await t.patch(base, { course_progress: { completed_at: null } }, key());
    expect(removed.body.course_progress.completed_at).toBeNull();
    expect(new Date(removed.body.certificate.expires_at).getTime()).toBeLessThanOrEqual(Date.now());
    const expired = await t.get(`/v2/certificates/?filter[student.id]=${s.id}&filter[status]=expired`, { token: w.tokenA });
    expect(expired.body.data.map((x: any) => x.attributes.code)).toEqual([code]);
    const again = await t.patch(base, { course_progress: { completed_at: '2026-05-01T00:00:00Z' } }, key());
    expect(again.body.certificate.code).not.toBe(code);
    const mine = (await events('COURSE_COMPLETION')).filter((e: any) => e.user.id === s.id);
    expect(mine).toHaveLength(2);
  });

  it('completing two lessons at once completes the course exactly once (one event, one certificate)', async () => {
    const c = await j.course([{}, {}, {}]);
    const s = await j.learner();
    await j.enroll(s.id, c.publishedCourseId);
    const ids = (await j.lessons(s.id, c.publishedCourseId)).map((l) => l.lesson_progress.lesson_progress_id);
    const res = await Promise.all(ids.map((id) => t.patch(`/v1/lesson-progress/${id}`, { completed_at: '2026-06-01T00:00:00Z' }, key())));
    expect(res.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await events('COURSE_COMPLETION')).filter((e: any) => e.user.id === s.id)).toHaveLength(1);
    expect((await events('LESSON_COMPLETION')).filter((e: any) => e.user.id === s.id)).toHaveLength(3);
    const certs = await t.get(`/v2/certificates/?filter[student.id]=${s.id}`, { token: w.tokenA });
    expect(certs.body.data).toHaveLength(1);
  });

  it('progress kept per enrollment when the published course says so', async () => {
    const c = await j.course([{}], { published: { unique_progress_per_enrollment: true } });
    const s = await j.learner();
    const e1 = await j.enroll(s.id, c.publishedCourseId, { enrolled_at: '2025-01-01T00:00:00Z' });
    const first = (await t.get(`/v1/users/${s.id}/published-courses/${c.publishedCourseId}`, key())).body;
    const e2 = await j.enroll(s.id, c.publishedCourseId, { enrolled_at: '2025-06-01T00:00:00Z' });
    const second = (await t.get(`/v1/users/${s.id}/published-courses/${c.publishedCourseId}`, key())).body;
    expect(second.enrollment_id).toBe(e2.id);
    expect(second.course_progress.course_progress_id).not.toBe(first.course_progress.course_progress_id);
    expect(second.all_enrollments.map((x: any) => x.enrollment_id)).toEqual([e1.id, e2.id]);
    expect(new Set(second.all_enrollments.map((x: any) => x.course_progress_id)).size).toBe(2);
    // a shared progress otherwise
    const shared = await j.course([{}]);
    const f1 = await j.enroll(s.id, shared.publishedCourseId, { enrolled_at: '2025-01-01T00:00:00Z' });
    await j.enroll(s.id, shared.publishedCourseId, { enrolled_at: '2025-06-01T00:00:00Z' });
    const both = (await t.get(`/v1/users/${s.id}/published-courses/${shared.publishedCourseId}`, key())).body;
    expect(new Set(both.all_enrollments.map((x: any) => x.course_progress_id)).size).toBe(1);
    expect(both.all_enrollments[0].enrollment_id).toBe(f1.id);
  });

  it('bad input is a 400 in the /v1 envelope and changes nothing; unknown and foreign ids are 404', async () => {
    const c = await j.course([{}]);
    const s = await j.learner();
    await j.enroll(s.id, c.publishedCourseId);
    const [l] = await j.lessons(s.id, c.publishedCourseId);
    const id = l.lesson_progress.lesson_progress_id;
    for (const [body, field] of [
      [{ score: -1 }, 'score'],
      [{ score: 1.5 }, 'score'],
      [{ success_status: 'MAYBE' }, 'success_status'],
      [{ finished_at: 'yesterday' }, 'finished_at'],
      [{ completed_at: 12 }, 'completed_at'],
      [{ custom_data: 5 }, 'custom_data'],
    ] as const) {
      const r = await t.patch(`/v1/lesson-progress/${id}`, body, key());
      expect(r.status).toBe(400);
      expect(Object.keys(r.body)).toContain(field);
    }
    const after = (await t.get(`/v1/lesson-progress/${id}`, key())).body;
    expect(after).toMatchObject({ score: null, success_status: null, finished_at: null, completed_at: null, custom_data: null });
    expect((await t.patch(`/v1/users/${s.id}/published-courses/${c.publishedCourseId}`, { course_progress: { credits_earned: 'x'.repeat(21) } }, key())).status).toBe(400);

    // org B: every progress operation on org A's ids is 404, as for a random id
    const b = { basic: w.b.api_key };
    expect((await t.get(`/v1/lesson-progress/${id}`, b)).status).toBe(404);
    expect((await t.patch(`/v1/lesson-progress/${id}`, { completed_at: '2026-01-01T00:00:00Z' }, b)).status).toBe(404);
    expect((await t.get(`/v1/users/${s.id}/published-courses`, b)).status).toBe(404);
    expect((await t.get(`/v1/users/${s.id}/published-courses/${c.publishedCourseId}/lessons`, b)).status).toBe(404);
    expect((await t.patch(`/v1/users/${s.id}/published-courses/${c.publishedCourseId}`, { course_progress: { completed_at: '2026-01-01T00:00:00Z' } }, b)).status).toBe(404);
    expect((await t.get(`/v1/lesson-progress/${id}`, key())).body.completed_at).toBeNull();
    expect((await t.get('/v1/progresstokens', b)).body.count).toBe(0);
    expect((await t.get('/v1/lesson-progress/nonsense', key())).status).toBe(404);
    expect((await t.get('/v1/progresstokens/nonsense', key())).status).toBe(404);
  });

  it("a learner's published courses page runs a fixed number of statements, whatever the enrollments and lessons", async () => {
    const s = await j.learner();
    const measure = async () => (await countQueries(() => t.get(`/v1/users/${s.id}/published-courses?page_size=100`, key()))).count;
    const c1 = await j.course([{}]);
    await j.enroll(s.id, c1.publishedCourseId);
    await t.get(`/v1/users/${s.id}/published-courses`, key()); // warm the credential cache
    const one = await measure();
    for (let i = 0; i < 4; i++) {
      const c = await j.course([{}, {}, {}]);
      await j.enroll(s.id, c.publishedCourseId);
    }
    const many = await measure();
    expect(many).toBe(one);
    // a bare JSON array, as published (CONVENTIONS §16, issue 25 item 1): page and page_size choose a window
    const ok = (r: { status: number; body: any }) => {
      expect([r.status, r.body]).toEqual([200, expect.anything()]);
      return r.body;
    };
    const all = ok(await t.get(`/v1/users/${s.id}/published-courses`, key()));
    expect(Array.isArray(all)).toBe(true);
    expect(all).toHaveLength(5);
    const ids = all.map((x: any) => x.published_course_id);
    const window = async (q: string) => ok(await t.get(`/v1/users/${s.id}/published-courses?${q}`, key())).map((x: any) => x.published_course_id);
    expect(await window('page_size=2')).toEqual(ids.slice(0, 2));
    expect(await window('page_size=2&page=3')).toEqual(ids.slice(4));
    expect(await window('page_size=2&page=4')).toEqual([]);
    expect(await window('page_size=5000')).toEqual(ids);
    expect(all[0]).toEqual(ok(await t.get(`/v1/users/${s.id}/published-courses/${ids[0]}`, key())));
    expect((await t.get(`/v1/users/${s.id}/published-courses?page_size=0`, key())).body).toEqual({ page_size: ['A valid positive integer is required.'] });
  });

  it('scopes: reads need enrollments:read, writes enrollments:write', async () => {
    const c = await j.course([{}]);
    const s = await j.learner();
    await j.enroll(s.id, c.publishedCourseId);
    const [l] = await j.lessons(s.id, c.publishedCourseId);
    const id = l.lesson_progress.lesson_progress_id;
    const readOnly = await t.tokenFor(w.a, ['enrollments:read']);
    expect((await t.get(`/v1/lesson-progress/${id}`, { token: readOnly })).status).toBe(200);
    expect((await t.patch(`/v1/lesson-progress/${id}`, { completed_at: null }, { token: readOnly })).status).toBe(403);
    const none = await t.tokenFor(w.a, ['courses:read']);
    expect((await t.get(`/v1/users/${s.id}/published-courses`, { token: none })).status).toBe(403);
  });
});
