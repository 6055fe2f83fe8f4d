import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { journey } from '../support/learner-journey';
import { twoOrgs, TwoOrgs } from '../support/two-orgs';

/**
 * The rest of issue 10's progress rules (docs/decisions/progress.md): a course's certificate
 * settings (CONVENTIONS §15), /v1 users' sub-routes for a user registered on no domain, a direct
 * success_status on PATCH /v2/enrollments/completion, anonymization of progress free text, and a
 * new enrollment joining a shared course progress. Everything through HTTP.
 */
describe('progress rules', () => {
  let t: TestApp;
  let w: TwoOrgs;
  let j: ReturnType<typeof journey>;
  const key = () => ({ basic: w.a.api_key });
  const v2 = () => ({ token: w.tokenA });
  const DAY = 86_400_000;

  beforeAll(async () => {
    t = await startTestApp({ DESTRUCTIVE_RATE_LIMIT: 1000, DESTRUCTIVE_ORG_RATE_LIMIT: 1000 } as any);
    w = await twoOrgs(t);
    j = journey(t, w.a);
  });
  afterAll(() => t?.close());

  const ok = <T = any>(res: { status: number; body: any; text: string }, status = 200): T => {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status} ${res.text.slice(0, 400)}`);
    return res.body;
  };
  const events = async (type: string, userId: string) =>
    (await t.ds.query(`SELECT payload FROM outbox_events WHERE organization_id = $1 AND event_type = $2 ORDER BY created_at, id`, [orgUuid(w.a), type]))
      .map((r: any) => r.payload)
      .filter((p: any) => p.user?.id === userId);
  const certificates = async (userId: string) => ok(await t.get(`/v2/certificates/?filter[student.id]=${userId}`, v2())).data as any[];
  const userCourse = async (userId: string, pcId: string) => ok(await t.get(`/v1/users/${userId}/published-courses/${pcId}`, key()));
  const completeLesson = async (userId: string, pcId: string, lessonId: string, at: string) =>
    ok(await t.patch(`/v1/users/${userId}/published-courses/${pcId}/lessons/${lessonId}`, { lesson_progress: { completed_at: at } }, key()));
  const v2Enrollment = async (id: string) => ok(await t.get(`/v2/enrollments/${id}`, v2())).data;
  const completion = (items: { id: string; attributes: Record<string, unknown> }[]) =>
    t.patch('/v2/enrollments/completion', { send_notifications: false, data: items.map((i) => ({ type: 'enrollments', ...i })) }, v2());

  describe("a course's certificate settings (extension members of the course)", () => {
    it('/v1 courses read them (defaults: issues a certificate, never expires) and write them with POST, PUT and PATCH', async () => {
      const plain = ok(await t.post('/v1/courses', { title: 'Plain', short_description: 'S', enforce_sequential_navigation: false }, key()), 201);
      expect(plain).toMatchObject({ issues_certificate: true, certificate_validity_days: null });
      const made = ok(
        await t.post('/v1/courses', { title: 'Set', short_description: 'S', enforce_sequential_navigation: false, issues_certificate: false, certificate_validity_days: 30 }, key()),
        201,
      );
      expect(made).toMatchObject({ issues_certificate: false, certificate_validity_days: 30 });
      expect(ok(await t.get(`/v1/courses/${made.id}`, key()))).toMatchObject({ issues_certificate: false, certificate_validity_days: 30 });
      const listed = ok(await t.get('/v1/courses?page_size=100', key())).results.find((c: any) => c.id === made.id);
      expect(listed).toMatchObject({ issues_certificate: false, certificate_validity_days: 30 });

      // PATCH changes only what it names; null removes the validity
      expect(ok(await t.patch(`/v1/courses/${made.id}`, { issues_certificate: true }, key()))).toMatchObject({ issues_certificate: true, certificate_validity_days: 30 });
      expect(ok(await t.patch(`/v1/courses/${made.id}`, { certificate_validity_days: null }, key()))).toMatchObject({ issues_certificate: true, certificate_validity_days: null });
      const put = ok(
        await t.request('PUT', `/v1/courses/${made.id}`, {
          ...key(),
          body: { title: 'Set', short_description: 'S', enforce_sequential_navigation: false, certificate_validity_days: 365, issues_certificate: false },
        }),
      );
      expect(put).toMatchObject({ issues_certificate: false, certificate_validity_days: 365 });
      // a read written back is accepted (CONVENTIONS §9)
      expect((await t.request('PUT', `/v1/courses/${made.id}`, { ...key(), body: put })).status).toBe(200);
    });

    it('bad values are a 400 on the member and change nothing', async () => {
      const c = ok(await t.post('/v1/courses', { title: 'Bad', short_description: 'S', enforce_sequential_navigation: false, certificate_validity_days: 10 }, key()), 201);
      for (const [body, field] of [
        [{ certificate_validity_days: 0 }, 'certificate_validity_days'],
        [{ certificate_validity_days: -3 }, 'certificate_validity_days'],
        [{ certificate_validity_days: 1.5 }, 'certificate_validity_days'],
        [{ certificate_validity_days: '30' }, 'certificate_validity_days'],
        [{ certificate_validity_days: 36501 }, 'certificate_validity_days'],
        [{ issues_certificate: 'no' }, 'issues_certificate'],
        [{ issues_certificate: null }, 'issues_certificate'],
      ] as const) {
        const res = await t.patch(`/v1/courses/${c.id}`, body, key());
        expect(res.status).toBe(400);
        expect(Object.keys(res.body)).toEqual([field]);
      }
      const created = await t.post('/v1/courses', { title: 'Bad', short_description: 'S', enforce_sequential_navigation: false, certificate_validity_days: 0 }, key());
      expect(created.status).toBe(400);
      expect(ok(await t.get(`/v1/courses/${c.id}`, key()))).toMatchObject({ issues_certificate: true, certificate_validity_days: 10 });
    });

    it('/v2 courses show them and write them (create; update: omitted unchanged, null validity removes it)', async () => {
      const created = ok(await t.post('/v2/courses/', { data: [{ type: 'courses', attributes: { title: 'V2', certificate_validity_days: 7, issues_certificate: false } }] }, v2()));
      const id = created.data[0].id;
      expect(created.data[0].result.attributes).toMatchObject({ issues_certificate: false, certificate_validity_days: 7 });
      expect(ok(await t.get(`/v2/courses/${id}`, v2())).data.attributes).toMatchObject({ issues_certificate: false, certificate_validity_days: 7 });
      const upd = async (attributes: Record<string, unknown>) => ok(await t.patch('/v2/courses/', { data: [{ type: 'courses', id, attributes }] }, v2()));
      expect((await upd({ title: 'V2 renamed' })).data[0].result.attributes).toMatchObject({ title: 'V2 renamed', issues_certificate: false, certificate_validity_days: 7 });
      expect((await upd({ issues_certificate: true })).data[0].result.attributes).toMatchObject({ issues_certificate: true, certificate_validity_days: 7 });
      expect((await upd({ certificate_validity_days: null })).data[0].result.attributes).toMatchObject({ issues_certificate: true, certificate_validity_days: null });
      const bad = await t.patch('/v2/courses/', { data: [{ type: 'courses', id, attributes: { certificate_validity_days: 0 } }] }, v2());
      expect(bad.body.data[0]).toMatchObject({ status: 'failed', error: { code: 'validation_error', source: { pointer: '/data/0/attributes/certificate_validity_days' } } });
      // the same course on /v1
      expect(ok(await t.get(`/v1/courses/${id}`, key()))).toMatchObject({ issues_certificate: true, certificate_validity_days: null });
    });

    it('completion issues no certificate when the course says so; a validity of N days sets expires_at = completion + N days', async () => {
      const none = await j.course([{}], { course: { issues_certificate: false } });
      const valid = await j.course([{}], { course: { certificate_validity_days: 45 } });
      const s = await j.learner();
      await j.enroll(s.id, none.publishedCourseId);
      await j.enroll(s.id, valid.publishedCourseId);

      await completeLesson(s.id, none.publishedCourseId, none.lessonIds[0], '2026-03-01T10:00:00Z');
      const noneRead = await userCourse(s.id, none.publishedCourseId);
      expect(noneRead.course_progress.completed_at).toBe('2026-03-01T10:00:00.000Z');
      expect(noneRead).not.toHaveProperty('certificate');
      expect(await events('COURSE_COMPLETION', s.id)).toHaveLength(1); // the completion itself happens
      expect(await certificates(s.id)).toEqual([]);

      await completeLesson(s.id, valid.publishedCourseId, valid.lessonIds[0], '2026-03-02T10:00:00Z');
      const validRead = await userCourse(s.id, valid.publishedCourseId);
      expect(validRead.certificate).toMatchObject({ issued_at: '2026-03-02T10:00:00.000Z', expires_at: new Date(Date.parse('2026-03-02T10:00:00Z') + 45 * DAY).toISOString() });
      const certs = await certificates(s.id);
      expect(certs).toHaveLength(1);
      expect(certs[0].attributes).toMatchObject({ issued_at: '2026-03-02T10:00:00.000Z', expires_at: '2026-04-16T10:00:00.000Z' });
      expect(certs[0].attributes.code).toBe(validRead.certificate.code);

      // the setting is read at completion: turned on later, the next completion issues one
      ok(await t.patch(`/v1/courses/${none.courseId}`, { issues_certificate: true, certificate_validity_days: 1 }, key()));
      const base = `/v1/users/${s.id}/published-courses/${none.publishedCourseId}`;
      ok(await t.patch(base, { course_progress: { completed_at: null } }, key()));
      const again = ok(await t.patch(base, { course_progress: { completed_at: '2026-05-01T00:00:00Z' } }, key()));
      expect(again.certificate).toMatchObject({ issued_at: '2026-05-01T00:00:00.000Z', expires_at: '2026-05-02T00:00:00.000Z' });
    });

    it('the OpenAPI document marks them as extensions of the /v1 course', async () => {
      const doc = ok(await t.get('/openapi.json'));
      for (const schema of ['CourseRequest', 'PatchedCourseRequest']) {
        const props = doc.components.schemas[schema].properties;
        expect(props.issues_certificate).toMatchObject({ type: 'boolean', 'x-extension': true });
        expect(props.certificate_validity_days).toMatchObject({ type: ['integer', 'null'], minimum: 1, 'x-extension': true }); // OpenAPI 3.1's null type (issue 26)
      }
      for (const [p, m] of [
        ['/v1/courses', 'get'],
        ['/v1/courses', 'post'],
        ['/v1/courses/{course_id}', 'get'],
        ['/v1/courses/{course_id}', 'put'],
        ['/v1/courses/{course_id}', 'patch'],
      ]) {
        expect(doc.paths[p][m]['x-extension-members']).toEqual(['issues_certificate', 'certificate_validity_days']);
      }
    });
  });

  describe('/v1 users sub-routes: a user registered on no domain is 404', () => {
    it('groups and every published-course progress route answer 404 {"detail"} for a /v2 student on no domain, as GET /v1/users/{id} does', async () => {
      const c = await j.course([{}]);
      const student = ok(await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: `nodomain-${Date.now()}@example.test` } }] }, v2())).data[0];
      const group = ok(await t.post('/v2/groups/', { data: [{ type: 'groups', attributes: { name: `G ${Date.now()}` } }] }, v2())).data[0].id;
      ok(await t.post(`/v2/groups/${group}/relationships/students/`, { data: [{ type: 'students', id: student.id }] }, v2()));
      // a registered member of the same group is listed
      const member = await j.learner();
      ok(await t.post(`/v2/groups/${group}/relationships/students/`, { data: [{ type: 'students', id: member.id }] }, v2()));
      expect(ok(await t.get(`/v1/users/${member.id}/groups`, key())).results).toHaveLength(1);
      expect(ok(await t.get(`/v1/users/${member.id}/published-courses`, key()))).toEqual([]);

      expect((await t.get(`/v1/users/${student.id}`, key())).status).toBe(404);
      const lesson = c.lessonIds[0];
      const base = `/v1/users/${student.id}/published-courses`;
      for (const [method, path, body] of [
        ['GET', `/v1/users/${student.id}/groups`],
        ['GET', base],
        ['GET', `${base}/${c.publishedCourseId}`],
        ['PUT', `${base}/${c.publishedCourseId}`, { course_progress: { completed_at: '2026-01-01T00:00:00Z' } }],
        ['PATCH', `${base}/${c.publishedCourseId}`, { course_progress: { completed_at: '2026-01-01T00:00:00Z' } }],
        ['GET', `${base}/${c.publishedCourseId}/lessons`],
        ['GET', `${base}/${c.publishedCourseId}/lessons/${lesson}`],
        ['PUT', `${base}/${c.publishedCourseId}/lessons/${lesson}`, { lesson_progress: { completed_at: '2026-01-01T00:00:00Z' } }],
        ['PATCH', `${base}/${c.publishedCourseId}/lessons/${lesson}`, { lesson_progress: { completed_at: '2026-01-01T00:00:00Z' } }],
      ] as [string, string, unknown?][]) {
        const res = await t.request(method, path, { ...key(), body });
        expect([method, path, res.status, res.body]).toEqual([method, path, 404, { detail: 'Not found.' }]);
      }
    });
  });

  describe('PATCH /v2/enrollments/completion: success_status', () => {
    it('sets the direct outcome (passed / failed), alone or with completed_at; null clears it back to the derived status', async () => {
      const quiz = await j.course([{ type: 'QUIZ' }]);
      const s = await j.learner();
      const e = (await j.enroll(s.id, quiz.publishedCourseId)).id;
      expect((await v2Enrollment(e)).attributes.success_status).toBe('pending');

      // alone: the outcome, no completion
      const alone = await completion([{ id: e, attributes: { success_status: 'failed' } }]);
      expect(alone.status).toBe(200);
      expect(alone.body.data[0]).toMatchObject({ status: 'succeeded', result: { id: e, attributes: { completed_at: null, success_status: 'failed' } } });
      expect((await v2Enrollment(e)).attributes).toMatchObject({ success_status: 'failed', completed_at: null });
      expect((await userCourse(s.id, quiz.publishedCourseId)).course_progress.success_status).toBe('FAILED');
      expect(await events('COURSE_COMPLETION', s.id)).toHaveLength(0);

      // with the completion: the completion event carries the outcome written with it
      const both = await completion([{ id: e, attributes: { completed_at: '2026-02-01T00:00:00Z', success_status: 'passed' } }]);
      expect(both.body.data[0].result.attributes).toEqual({ completed_at: '2026-02-01T00:00:00.000Z', success_status: 'passed' });
      const done = await events('COURSE_COMPLETION', s.id);
      expect(done).toHaveLength(1);
      expect(done[0].success_status).toBe('PASSED');

      // the lesson outcome no longer decides while a direct status is set; null clears it
      await completeLesson(s.id, quiz.publishedCourseId, quiz.lessonIds[0], '2026-02-01T00:00:00Z');
      ok(await t.patch(`/v1/users/${s.id}/published-courses/${quiz.publishedCourseId}/lessons/${quiz.lessonIds[0]}`, { lesson_progress: { success_status: 'FAILED' } }, key()));
      expect((await v2Enrollment(e)).attributes.success_status).toBe('passed');
      const cleared = await completion([{ id: e, attributes: { success_status: null } }]);
      expect(cleared.body.data[0].result.attributes).toEqual({ completed_at: '2026-02-01T00:00:00.000Z', success_status: 'failed' });
      expect((await userCourse(s.id, quiz.publishedCourseId)).course_progress.success_status).toBe('FAILED');
      expect(await events('COURSE_COMPLETION', s.id)).toHaveLength(1);
    });

    it("a bad value is that item's validation_error and changes nothing; other items go through", async () => {
      const c = await j.course([{}]);
      const [s1, s2] = [await j.learner(), await j.learner()];
      const e1 = (await j.enroll(s1.id, c.publishedCourseId)).id;
      const e2 = (await j.enroll(s2.id, c.publishedCourseId)).id;
      const res = await completion([
        { id: e1, attributes: { success_status: 'PASSED', completed_at: '2026-01-01T00:00:00Z' } },
        { id: e2, attributes: { success_status: 'passed' } },
      ]);
      expect(res.status).toBe(207);
      expect(res.body.data.map((d: any) => d.status)).toEqual(['failed', 'succeeded']);
      expect(res.body.data[0]).toMatchObject({ error: { code: 'validation_error', source: { pointer: '/data/0/attributes/success_status' } } });
      expect((await v2Enrollment(e1)).attributes).toMatchObject({ completed_at: null, success_status: 'not_applicable' });
      expect((await v2Enrollment(e2)).attributes).toMatchObject({ completed_at: null, success_status: 'passed' });
    });
  });

  describe('anonymize clears the free text of the progress tables', () => {
    // validation_data is cleared too, but no lesson type the API creates today needs validation (IE_EXAM), so none is ever stored
    it.each(['v1', 'v2'])('through %s: custom_data is gone, the record (dates, scores) stays, other learners keep theirs', async (via) => {
      const c = await j.course([{}, {}]);
      const other = await j.learner();
      const s = await j.learner();
      await j.enroll(s.id, c.publishedCourseId);
      await j.enroll(other.id, c.publishedCourseId);
      const lps = async (userId: string) => (await j.lessons(userId, c.publishedCourseId)).map((l) => l.lesson_progress.lesson_progress_id as string);
      const [html, second] = await lps(s.id);
      const [otherHtml] = await lps(other.id);
      ok(await t.patch(`/v1/lesson-progress/${html}`, { custom_data: `notes of ${s.email}`, completed_at: '2026-01-01T00:00:00Z', score: 4, max_score: 5 }, key()));
      ok(await t.patch(`/v1/progresstokens/${ok(await t.get(`/v1/lesson-progress/${second}`, key())).progress_token_id}`, { custom_data: 'suspend-data' }, key()));
      ok(await t.patch(`/v1/lesson-progress/${otherHtml}`, { custom_data: 'kept' }, key()));

      const res =
        via === 'v1'
          ? await t.post(`/v1/users/${s.id}/anonymize`, undefined, { token: w.tokenA })
          : await t.post(`/v2/students/${s.id}/anonymize`, undefined, { token: w.tokenA, headers: { 'X-Confirm-Destructive': 'true' } });
      expect(res.status).toBe(via === 'v1' ? 200 : 204);

      expect(ok(await t.get(`/v1/lesson-progress/${html}`, key()))).toMatchObject({ custom_data: null, completed_at: '2026-01-01T00:00:00.000Z', score: 4, max_score: 5 });
      expect(ok(await t.get(`/v1/lesson-progress/${second}`, key()))).toMatchObject({ custom_data: null, view_count: 1 });
      const lessons = await j.lessons(s.id, c.publishedCourseId);
      expect(lessons.map((l) => l.lesson_progress.custom_data)).toEqual([null, null]);
      expect(ok(await t.get(`/v1/lesson-progress/${otherHtml}`, key())).custom_data).toBe('kept');
    });
  });

  describe('a new enrollment joining a shared course progress', () => {
    it('shows the completion and start the progress already has (/v2 enrollment, /v1 user overview)', async () => {
      const c = await j.course([{}]);
      const s = await j.learner();
      const first = await j.enroll(s.id, c.publishedCourseId, { enrolled_at: '2025-01-01T00:00:00Z' });
      await completeLesson(s.id, c.publishedCourseId, c.lessonIds[0], '2025-02-01T00:00:00Z');
      const before = await v2Enrollment(first.id);
      expect(before.attributes).toMatchObject({ progress_status: 'completed', completed_at: '2025-02-01T00:00:00.000Z' });

      // the first enrollment ends; a new one joins the same (shared) course progress
      ok(await t.patch(`/v1/domains/${w.a.domain_name}/published-courses/${c.publishedCourseId}/enrollments/${first.id}`, { active: false }, key()));
      const second = await j.enroll(s.id, c.publishedCourseId);
      expect(second.id).not.toBe(first.id);
      const read = await userCourse(s.id, c.publishedCourseId);
      expect(read.enrollment_id).toBe(second.id);
      expect(new Set(read.all_enrollments.map((e: any) => e.course_progress_id)).size).toBe(1);
      expect((await v2Enrollment(second.id)).attributes).toMatchObject({ progress_status: 'completed', completed_at: '2025-02-01T00:00:00.000Z' });
      const listed = ok(await t.get(`/v2/enrollments/?filter[student.id]=${s.id}&filter[progress_status]=completed`, v2())).data.map((d: any) => d.id);
      expect(listed.sort()).toEqual([first.id, second.id].sort());
      expect(ok(await t.get(`/v1/users/${s.id}`, key()))).toMatchObject({ registration_count: 2, completion_count: 2 });
    });

    it('a started, not completed progress: the new enrollment is in progress; per-enrollment progress starts afresh', async () => {
      const c = await j.course([{}, {}]);
      const s = await j.learner();
      const first = await j.enroll(s.id, c.publishedCourseId, { enrolled_at: '2025-01-01T00:00:00Z' });
      await completeLesson(s.id, c.publishedCourseId, c.lessonIds[0], '2025-02-01T00:00:00Z');
      expect((await v2Enrollment(first.id)).attributes.progress_status).toBe('in_progress');
      const second = await j.enroll(s.id, c.publishedCourseId, { enrolled_at: '2025-06-01T00:00:00Z' });
      expect((await v2Enrollment(second.id)).attributes).toMatchObject({ progress_status: 'in_progress', completed_at: null });

      const own = await j.course([{}], { published: { unique_progress_per_enrollment: true } });
      const e1 = await j.enroll(s.id, own.publishedCourseId, { enrolled_at: '2025-01-01T00:00:00Z' });
      await completeLesson(s.id, own.publishedCourseId, own.lessonIds[0], '2025-02-01T00:00:00Z');
      expect((await v2Enrollment(e1.id)).attributes.progress_status).toBe('completed');
      const e2 = await j.enroll(s.id, own.publishedCourseId, { enrolled_at: '2025-06-01T00:00:00Z' });
      expect((await v2Enrollment(e2.id)).attributes).toMatchObject({ progress_status: 'not_started', completed_at: null });
    });
  });
});
