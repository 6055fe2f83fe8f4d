import { decodeId, encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries } from '../support/fixtures';
import { fixtures } from './v2-enrollments.helpers';

/** PATCH /v2/enrollments/ and PATCH /v2/enrollments/completion: docs/decisions/v2-enrollments.md. */
describe('PATCH /v2/enrollments/ and /v2/enrollments/completion', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let f: ReturnType<typeof fixtures>;
  const orgId = () => decodeId('organization', org.organization_id)!;
  const item = (id: string, attributes: Record<string, unknown>) => ({ type: 'enrollments', id, attributes });
  const read = async (id: string, tok = token) => (await t.get(`/v2/enrollments/${id}`, { token: tok })).body.data;
  const outcomes = (body: any) => body.data.map((d: any) => (d.status === 'failed' ? `${d.error.code} ${d.error.source.pointer}` : d.status));

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
    f = fixtures(t, org, token);
  });
  afterAll(() => t.close());

  async function enrolled(n = 1, opts: Parameters<typeof f.course>[0] = {}) {
    const c = await f.course(opts);
    const out: { id: string; student: { id: string; email: string } }[] = [];
    for (let i = 0; i < n; i++) {
      const s = await f.member();
      out.push({ id: await f.enroll(c.publishedCourseId, s.email), student: s });
    }
    return { c, enrollments: out };
  }

  describe('update', () => {
    it('401 without a token, 403 without enrollments:write; nothing changes', async () => {
      const { enrollments } = await enrolled();
      const body = { data: [item(enrollments[0].id, { active: false })] };
      expect((await t.patch('/v2/enrollments/', body)).status).toBe(401);
      expect((await t.patch('/v2/enrollments/', body, { token: await t.tokenFor(org, ['enrollments:read']) })).status).toBe(403);
      expect((await read(enrollments[0].id)).attributes.active).toBe(true);
    });

    it('sets and clears expires_at and due_at, deactivates and reactivates; omitted members stay', async () => {
      const { c, enrollments } = await enrolled(2);
      const [a, b] = enrollments.map((e) => e.id);
      const res = await t.patch('/v2/enrollments/', { data: [item(a, { expires_at: '2031-05-01T10:00:00+02:00', due_at: '2030-12-24T18:00:00Z' }), item(b, { active: false })] }, { token });
      expect(res.status).toBe(200);
      expect(res.body.summary).toEqual({ total: 2, succeeded: 2, failed: 0 });
      expect(res.body.data[0]).toEqual({
        status: 'succeeded',
        id: a,
        result: {
          type: 'enrollments',
          id: a,
          attributes: { enrolled_at: expect.any(String), expires_at: '2031-05-01T08:00:00.000Z', due_at: '2030-12-24T18:00:00.000Z', active: true },
          relationships: {
            student: { data: { type: 'students', id: enrollments[0].student.id } },
            'published-course': { data: { type: 'published-courses', id: c.publishedCourseId } },
          },
          links: { self: `${t.baseUrl}/v2/enrollments/${a}` },
        },
      });
      expect(res.body.data[1].result.attributes).toMatchObject({ active: false, expires_at: null });
      expect((await read(a)).attributes).toMatchObject({ expires_at: '2031-05-01T08:00:00.000Z', due_at: '2030-12-24T18:00:00.000Z', active: true });
      // due_at alone: expires_at untouched; null clears
      await t.patch('/v2/enrollments/', { data: [item(a, { due_at: null })] }, { token });
      expect((await read(a)).attributes).toMatchObject({ expires_at: '2031-05-01T08:00:00.000Z', due_at: null });
      await t.patch('/v2/enrollments/', { data: [item(a, { expires_at: null }), item(b, { active: true })] }, { token });
      expect((await read(a)).attributes).toMatchObject({ expires_at: null, active: true });
      expect((await read(b)).attributes.active).toBe(true);
      // /v1 reads the same
      const v1 = await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}/enrollments/${a}`, { basic: org.api_key });
      expect(v1.body).toMatchObject({ active: true });
      expect(v1.body).not.toHaveProperty('expires_at'); // /v1 leaves out an optional member without a value (issue 26)
    });

    it('per-item failures: duplicate id (first wins), unknown / malformed / over-long / other-organization id, bad members, nothing to change', async () => {
      const { enrollments } = await enrolled(5);
      const [a, b, b2, b3, b4] = enrollments.map((e) => e.id);
      const other = await t.newOrg();
      const otherToken = await t.tokenFor(other);
      const g = fixtures(t, other, otherToken);
      const oc = await g.course();
      const theirs = await g.enroll(oc.publishedCourseId, (await g.member()).email);
      const res = await t.patch(
        '/v2/enrollments/',
        {
          data: [
            item(a, { active: false }),
            item(a, { active: true }),
            item(encodeId('enrollment', newUuid()), { active: false }),
            item('enr-nope', { active: false }),
            item(theirs, { active: false }),
            item(b, { active: null }),
            item(b2, { expires_at: '2031-01-01T00:00:00' }),
            item(b3, { due_at: 'tomorrow' }),
            item(b4, {}),
            { type: 'enrollments', attributes: { active: false } },
            { type: 'students', id: b, attributes: { active: false } },
            item('a'.repeat(65), { active: false }),
          ],
        },
        { token },
      );
      expect(res.status).toBe(207);
      expect(outcomes(res.body)).toEqual([
        'succeeded',
        'duplicate_in_batch /data/1/id',
        'not_found /data/2/id',
        'not_found /data/3/id',
        'not_found /data/4/id',
        'validation_error /data/5/attributes/active',
        'validation_error /data/6/attributes/expires_at',
        'validation_error /data/7/attributes/due_at',
        'validation_error /data/8/attributes',
        'validation_error /data/9/id',
        'validation_error /data/10/type',
        'not_found /data/11/id',
      ]);
      expect((await read(a)).attributes.active).toBe(false);
      for (const id of [b, b2, b3, b4]) expect((await read(id)).attributes).toMatchObject({ active: true, expires_at: null, due_at: null });
      expect((await read(theirs, otherToken)).attributes.active).toBe(true);
      for (const body of [{ data: [] }, { data: Array.from({ length: 101 }, () => item(a, { active: true })) }, {}, { data: {} }]) {
        const r = await t.patch('/v2/enrollments/', body, { token });
        expect(r.status).toBe(400);
        expect(r.body.errors[0].code).toBe('invalid_request');
      }
    });

    it('no N+1: 100 items send as many statements as 1', async () => {
      const { enrollments } = await enrolled(100);
      const ids = enrollments.map((e) => e.id);
      await t.patch('/v2/enrollments/', { data: [item(ids[0], { active: true })] }, { token });
      const one = await countQueries(() => t.patch('/v2/enrollments/', { data: [item(ids[0], { due_at: '2030-01-01T00:00:00Z' })] }, { token }));
      const hundred = await countQueries(() => t.patch('/v2/enrollments/', { data: ids.map((id) => item(id, { due_at: '2030-01-01T00:00:00Z', active: true })) }, { token }));
      expect(hundred.result.status).toBe(200);
      expect(hundred.count).toBe(one.count);
    }, 120_000);
  });

  describe('completion', () => {
    it('401 without a token, 403 without enrollments:write; send_notifications required (422), envelope 400; nothing changes', async () => {
      const { enrollments } = await enrolled();
      const id = enrollments[0].id;
      const data = [item(id, { completed_at: '2024-01-01T00:00:00Z' })];
      expect((await t.patch('/v2/enrollments/completion', { send_notifications: false, data })).status).toBe(401);
      expect((await t.patch('/v2/enrollments/completion', { send_notifications: false, data }, { token: await t.tokenFor(org, ['enrollments:read']) })).status).toBe(403);
      for (const [body, status, pointer] of [
        [{ data }, 422, '/send_notifications'],
        [{ send_notifications: 'yes', data }, 422, '/send_notifications'],
        [{ send_notifications: null, data }, 422, '/send_notifications'],
        [{ send_notifications: true, data: [] }, 400, '/data'],
        [{ send_notifications: true }, 400, '/data'],
      ] as const) {
        const res = await t.patch('/v2/enrollments/completion', body, { token });
        expect({ body, status: res.status, pointer: res.body.errors[0].source.pointer }).toEqual({ body, status, pointer });
      }
      expect((await read(id)).attributes.completed_at).toBeNull();
    });

    it('sets a completion (certificate, COURSE_COMPLETION once), moves its date without a new event, removes it (certificate expired)', async () => {
      const { c, enrollments } = await enrolled(1, { lessons: [{}, {}] });
      const [{ id, student }] = enrollments;
      const completions = async () => (await f.events('COURSE_COMPLETION', orgId())).filter((e: any) => e.payload.user.id === student.id);
      const res = await f.complete([{ id, completed_at: '2024-06-01T08:00:00+02:00' }], true);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [{ status: 'succeeded', id, result: { type: 'enrollments', id, attributes: { completed_at: '2024-06-01T06:00:00.000Z', success_status: 'not_applicable' } } }],
        summary: { total: 1, succeeded: 1, failed: 0 },
      });
      const done = await read(id);
      expect(done.attributes).toMatchObject({ progress_status: 'completed', completed_at: '2024-06-01T06:00:00.000Z', has_certificate: true });
      const cert = await t.get(`/v2/certificates/${done.relationships.certificate.data.id}`, { token });
      expect(cert.body.data.attributes).toMatchObject({ issued_at: '2024-06-01T06:00:00.000Z', status: 'active' });
      expect(await completions()).toHaveLength(1);
      expect((await completions())[0].payload).toMatchObject({ course: { id: c.courseId, published_course_id: c.publishedCourseId }, user: { id: student.id } });
      // /v1 reads the same completion
      const v1 = await t.get(`/v1/users/${student.id}/published-courses/${c.publishedCourseId}`, { basic: org.api_key });
      expect(JSON.stringify(v1.body)).toContain('2024-06-01T06:00:00');
      // the same again: nothing new; another date: the date moves, no event
      await f.complete([{ id, completed_at: '2024-06-01T06:00:00Z' }]);
      await f.complete([{ id, completed_at: '2024-06-02T00:00:00Z' }]);
      expect(await completions()).toHaveLength(1);
      expect((await read(id)).attributes.completed_at).toBe('2024-06-02T00:00:00.000Z');
      // removed: no completion, the certificate expires (still linked)
      const removed = await f.complete([{ id, completed_at: null }]);
      expect(removed.body.data[0].result.attributes.completed_at).toBeNull();
      const after = await read(id);
      expect(after.attributes).toMatchObject({ completed_at: null, has_certificate: true });
      expect(after.attributes.progress_status).not.toBe('completed');
      expect((await t.get(`/v2/certificates/${done.relationships.certificate.data.id}`, { token })).body.data.attributes.status).toBe('expired');
      // and completing again emits again
      await f.complete([{ id, completed_at: '2024-07-01T00:00:00Z' }]);
      expect(await completions()).toHaveLength(2);
    });

    it('completing the last course of an enrolled path completes the path (PATH_COMPLETION)', async () => {
      const { c, enrollments } = await enrolled(1);
      const [{ id, student }] = enrollments;
      const pp = await t.post(`/v1/domains/${org.domain_name}/published-paths`, { slug: `p-${newUuid().slice(0, 8)}`, path: { title: 'Path' } }, { basic: org.api_key });
      await t.post(`/v1/domains/${org.domain_name}/published-paths/${pp.body.id}/path-items`, { order: 1, published_course: { id: c.publishedCourseId } }, { basic: org.api_key });
      await t.post(`/v1/domains/${org.domain_name}/published-paths/${pp.body.id}/published-path-enrollments`, { user: { id: student.id } }, { basic: org.api_key });
      expect((await f.complete([{ id, completed_at: '2024-08-01T00:00:00Z' }])).status).toBe(200);
      const paths = (await f.events('PATH_COMPLETION', orgId())).filter((e: any) => e.payload.user.id === student.id);
      expect(paths).toHaveLength(1);
    });

    it('per-item failures: unknown / malformed / over-long / other-organization id, duplicate id (first wins), bad or missing completed_at, bad success_status', async () => {
      const { enrollments } = await enrolled(5);
      const [a, b, b2, b3, b4] = enrollments.map((e) => e.id);
      const other = await t.newOrg();
      const otherToken = await t.tokenFor(other);
      const g = fixtures(t, other, otherToken);
      const theirs = await g.enroll((await g.course()).publishedCourseId, (await g.member()).email);
      const res = await t.patch(
        '/v2/enrollments/completion',
        {
          send_notifications: false,
          data: [
            item(a, { completed_at: '2024-01-01T00:00:00Z' }),
            item(a, { completed_at: null }),
            item(encodeId('enrollment', newUuid()), { completed_at: '2024-01-01T00:00:00Z' }),
            item('nope', { completed_at: '2024-01-01T00:00:00Z' }),
            item(theirs, { completed_at: '2024-01-01T00:00:00Z' }),
            item(b, { completed_at: '2024-01-01' }),
            item(b2, {}),
            item(b3, { completed_at: '2024-01-01T00:00:00Z', success_status: 'PASSED' }),
            item(b4, { success_status: 'maybe' }),
            item('a'.repeat(65), { completed_at: null }),
          ],
        },
        { token },
      );
      expect(res.status).toBe(207);
      expect(outcomes(res.body)).toEqual([
        'succeeded',
        'duplicate_in_batch /data/1/id',
        'not_found /data/2/id',
        'not_found /data/3/id',
        'not_found /data/4/id',
        'validation_error /data/5/attributes/completed_at',
        'validation_error /data/6/attributes',
        'validation_error /data/7/attributes/success_status',
        'validation_error /data/8/attributes/success_status',
        'not_found /data/9/id',
      ]);
      expect((await read(a)).attributes.completed_at).toBe('2024-01-01T00:00:00.000Z');
      for (const id of [b, b2, b3, b4]) expect((await read(id)).attributes.completed_at).toBeNull();
      expect((await read(theirs, otherToken)).attributes.completed_at).toBeNull();
    });

    it('no N+1: 100 completions send as many statements as 1', async () => {
      const { enrollments } = await enrolled(101);
      const ids = enrollments.map((e) => e.id);
      await f.complete([{ id: ids[100], completed_at: '2024-01-01T00:00:00Z' }]);
      const one = await countQueries(() => f.complete([{ id: ids[0], completed_at: '2024-01-01T00:00:00Z' }]));
      const hundred = await countQueries(() => f.complete(ids.slice(0, 100).map((id) => ({ id, completed_at: '2024-02-01T00:00:00Z' }))));
      expect(one.result.status).toBe(200);
      expect(hundred.result.status).toBe(200);
      expect(hundred.count).toBe(one.count);
    }, 120_000);
  });
});
