import { decodeId, encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries } from '../support/fixtures';
import { fixtures } from './v2-enrollments.helpers';

/** POST /v2/enrollments/ (bulk-enroll): docs/decisions/v2-enrollments.md. */
describe('POST /v2/enrollments/ (bulk-enroll)', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let f: ReturnType<typeof fixtures>;
  const orgId = () => decodeId('organization', org.organization_id)!;
  const count = async (sql: string, params: unknown[]) => (await t.ds.query(sql, params))[0].n as number;
  const enrollmentsOf = (studentId: string) => count(`SELECT count(*)::int AS n FROM enrollments WHERE user_id = $1`, [decodeId('student', studentId)]);

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
    f = fixtures(t, org, token);
  });
  afterAll(() => t.close());

  it('401 without a token, 403 without enrollments:write; nothing written', async () => {
    const c = await f.course();
    const m = await f.member();
    const body = { published_course_id: c.publishedCourseId, data: [{ type: 'enrollments', attributes: { email: m.email } }] };
    expect((await t.post('/v2/enrollments/', body)).status).toBe(401);
    for (const scopes of [['enrollments:read'], ['students:write', 'student-groups:write']]) {
      const res = await t.post('/v2/enrollments/', body, { token: await t.tokenFor(org, scopes) });
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('forbidden');
    }
    expect(await enrollmentsOf(m.id)).toBe(0);
  });

  it('enrolls domain members: 200, the published write resource, the top-level expires_at, course progress and one COURSE_ENROLLMENT each', async () => {
    const c = await f.course({ title: 'Bulk 101' });
    const [a, b] = [await f.member(), await f.member()];
    const before = (await f.events('COURSE_ENROLLMENT', orgId())).length;
    const res = await f.bulk(c.publishedCourseId, [a.email.toUpperCase(), b.email], { expires_at: '2031-02-03T04:05:06+02:00' });
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({ total: 2, succeeded: 2, failed: 0 });
    const [ra, rb] = res.body.data;
    expect(ra).toEqual({
      status: 'succeeded',
      id: ra.result.id,
      result: {
        type: 'enrollments',
        id: expect.stringMatching(/^enr[0-9a-z]{25}$/),
        attributes: { enrolled_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/), expires_at: '2031-02-03T02:05:06.000Z', due_at: null, active: true },
        relationships: {
          student: { data: { type: 'students', id: a.id } },
          'published-course': { data: { type: 'published-courses', id: c.publishedCourseId } },
        },
        links: { self: `${t.baseUrl}/v2/enrollments/${ra.id}` },
      },
    });
    expect(rb.result.relationships.student.data.id).toBe(b.id);
    // readable on /v2 and on /v1 (one enrollment, two interfaces)
    const read = await t.get(`/v2/enrollments/${ra.id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body.data.attributes).toMatchObject({ expires_at: '2031-02-03T02:05:06.000Z', active: true, progress_status: 'not_started', domain_name: org.domain_name });
    const v1 = await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}/enrollments/${ra.id}`, { basic: org.api_key });
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({ id: ra.id, user: { id: a.id }, active: true, expires_at: '2031-02-03T02:05:06.000Z' });
    // each has its course progress (made in the enrolling transaction)
    expect(
      await count(`SELECT count(*)::int AS n FROM course_progress WHERE user_id = ANY($1::uuid[]) AND published_course_id = $2`, [
        [decodeId('student', a.id), decodeId('student', b.id)],
        decodeId('publishedCourse', c.publishedCourseId),
      ]),
    ).toBe(2);
    const events = (await f.events('COURSE_ENROLLMENT', orgId())).slice(before);
    expect(events).toHaveLength(2);
    expect(events.map((e: any) => e.payload.user.id).sort()).toEqual([a.id, b.id].sort());
    expect(events[0].payload).toMatchObject({
      event_type: 'COURSE_ENROLLMENT',
      course: { id: c.courseId, published_course_id: c.publishedCourseId, title: 'Bulk 101', url: expect.stringContaining(`https://${org.domain_name}/`) },
      domain: { id: expect.stringMatching(/^dom/), name: org.domain_name },
      purchase: expect.objectContaining({ price_cents: 0, state: 'SUCCESS', payment_processor: 'NONE' }), // the registration's $0 purchase
      domain_access_code: null,
    });
    // without expires_at: no expiry
    const m = await f.member();
    const open = await f.bulk(c.publishedCourseId, [m.email]);
    expect(open.body.data[0].result.attributes.expires_at).toBeNull();
  });

  it('per-progress courses get one course progress per enrollment', async () => {
    const c = await f.course({ published: { unique_progress_per_enrollment: true } });
    const m = await f.member();
    const id = await f.enroll(c.publishedCourseId, m.email);
    const rows = await t.ds.query(`SELECT enrollment_id FROM course_progress WHERE user_id = $1`, [decodeId('student', m.id)]);
    expect(rows).toEqual([{ enrollment_id: decodeId('enrollment', id) }]);
  });

  it('request-level errors: envelope 400, member types 422, past expires_at 400, unknown published course 404; nothing written', async () => {
    const c = await f.course();
    const m = await f.member();
    const other = await t.newOrg();
    const otherCourse = await fixtures(t, other, await t.tokenFor(other)).course();
    const item = { type: 'enrollments', attributes: { email: m.email } };
    const pc = c.publishedCourseId;
    const cases: [unknown, number, string, string?][] = [
      [{ published_course_id: pc, data: [] }, 400, 'invalid_request', '/data'],
      [{ published_course_id: pc, data: Array.from({ length: 101 }, () => item) }, 400, 'invalid_request', '/data'],
      [{ published_course_id: pc }, 400, 'invalid_request', '/data'],
      [{ published_course_id: pc, data: 'x' }, 400, 'invalid_request', '/data'],
      [{ data: [item] }, 422, 'validation_error', '/published_course_id'],
      [{ published_course_id: 12, data: [item] }, 422, 'validation_error', '/published_course_id'],
      [{ published_course_id: pc, expires_at: 'soon', data: [item] }, 422, 'validation_error', '/expires_at'],
      [{ published_course_id: pc, expires_at: '2031-01-01T00:00:00', data: [item] }, 422, 'validation_error', '/expires_at'],
      [{ published_course_id: pc, expires_at: 5, data: [item] }, 422, 'validation_error', '/expires_at'],
      [{ published_course_id: pc, expires_at: '2020-01-01T00:00:00Z', data: [item] }, 400, 'invalid_request', '/expires_at'],
      [{ published_course_id: 'pcs-nope', data: [item] }, 404, 'not_found'],
      [{ published_course_id: encodeId('publishedCourse', newUuid()), data: [item] }, 404, 'not_found'],
      [{ published_course_id: otherCourse.publishedCourseId, data: [item] }, 404, 'not_found'],
    ];
    for (const [body, status, code, pointer] of cases) {
      const res = await t.post('/v2/enrollments/', body, { token });
      expect({ body, status: res.status, code: res.body.errors?.[0]?.code }).toEqual({ body, status, code });
      if (pointer) expect(res.body.errors[0].source).toEqual({ pointer });
    }
    // an unpublished course is not found either
    expect((await t.request('DELETE', `/v1/domains/${org.domain_name}/published-courses/${pc}`, { basic: org.api_key })).status).toBe(204);
    expect((await f.bulk(pc, [m.email])).status).toBe(404);
    expect(await enrollmentsOf(m.id)).toBe(0);
  });

  it('per-item outcomes: duplicate emails (first wins), unknown, malformed, wrong type, not in the domain, already enrolled', async () => {
    const c = await f.course();
    const d2 = await f.domain();
    const [m1, m2] = [await f.member(), await f.member()];
    const elsewhere = await f.member(d2); // a member of another domain of the organization only
    const loner = await f.student(); // on no domain
    const other = await t.newOrg();
    const foreign = await fixtures(t, other, await t.tokenFor(other)).member();
    const preEnrolled = await f.member();
    await f.enroll(c.publishedCourseId, preEnrolled.email);
    const before = (await f.events('COURSE_ENROLLMENT', orgId())).length;
    const res = await t.post(
      '/v2/enrollments/',
      {
        published_course_id: c.publishedCourseId,
        data: [
          { type: 'enrollments', attributes: { email: m1.email } },
          { type: 'enrollments', attributes: { email: ` ${m1.email.toUpperCase()}`.trim() } },
          { type: 'enrollments', attributes: { email: 'nobody@example.test' } },
          { type: 'enrollments', attributes: { email: 'not-an-email' } },
          { type: 'students', attributes: { email: m2.email } },
          { type: 'enrollments', attributes: {} },
          { type: 'enrollments', attributes: { email: elsewhere.email } },
          { type: 'enrollments', attributes: { email: loner.email } },
          { type: 'enrollments', attributes: { email: foreign.email } },
          { type: 'enrollments', attributes: { email: preEnrolled.email } },
          { type: 'enrollments', attributes: { email: m2.email } },
        ],
      },
      { token },
    );
    expect(res.status).toBe(207);
    const outcome = res.body.data.map((d: any) => (d.status === 'succeeded' ? 'ok' : `${d.error.code} ${d.error.source.pointer}`));
    expect(outcome).toEqual([
      'ok',
      'duplicate_in_batch /data/1/attributes/email',
      'not_found /data/2/attributes/email',
      'validation_error /data/3/attributes/email',
      'validation_error /data/4/type',
      'validation_error /data/5/attributes/email',
      'not_in_domain /data/6/attributes/email',
      'not_in_domain /data/7/attributes/email',
      'not_found /data/8/attributes/email',
      'already_enrolled /data/9/attributes/email',
      'ok',
    ]);
    expect(res.body.data[1]).toEqual({ status: 'failed', id: null, error: { code: 'duplicate_in_batch', detail: expect.any(String), source: { pointer: '/data/1/attributes/email' } } });
    expect(res.body.summary).toEqual({ total: 11, succeeded: 2, failed: 9 });
    expect((await f.events('COURSE_ENROLLMENT', orgId())).length).toBe(before + 2);
    for (const s of [elsewhere, loner, foreign]) expect(await enrollmentsOf(s.id)).toBe(0);
    expect(await enrollmentsOf(preEnrolled.id)).toBe(1);
  });

  it('an anonymized student cannot be enrolled (their email no longer names anyone)', async () => {
    const c = await f.course();
    const m = await f.member();
    const anon = await t.post(`/v2/students/${m.id}/anonymize/`, {}, { token, headers: { 'x-confirm-destructive': 'true' } });
    expect(anon.status).toBe(204);
    const res = await f.bulk(c.publishedCourseId, [m.email]);
    expect(res.status).toBe(207);
    expect(res.body.data[0].error.code).toBe('not_found');
    expect(await enrollmentsOf(m.id)).toBe(0);
  });

  it('reactivates an inactive or expired enrollment (same id, the request expires_at, no second COURSE_ENROLLMENT)', async () => {
    const c = await f.course();
    const [m, n] = [await f.member(), await f.member()];
    const [em, en] = [await f.enroll(c.publishedCourseId, m.email), await f.enroll(c.publishedCourseId, n.email, { expires_at: '2031-01-01T00:00:00Z' })];
    const off = await t.patch(
      '/v2/enrollments/',
      {
        data: [
          { type: 'enrollments', id: em, attributes: { active: false } },
          { type: 'enrollments', id: en, attributes: { expires_at: '2021-01-01T00:00:00Z' } },
        ],
      },
      { token },
    );
    expect(off.status).toBe(200);
    expect(off.body.data.map((d: any) => d.result.attributes.active)).toEqual([false, false]);
    const before = (await f.events('COURSE_ENROLLMENT', orgId())).length;
    const again = await f.bulk(c.publishedCourseId, [m.email, n.email], { expires_at: '2032-01-01T00:00:00Z' });
    expect(again.status).toBe(200);
    expect(again.body.data.map((d: any) => d.id)).toEqual([em, en]);
    expect(again.body.data.map((d: any) => d.result.attributes)).toEqual([
      expect.objectContaining({ active: true, expires_at: '2032-01-01T00:00:00.000Z' }),
      expect.objectContaining({ active: true, expires_at: '2032-01-01T00:00:00.000Z' }),
    ]);
    expect(await enrollmentsOf(m.id)).toBe(1);
    expect((await f.events('COURSE_ENROLLMENT', orgId())).length).toBe(before);
    // and now they are live: already_enrolled
    expect((await f.bulk(c.publishedCourseId, [m.email])).body.data[0].error.code).toBe('already_enrolled');
  });

  it('/v1 and /v2 agree: a /v1 enrollment makes the student already_enrolled on /v2, a /v2 one is returned by /v1 create', async () => {
    const c = await f.course();
    const [a, b] = [await f.member(), await f.member()];
    const base = `/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}/enrollments`;
    const v1 = await t.post(base, { user: { id: a.id } }, { basic: org.api_key });
    expect(v1.status).toBe(201);
    expect((await f.bulk(c.publishedCourseId, [a.email])).body.data[0].error).toMatchObject({ code: 'already_enrolled', detail: expect.stringContaining(v1.body.id) });
    const id = await f.enroll(c.publishedCourseId, b.email);
    const again = await t.post(base, { user: { id: b.id } }, { basic: org.api_key });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(id);
  });

  it('concurrency: parallel bulk-enrolls (and /v1 creates) of the same students make one enrollment each, without deadlock', async () => {
    const c = await f.course();
    const students = [];
    for (let i = 0; i < 6; i++) students.push(await f.member());
    const emails = students.map((s) => s.email);
    const before = (await f.events('COURSE_ENROLLMENT', orgId())).length;
    const base = `/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}/enrollments`;
    const results = await Promise.all([
      f.bulk(c.publishedCourseId, emails),
      f.bulk(c.publishedCourseId, [...emails].reverse()),
      f.bulk(c.publishedCourseId, [emails[3], emails[0], emails[5]]),
      f.bulk(c.publishedCourseId, emails),
      t.post(base, { user: { id: students[2].id } }, { basic: org.api_key }),
      t.post(base, { user: { id: students[4].id } }, { basic: org.api_key }),
    ]);
    for (const r of results.slice(0, 4)) {
      expect([200, 207]).toContain(r.status);
      for (const d of r.body.data) expect(d.status === 'succeeded' || d.error.code === 'already_enrolled').toBe(true);
    }
    for (const s of students) expect(await enrollmentsOf(s.id)).toBe(1);
    const succeeded = results.slice(0, 4).flatMap((r) => r.body.data.filter((d: any) => d.status === 'succeeded'));
    const v1Created = results.slice(4).filter((r) => r.status === 201).length;
    expect(succeeded.length + v1Created).toBe(6);
    expect((await f.events('COURSE_ENROLLMENT', orgId())).length).toBe(before + 6);
    expect(await count(`SELECT count(*)::int AS n FROM course_progress WHERE published_course_id = $1`, [decodeId('publishedCourse', c.publishedCourseId)])).toBe(6);
  });

  it('no N+1: a 100-item batch sends as many statements as a 1-item batch', async () => {
    const c = await f.course();
    const emails: string[] = [];
    for (let i = 0; i < 101; i++) emails.push((await f.member()).email);
    await f.bulk(c.publishedCourseId, [emails[100]]); // warm the token and the caches
    const one = await countQueries(() => f.bulk(c.publishedCourseId, [emails[0]]));
    expect(one.result.status).toBe(200);
    const hundred = await countQueries(() => f.bulk(c.publishedCourseId, emails.slice(1, 101).slice(0, 99).concat([emails[0]])));
    expect(hundred.result.status).toBe(207); // the last one is already enrolled
    expect(hundred.result.body.summary).toEqual({ total: 100, succeeded: 99, failed: 1 });
    expect(hundred.count).toBe(one.count);
  }, 120_000);
});
