import { encodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, enroll, insertCourse, insertDomain, insertStudent, issueCertificate, orgUuid, publishCourse, rate } from '../support/fixtures';

describe('/v2/analytics/courses', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org, ['analytics:read']);
  });
  afterAll(() => t.close());

  it('401 without a token, 403 without analytics:read', async () => {
    const c = await insertCourse(t, org);
    expect((await t.get(`/v2/analytics/courses/${c.id}`)).status).toBe(401);
    expect((await t.get(`/v2/analytics/courses/${c.id}/ratings/`)).status).toBe(401);
    const courses = await t.tokenFor(org, ['courses:read']);
    expect((await t.get(`/v2/analytics/courses/${c.id}`, { token: courses })).status).toBe(403);
    expect((await t.get(`/v2/analytics/courses/${c.id}/ratings/`, { token: courses })).status).toBe(403);
  });

  it('404 for other-organization, deleted, draft and undecodable course ids (summary and ratings)', async () => {
    const theirs = await insertCourse(t, other);
    const gone = await insertCourse(t, org, { deleted: true });
    const draft = await insertCourse(t, org, { is_draft: true });
    const stu = await insertStudent(t, org);
    for (const id of [theirs.id, gone.id, draft.id, 'nope', stu.id]) {
      const a = await t.get(`/v2/analytics/courses/${id}`, { token });
      expect(a.status).toBe(404);
      expect(a.body.errors[0].code).toBe('not_found');
      expect((await t.get(`/v2/analytics/courses/${id}/ratings/`, { token })).status).toBe(404);
    }
    const theirToken = await t.tokenFor(other, ['analytics:read']);
    expect((await t.get(`/v2/analytics/courses/${theirs.id}`, { token: theirToken })).status).toBe(200);
  });

  it('counts enrollments, in-progress, completions, completion rate, ratings on the active scale and certificates', async () => {
    const o = await t.newOrg();
    const tk = await t.tokenFor(o, ['analytics:read']);
    const c = await insertCourse(t, o);
    const empty = await insertCourse(t, o);
    const d1 = await insertDomain(t, o, `one-${Date.now()}.test`);
    const d2 = await insertDomain(t, o, `two-${Date.now()}.test`);
    const p1 = await publishCourse(t, o, c.uuid, d1.uuid);
    const p2 = await publishCourse(t, o, c.uuid, d2.uuid);
    const s = await Promise.all([1, 2, 3, 4, 5].map(() => insertStudent(t, o)));
    const e0 = await enroll(t, o, s[0].uuid, p1, { completed: true });
    await enroll(t, o, s[1].uuid, p1, { started: true });
    await enroll(t, o, s[2].uuid, p1);
    const e3 = await enroll(t, o, s[3].uuid, p2, { completed: true });
    await enroll(t, o, s[4].uuid, p2, { started: true });
    await rate(t, o, c.uuid, s[0].uuid, 5, { enrollment_uuid: e0.uuid });
    await rate(t, o, c.uuid, s[3].uuid, 2, { enrollment_uuid: e3.uuid });
    await rate(t, o, c.uuid, s[1].uuid, 4); // no enrollment id: tied to the student's enrollment
    await t.ds.query(`INSERT INTO course_ratings (organization_id, course_id, user_id, rating, scale_max) VALUES ($1, $2, $3, 9, 10)`, [orgUuid(o), c.uuid, s[2].uuid]);
    await issueCertificate(t, o, s[0].uuid, c.uuid, { published_uuid: p1.uuid });
    await issueCertificate(t, o, s[3].uuid, c.uuid);
    // another organization's rows never count
    const oc = await insertCourse(t, other);
    const op = await publishCourse(t, other, oc.uuid);
    await enroll(t, other, (await insertStudent(t, other)).uuid, op, { completed: true });

    const res = await t.get(`/v2/analytics/courses/${c.id}`, { token: tk });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      type: 'course-analytics',
      id: c.id,
      attributes: {
        enrollments: 5,
        in_progress: 2,
        completions: 2,
        completion_rate: 0.4,
        average_rating: 3.67,
        rating_scale: 5,
        rating_count: 3,
        certificates_issued: 2,
      },
      relationships: { course: { data: { type: 'courses', id: c.id } } },
    });

    // filter[domains]: only enrollments on those domains, and the ratings/certificates tied to them
    const only1 = await t.get(`/v2/analytics/courses/${c.id}?filter[domains]=${d1.name.toUpperCase()}`, { token: tk });
    expect(only1.body.data.attributes).toEqual({
      enrollments: 3,
      in_progress: 1,
      completions: 1,
      completion_rate: 0.3333,
      average_rating: 4.5,
      rating_scale: 5,
      rating_count: 2,
      certificates_issued: 1,
    });
    const both = await t.get(`/v2/analytics/courses/${c.id}?filter[domains]=${encodeURIComponent(`${d1.name}, ${d2.name},unknown.test`)}`, { token: tk });
    expect(both.body.data.attributes).toEqual(res.body.data.attributes);
    const theirDomain = (await t.ds.query(`SELECT name FROM domains WHERE organization_id = $1 LIMIT 1`, [orgUuid(other)]))[0].name;
    for (const names of ['unknown.test', theirDomain, '%', "'; DROP TABLE x; --"]) {
      const none = await t.get(`/v2/analytics/courses/${c.id}?filter[domains]=${encodeURIComponent(names)}`, { token: tk });
      expect(none.status).toBe(200);
      expect(none.body.data.attributes).toMatchObject({ enrollments: 0, completions: 0, completion_rate: null, average_rating: null, rating_count: 0, certificates_issued: 0 });
    }

    // the organization's active scale decides which ratings count
    await t.ds.query(`UPDATE organizations SET rating_scale = 10 WHERE id = $1`, [orgUuid(o)]);
    const ten = await t.get(`/v2/analytics/courses/${c.id}`, { token: tk });
    expect(ten.body.data.attributes).toMatchObject({ rating_scale: 10, rating_count: 1, average_rating: 9 });

    const zero = await t.get(`/v2/analytics/courses/${empty.id}`, { token: tk });
    expect(zero.body.data.attributes).toEqual({
      enrollments: 0,
      in_progress: 0,
      completions: 0,
      completion_rate: null,
      average_rating: null,
      rating_scale: 10,
      rating_count: 0,
      certificates_issued: 0,
    });

    expect((await t.get(`/v2/analytics/courses/${c.id}?filter[domains]=a&filter[domains]=b`, { token: tk })).status).toBe(422);
    const { count } = await countQueries(() => t.get(`/v2/analytics/courses/${c.id}?filter[domains]=${d1.name}`, { token: tk }));
    expect(count).toBeLessThanOrEqual(3); // the token's client check + one statement
  });

  describe('ratings', () => {
    it('lists the course ratings most recent first with cursor pages', async () => {
      const c = await insertCourse(t, org);
      const s = await insertStudent(t, org);
      const base = Date.parse('2025-01-01T00:00:00Z');
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await rate(t, org, c.uuid, s.uuid, (i % 5) + 1, { created_at: new Date(base + i * 1000), feedback: i ? `f${i}` : undefined })).id);
      await rate(t, org, (await insertCourse(t, org)).uuid, s.uuid, 3); // another course
      const seen: any[] = [];
      let url: string | null = `/v2/analytics/courses/${c.id}/ratings/?page[size]=2`;
      while (url) {
        const res: any = await t.get(url, { token });
        expect(res.status).toBe(200);
        seen.push(...res.body.data);
        url = res.body.links.next ? new URL(res.body.links.next).pathname + new URL(res.body.links.next).search : null;
      }
      expect(seen.map((r) => r.id)).toEqual([...ids].reverse());
      expect(seen[0]).toEqual({
        type: 'course-ratings',
        id: ids[4],
        attributes: { rating: 5, scale_max: 5, feedback: 'f4', created_at: new Date(base + 4000).toISOString() },
        relationships: { student: { data: { type: 'students', id: s.id } }, course: { data: { type: 'courses', id: c.id } } },
      });
      expect(seen[4].attributes.feedback).toBeNull();
      // a cursor of one course's ratings is refused on another course
      const first = await t.get(`/v2/analytics/courses/${c.id}/ratings/?page[size]=1`, { token });
      const cursor = new URL(first.body.links.next).searchParams.get('page[cursor]')!;
      const c2 = await insertCourse(t, org);
      expect((await t.get(`/v2/analytics/courses/${c2.id}/ratings/?page[cursor]=${encodeURIComponent(cursor)}`, { token })).status).toBe(400);
      expect((await t.get(`/v2/analytics/courses/${c.id}/ratings/?page[size]=0`, { token })).status).toBe(422);
    });

    it('filter[student.id]: only that student; unknown, malformed or foreign ids give an empty page', async () => {
      const c = await insertCourse(t, org);
      const a = await insertStudent(t, org);
      const b = await insertStudent(t, org);
      const ra = await rate(t, org, c.uuid, a.uuid, 4);
      await rate(t, org, c.uuid, b.uuid, 2);
      const theirs = await insertStudent(t, other);
      const q = async (v: string) => {
        const res = await t.get(`/v2/analytics/courses/${c.id}/ratings/?filter[student.id]=${encodeURIComponent(v)}`, { token });
        expect(res.status).toBe(200);
        return res.body.data.map((d: any) => d.id);
      };
      expect(await q(a.id)).toEqual([ra.id]);
      for (const v of [theirs.id, 'garbage', c.id, encodeId('student', '00000000-0000-4000-8000-000000000000'), '']) expect(await q(v)).toEqual([]);
      expect((await t.get(`/v2/analytics/courses/${c.id}/ratings/?filter[student.id]=${a.id}&filter[student.id]=${b.id}`, { token })).status).toBe(422);
    });
  });
});
