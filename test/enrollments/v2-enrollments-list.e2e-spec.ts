import { decodeId, encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { HttpResponse, startTestApp, TestApp } from '../support/app';
import { countQueries, rate } from '../support/fixtures';
import { Course, fixtures } from './v2-enrollments.helpers';

/** GET /v2/enrollments/ and GET /v2/enrollments/{id}: docs/decisions/v2-enrollments.md. */
describe('GET /v2/enrollments/ and /v2/enrollments/{id}', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let f: ReturnType<typeof fixtures>;
  /** the ids of a list answer (every page followed), for the filter cases */
  const ids = async (query: string, auth = { token }): Promise<string[]> => {
    const out: string[] = [];
    let url: string | null = `/v2/enrollments/?page[size]=100${query ? `&${query}` : ''}`;
    while (url) {
      const res: HttpResponse = await t.get(url, auth);
      expect({ url, status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ url, status: 200, body: undefined });
      out.push(...res.body.data.map((d: any) => d.id));
      url = res.body.links.next ? res.body.links.next.replace(t.baseUrl, '') : null;
    }
    return out;
  };
  const v1Enroll = async (c: Course, userId: string, body: Record<string, unknown>) => {
    const res = await t.post(`/v1/domains/${c.domain}/published-courses/${c.publishedCourseId}/enrollments`, { user: { id: userId }, ...body }, { basic: org.api_key });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
    f = fixtures(t, org, token);
  });
  afterAll(() => t.close());

  it('401 without a token, 403 without enrollments:read', async () => {
    expect((await t.get('/v2/enrollments/')).status).toBe(401);
    const writeOnly = await t.tokenFor(org, ['enrollments:write', 'students:read']);
    const res = await t.get('/v2/enrollments/', { token: writeOnly });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('forbidden');
    expect((await t.get(`/v2/enrollments/${encodeId('enrollment', newUuid())}`, { token: writeOnly })).status).toBe(403);
  });

  it('reads one enrollment as the published EnrollmentResource; unknown, malformed and other-organization ids are 404 alike', async () => {
    const c = await f.course({ lessons: [{}] });
    const m = await f.member();
    const id = await f.enroll(c.publishedCourseId, m.email, { expires_at: '2031-01-01T00:00:00Z' });
    const res = await t.get(`/v2/enrollments/${id}`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
    expect(res.body).toEqual({
      data: {
        type: 'enrollments',
        id,
        attributes: {
          enrolled_at: expect.stringMatching(/Z$/),
          expires_at: '2031-01-01T00:00:00.000Z',
          due_at: null,
          active: true,
          channel: 'api',
          source: 'assigned',
          progress_status: 'not_started',
          completed_at: null,
          score: null,
          max_score: null,
          success_status: 'not_applicable',
          domain_name: org.domain_name,
          has_certificate: false,
          rating: null,
          rating_scale: null,
          feedback: null,
        },
        relationships: {
          student: { data: { type: 'students', id: m.id } },
          'published-course': { data: { type: 'published-courses', id: c.publishedCourseId } },
          purchase: { data: null },
          certificate: { data: null },
        },
        links: { self: `${t.baseUrl}/v2/enrollments/${id}` },
      },
    });
    const other = await t.newOrg();
    const otherToken = await t.tokenFor(other);
    const theirs = await t.get(`/v2/enrollments/${id}`, { token: otherToken });
    const random = await t.get(`/v2/enrollments/${encodeId('enrollment', newUuid())}`, { token });
    const malformed = await t.get('/v2/enrollments/enr-nope', { token });
    for (const r of [theirs, random, malformed]) {
      expect(r.status).toBe(404);
      expect(r.body.errors[0].code).toBe('not_found');
    }
    expect(theirs.body.errors[0].detail).toBe(random.body.errors[0].detail);
    // and another organization's list does not show it
    expect(await ids('', { token: otherToken } as any)).toEqual([]);
  });

  it('lists in creation order with cursor pagination (links.next, has_more, next_cursor); bad page parameters 422, a tampered cursor 400', async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o);
    const g = fixtures(t, o, tok);
    const c = await g.course();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(await g.enroll(c.publishedCourseId, (await g.member()).email));
    const first = await t.get('/v2/enrollments/?page[size]=2', { token: tok });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      meta: { page_size: 2 },
      has_more: true,
      next_cursor: expect.any(String),
      links: { self: expect.any(String), next: expect.stringContaining('page%5Bcursor%5D='), prev: null },
    });
    expect(first.body.data.map((d: any) => d.id)).toEqual(made.slice(0, 2));
    const all: string[] = [];
    let url: string | null = '/v2/enrollments/?page[size]=2';
    while (url) {
      const res: HttpResponse = await t.get(url, { token: tok });
      all.push(...res.body.data.map((d: any) => d.id));
      url = res.body.links.next?.replace(t.baseUrl, '') ?? null;
      if (!url) expect(res.body).toMatchObject({ has_more: false, next_cursor: null });
    }
    expect(all).toEqual(made);
    for (const q of ['page[size]=0', 'page[size]=101', 'page[size]=x']) expect((await t.get(`/v2/enrollments/?${q}`, { token: tok })).status).toBe(422);
    const tampered = await t.get(`/v2/enrollments/?page[cursor]=${first.body.next_cursor}x`, { token: tok });
    expect(tampered.status).toBe(400);
    // a cursor of another list is refused too
    const students = await t.get('/v2/students/?page[size]=1', { token: tok });
    expect(students.body.next_cursor).toEqual(expect.any(String));
    expect((await t.get(`/v2/enrollments/?page[cursor]=${students.body.next_cursor}`, { token: tok })).status).toBe(400);
  });

  it('filters: student id and email, course, domains, active; unknown or malformed values match nothing; wrong types 422', async () => {
    const d2 = await f.domain();
    const [c1, c2] = [await f.course(), await f.course()];
    const c3 = await f.course({ domain: d2 });
    const [a, b] = [await f.member(), await f.member()];
    await f.member(d2, a.email.replace('@', '+x@')); // unrelated member of d2
    const bOnD2 = await t.post(`/v1/domains/${d2}/users`, { user: { email: b.email } }, { basic: org.api_key });
    expect([200, 201]).toContain(bOnD2.status);
    const a1 = await f.enroll(c1.publishedCourseId, a.email);
    const a2 = await f.enroll(c2.publishedCourseId, a.email);
    const b1 = await f.enroll(c1.publishedCourseId, b.email);
    const b3 = await f.enroll(c3.publishedCourseId, b.email, { expires_at: '2031-01-01T00:00:00Z' });
    const mine = [a1, a2, b1, b3];
    const within = (got: string[]) => got.filter((id) => mine.includes(id));
    // deactivated, and expired (past expires_at): both inactive
    await t.patch(
      '/v2/enrollments/',
      {
        data: [
          { type: 'enrollments', id: a2, attributes: { active: false } },
          { type: 'enrollments', id: b3, attributes: { expires_at: '2020-01-01T00:00:00Z' } },
        ],
      },
      { token },
    );

    expect(await ids(`filter[student.id]=${a.id}`)).toEqual([a1, a2]);
    expect(await ids(`filter[student.email]=${encodeURIComponent(b.email.toUpperCase())}`)).toEqual([b1, b3]);
    expect(await ids(`filter[course.id]=${c1.courseId}`)).toEqual([a1, b1]);
    expect(await ids(`filter[domains]=${d2.toUpperCase()}`)).toEqual([b3]);
    expect(await ids(`filter[domains]=${org.domain_name},${d2}`)).toEqual(expect.arrayContaining(mine));
    expect(within(await ids('filter[active]=true'))).toEqual([a1, b1]);
    expect(within(await ids('filter[active]=false'))).toEqual([a2, b3]);
    expect(await ids(`filter[student.id]=${b.id}&filter[active]=true&filter[course.id]=${c1.courseId}`)).toEqual([b1]);
    for (const nothing of [
      `filter[student.id]=${encodeId('student', newUuid())}`,
      'filter[student.id]=stu-bad',
      `filter[student.id]=${c1.courseId}`,
      'filter[student.email]=nobody@example.test',
      `filter[course.id]=${encodeId('course', newUuid())}`,
      'filter[course.id]=nope',
      `filter[course.id]=${c1.publishedCourseId}`,
      'filter[domains]=nowhere.example.test',
    ]) {
      expect({ nothing, got: await ids(nothing) }).toEqual({ nothing, got: [] });
    }
    for (const bad of [
      'filter[active]=yes',
      'filter[progress_status]=done',
      'filter[enrolled_gte]=2024-01-01T00:00:00',
      'filter[completed_lte]=yesterday',
      'include=purchases',
      `filter[student.id]=${a.id}&filter[student.id]=${b.id}`,
    ]) {
      const res = await t.get(`/v2/enrollments/?${bad}`, { token });
      expect({ bad, status: res.status, code: res.body.errors?.[0]?.code }).toEqual({ bad, status: 422, code: 'validation_error' });
      expect(res.body.errors[0].source.parameter).toEqual(expect.any(String));
    }
  });

  it('filters: enrolled and completed date ranges (offsets honoured), progress_status', async () => {
    const c = await f.course({ lessons: [{}, {}] });
    const [a, b, d] = [await f.member(), await f.member(), await f.member()];
    const ea = await v1Enroll(c, a.id, { enrolled_at: '2024-01-10T00:00:00Z' });
    const eb = await v1Enroll(c, b.id, { enrolled_at: '2024-02-10T00:00:00Z' });
    const ed = await v1Enroll(c, d.id, { enrolled_at: '2024-03-10T00:00:00Z' });
    const course = `filter[course.id]=${c.courseId}`;
    expect(await ids(`${course}&filter[enrolled_gte]=2024-02-10T00:00:00Z`)).toEqual([eb, ed]);
    expect(await ids(`${course}&filter[enrolled_lte]=2024-02-10T02:00:00%2B02:00`)).toEqual([ea, eb]);
    expect(await ids(`${course}&filter[enrolled_gte]=2024-01-11T00:00:00Z&filter[enrolled_lte]=2024-03-01T00:00:00Z`)).toEqual([eb]);
    // a completes (set directly); b starts (one lesson finished out of two); d has not started
    const done = await f.complete([{ id: ea, completed_at: '2024-05-05T12:00:00Z' }]);
    expect(done.status).toBe(200);
    await f.lesson(b.id, c.publishedCourseId, c.lessonIds[0], { finished_at: '2024-04-01T00:00:00Z' });
    expect(await ids(`${course}&filter[progress_status]=completed`)).toEqual([ea]);
    expect(await ids(`${course}&filter[progress_status]=in_progress`)).toEqual([eb]);
    expect(await ids(`${course}&filter[progress_status]=not_started`)).toEqual([ed]);
    expect(await ids(`${course}&filter[progress_status]=not_started,completed`)).toEqual([ea, ed]);
    expect(await ids(`${course}&filter[progress_status]=completed,in_progress,not_started`)).toEqual([ea, eb, ed]);
    expect(await ids(`${course}&filter[completed_gte]=2024-05-05T12:00:00Z`)).toEqual([ea]);
    expect(await ids(`${course}&filter[completed_gte]=2024-05-05T12:00:01Z`)).toEqual([]);
    expect(await ids(`${course}&filter[completed_lte]=2024-05-05T14:00:00%2B02:00`)).toEqual([ea]);
    const [ra, rb, rd] = await Promise.all([ea, eb, ed].map((id) => t.get(`/v2/enrollments/${id}`, { token })));
    expect([ra, rb, rd].map((r) => r.body.data.attributes.progress_status)).toEqual(['completed', 'in_progress', 'not_started']);
    expect(ra.body.data.attributes.completed_at).toBe('2024-05-05T12:00:00.000Z');
  });

  it('attributes from the progress, certificate and rating: score, success_status (passed / failed / pending / not_applicable), has_certificate, rating', async () => {
    const quiz = await f.course({ lessons: [{ type: 'QUIZ' }, { type: 'QUIZ' }, { type: 'HTML', optional: true }] });
    const [p, q] = [await f.member(), await f.member()];
    const ep = await f.enroll(quiz.publishedCourseId, p.email);
    const eq = await f.enroll(quiz.publishedCourseId, q.email);
    const attrs = async (id: string) => (await t.get(`/v2/enrollments/${id}`, { token })).body.data;
    expect((await attrs(ep)).attributes).toMatchObject({ success_status: 'pending', score: null, max_score: null });
    await f.lesson(p.id, quiz.publishedCourseId, quiz.lessonIds[0], { finished_at: '2024-04-01T00:00:00Z', success_status: 'PASSED', score: 8, max_score: 10 });
    await f.lesson(p.id, quiz.publishedCourseId, quiz.lessonIds[1], { finished_at: '2024-04-02T00:00:00Z', success_status: 'PASSED', score: 5, max_score: 10 });
    await f.lesson(q.id, quiz.publishedCourseId, quiz.lessonIds[0], { finished_at: '2024-04-01T00:00:00Z', success_status: 'FAILED', score: 1, max_score: 10 });
    const dp = await attrs(ep);
    expect(dp.attributes).toMatchObject({ success_status: 'passed', score: 13, max_score: 20, progress_status: 'completed', completed_at: '2024-04-02T00:00:00.000Z', has_certificate: true });
    expect(dp.relationships.certificate.data).toEqual({ type: 'certificates', id: expect.stringMatching(/^cert/) });
    expect((await attrs(eq)).attributes).toMatchObject({ success_status: 'failed', score: 1, max_score: 10, progress_status: 'in_progress', has_certificate: false });
    // include=student,certificate,purchase
    const inc = await t.get(`/v2/enrollments/${ep}?include=student,certificate,purchase`, { token });
    expect(inc.status).toBe(200);
    expect(inc.body.included).toEqual([
      expect.objectContaining({ type: 'students', id: p.id, attributes: expect.objectContaining({ email: p.email }) }),
      expect.objectContaining({ type: 'certificates', id: dp.relationships.certificate.data.id, attributes: expect.objectContaining({ code: expect.any(String) }) }),
    ]);
    const cert = await t.get(`/v2/certificates/${dp.relationships.certificate.data.id}`, { token });
    expect(cert.status).toBe(200);
    expect((await t.get(`/v2/enrollments/${ep}`, { token })).body.included).toBeUndefined();
    // a rating left on the enrollment (no route writes ratings yet: the shared fixture)
    await rate(t, org, decodeId('course', quiz.courseId)!, decodeId('student', q.id)!, 4, { feedback: 'nice', enrollment_uuid: decodeId('enrollment', eq)! });
    expect((await attrs(eq)).attributes).toMatchObject({ rating: 4, rating_scale: 5, feedback: 'nice' });
    // the list shows the same resources, and includes the page's students once each
    const list = await t.get(`/v2/enrollments/?filter[course.id]=${quiz.courseId}&include=student`, { token });
    expect(list.body.data).toEqual([(await t.get(`/v2/enrollments/${ep}`, { token })).body.data, (await t.get(`/v2/enrollments/${eq}`, { token })).body.data]);
    expect(list.body.included.map((s: any) => s.id).sort()).toEqual([p.id, q.id].sort());
  });

  it('no N+1: a page of 100 enrollments (with include) sends as many statements as a page of 1; every list statement uses an index', async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o);
    const g = fixtures(t, o, tok);
    const c = await g.course({ lessons: [{ type: 'QUIZ' }] });
    const emails: string[] = [];
    for (let i = 0; i < 100; i++) emails.push((await g.member()).email);
    const res = await g.bulk(c.publishedCourseId, emails);
    expect(res.status).toBe(200);
    await t.get('/v2/enrollments/?page[size]=1', { token: tok }); // warm the token cache
    const one = await countQueries(() => t.get('/v2/enrollments/?page[size]=1&include=student,certificate', { token: tok }));
    const hundred = await countQueries(() => t.get('/v2/enrollments/?page[size]=100&include=student,certificate', { token: tok }));
    expect(hundred.result.body.data).toHaveLength(100);
    expect(hundred.count).toBe(one.count);

    const student = res.body.data[0].result.relationships.student.data.id;
    const cases = [
      '',
      `filter[student.id]=${student}`,
      `filter[student.email]=${encodeURIComponent(emails[3])}`,
      `filter[course.id]=${c.courseId}`,
      `filter[domains]=${o.domain_name}`,
      'filter[enrolled_gte]=2024-01-01T00:00:00Z',
      'filter[completed_gte]=2024-01-01T00:00:00Z',
      'filter[progress_status]=completed',
      'filter[active]=false',
    ];
    for (const q of cases) {
      const run = await countQueries(() => t.get(`/v2/enrollments/?${q}`, { token: tok }));
      expect(run.result.status).toBe(200);
      const i = run.statements.findIndex((s) => /FROM enrollments e/.test(s) && /ORDER BY e\.created_at/.test(s));
      expect({ q, found: i >= 0 }).toEqual({ q, found: true });
      const qr = t.ds.createQueryRunner();
      try {
        await qr.query('SET enable_seqscan = off');
        const plan = (await qr.query(`EXPLAIN ${run.statements[i]}`, run.params[i])).map((r: any) => r['QUERY PLAN']).join('\n');
        expect({ q, seq: /Seq Scan on (enrollments|users|published_courses|domains|course_progress|certificates|course_ratings|lessons|lesson_progress)\b/.test(plan) ? plan : false }).toEqual({
          q,
          seq: false,
        });
      } finally {
        await qr.query('RESET enable_seqscan');
        await qr.release();
      }
    }
  }, 120_000);
});
