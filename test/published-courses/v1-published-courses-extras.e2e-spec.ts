import { startTestApp, TestApp } from '../support/app';
import { insertCourse, orgUuid, publishCourse } from '../support/fixtures';
import { encodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

/** OpenAPI-only sub-resources of a published course: tags and student-group visibility overrides. */
describe('/v1 published-course tags and visibility overrides', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  const modes = () =>
    [
      ['api key', { basic: org.api_key }],
      ['bearer', { token }],
    ] as const;
  let n = 0;
  const tag = async (o: CreatedOrg, name = `Tag ${++n}`) => {
    const [r] = await t.ds.query(`INSERT INTO tags (organization_id, name, slug) VALUES ($1, $2, $3) RETURNING id`, [orgUuid(o), name, `tag-${n}-${Math.random().toString(36).slice(2, 8)}`]);
    return { uuid: r.id as string, id: encodeId('tag', r.id), name };
  };
  const group = async (o: CreatedOrg, name = `Group ${++n}`) => {
    const [r] = await t.ds.query(`INSERT INTO groups (organization_id, name) VALUES ($1, $2) RETURNING id`, [orgUuid(o), name]);
    return { uuid: r.id as string, id: encodeId('group', r.id), name };
  };
  const published = async (o: CreatedOrg = org) => {
    const pc = await publishCourse(t, o, (await insertCourse(t, o)).uuid);
    return { ...pc, base: `/v1/domains/${o.domain_name}/published-courses/${pc.id}` };
  };

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  it('tags: add (idempotent), list, read, delete; shown in include_searchable_content', async () => {
    const pc = await published();
    const a = await tag(org, 'Alpha');
    const b = await tag(org, 'Beta');
    for (const [, auth] of modes()) {
      const add = await t.post(`${pc.base}/tags`, { tag: { id: a.id } }, auth);
      expect(add.status).toBe(201);
      expect(add.body).toEqual({ tag: { id: a.id, name: 'Alpha', slug: expect.any(String) } });
    }
    await t.post(`${pc.base}/tags`, { tag: { id: b.id } }, { token });
    for (const [, auth] of modes()) {
      const list = await t.get(`${pc.base}/tags`, auth);
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(2);
      expect(list.body.results.map((r: any) => r.tag.id)).toEqual([a.id, b.id]);
      const read = await t.get(`${pc.base}/tags/${b.id}`, auth);
      expect(read.body.tag).toMatchObject({ id: b.id, name: 'Beta' });
    }
    const rich = await t.get(`${pc.base}?include_searchable_content=true`, { token });
    expect(rich.body.tags.map((x: any) => x.name)).toEqual(['Alpha', 'Beta']);
    const listRich = await t.get(
      `/v1/domains/${org.domain_name}/published-courses?include_searchable_content=true&course__id=${encodeId('course', (await t.ds.query(`SELECT course_id FROM published_courses WHERE id = $1`, [pc.uuid]))[0].course_id)}`,
      { token },
    );
    expect(listRich.body.results[0].tags.map((x: any) => x.name)).toEqual(['Alpha', 'Beta']);
    expect((await t.delete(`${pc.base}/tags/${a.id}`, { basic: org.api_key })).status).toBe(204);
    expect((await t.delete(`${pc.base}/tags/${a.id}`, { token })).status).toBe(404);
    expect((await t.delete(`${pc.base}/tags/${b.id}`, { token })).status).toBe(204);
    expect((await t.get(`${pc.base}/tags`, { token })).body.count).toBe(0);
    for (const body of [{}, { tag: null }, { tag: {} }, { tag: { id: 'tag_nope' } }, { tag: 'x' }]) {
      const res = await t.post(`${pc.base}/tags`, body, { token });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
  });

  it('visibility overrides: create (one per group, replaces the opposite), list, read, delete; feed the access rules', async () => {
    const pc = await published();
    const g1 = await group(org, 'Insiders');
    const g2 = await group(org, 'Outsiders');
    for (const [, auth] of modes()) {
      const res = await t.post(`${pc.base}/visibility-overrides`, { student_group: { id: g1.id }, is_visible: true }, auth);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ student_group: { id: g1.id, name: 'Insiders' }, is_visible: true });
    }
    const flip = await t.post(`${pc.base}/visibility-overrides`, { student_group: { id: g2.id }, is_visible: true }, { token });
    expect(flip.status).toBe(201);
    const flipped = await t.post(`${pc.base}/visibility-overrides`, { student_group: { id: g2.id }, is_visible: false }, { token });
    expect(flipped.body.is_visible).toBe(false);
    const rows = await t.ds.query(`SELECT group_id, is_visible FROM visibility_overrides WHERE published_course_id = $1 ORDER BY created_at`, [pc.uuid]);
    expect(rows).toEqual([
      { group_id: g1.uuid, is_visible: true },
      { group_id: g2.uuid, is_visible: false },
    ]);
    for (const [, auth] of modes()) {
      const list = await t.get(`${pc.base}/visibility-overrides`, auth);
      expect(list.body.results).toEqual([
        { student_group: { id: g1.id, name: 'Insiders' }, is_visible: true },
        { student_group: { id: g2.id, name: 'Outsiders' }, is_visible: false },
      ]);
      const read = await t.get(`${pc.base}/visibility-overrides/${g2.id}`, auth);
      expect(read.body).toEqual({ student_group: { id: g2.id, name: 'Outsiders' }, is_visible: false });
    }
    expect((await t.delete(`${pc.base}/visibility-overrides/${g2.id}`, { basic: org.api_key })).status).toBe(204);
    expect((await t.get(`${pc.base}/visibility-overrides/${g2.id}`, { token })).status).toBe(404);
    expect((await t.delete(`${pc.base}/visibility-overrides/${g2.id}`, { token })).status).toBe(404);
    for (const body of [{ is_visible: true }, { student_group: { id: g1.id } }, { student_group: { id: g1.id }, is_visible: 'yes' }, { student_group: { id: 'grp_nope' }, is_visible: true }]) {
      const res = await t.post(`${pc.base}/visibility-overrides`, body, { token });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
  });

  it('published-course prerequisites: add (same domain, no self, no cycles, idempotent), list, delete', async () => {
    const a = await published();
    const b = await published();
    const c = await published();
    for (const [, auth] of modes()) {
      const res = await t.post(`${a.base}/published-course-prerequisites`, { published_course: { id: b.id } }, auth);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ published_course: { id: b.id } });
    }
    await t.post(`${b.base}/published-course-prerequisites`, { published_course: { id: c.id } }, { token });
    for (const [, auth] of modes()) {
      const list = await t.get(`${a.base}/published-course-prerequisites`, auth);
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ count: 1, results: [{ published_course: { id: b.id } }] });
    }
    const cycle = await t.post(`${c.base}/published-course-prerequisites`, { published_course: { id: a.id } }, { token });
    expect(cycle.status).toBe(400);
    expect(cycle.body.published_course.id).toEqual(expect.any(Array));
    const self = await t.post(`${a.base}/published-course-prerequisites`, { published_course: { id: a.id } }, { token });
    expect(self.status).toBe(400);
    const otherDomain = await t.ds.query(`INSERT INTO domains (organization_id, name) VALUES ($1, 'elsewhere-' || md5(random()::text) || '.test') RETURNING id`, [orgUuid(org)]);
    const elsewhere = await publishCourse(t, org, (await insertCourse(t, org)).uuid, otherDomain[0].id);
    for (const body of [{}, { published_course: {} }, { published_course: { id: 'pcs_nope' } }, { published_course: { id: elsewhere.id } }]) {
      const res = await t.post(`${a.base}/published-course-prerequisites`, body, { token });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    // an unpublished prerequisite disappears from the list
    await t.delete(`/v1/domains/${org.domain_name}/published-courses/${c.id}`, { token });
    expect((await t.get(`${b.base}/published-course-prerequisites`, { token })).body.count).toBe(0);
    expect((await t.delete(`${a.base}/published-course-prerequisites/${b.id}`, { basic: org.api_key })).status).toBe(204);
    expect((await t.delete(`${a.base}/published-course-prerequisites/${b.id}`, { token })).status).toBe(404);
    expect((await t.get(`${a.base}/published-course-prerequisites`, { token })).body.count).toBe(0);
  });

  it('student-group prerequisites: add (idempotent), list, read, delete', async () => {
    const pc = await published();
    const g = await group(org, 'Certified');
    for (const [, auth] of modes()) {
      const res = await t.post(`${pc.base}/student-group-prerequisites`, { student_group: { id: g.id } }, auth);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ student_group: { id: g.id, name: 'Certified' } });
      const list = await t.get(`${pc.base}/student-group-prerequisites`, auth);
      expect(list.body).toMatchObject({ count: 1, results: [{ student_group: { id: g.id, name: 'Certified' } }] });
      const read = await t.get(`${pc.base}/student-group-prerequisites/${g.id}`, auth);
      expect(read.status).toBe(200);
    }
    for (const body of [{}, { student_group: { id: 'grp_nope' } }, { student_group: 'x' }]) {
      const res = await t.post(`${pc.base}/student-group-prerequisites`, body, { token });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await t.delete(`${pc.base}/student-group-prerequisites/${g.id}`, { token })).status).toBe(204);
    expect((await t.get(`${pc.base}/student-group-prerequisites/${g.id}`, { token })).status).toBe(404);
  });

  it('401, 403 without the published-courses scope', async () => {
    const pc = await published();
    const a = await tag(org);
    const g = await group(org);
    expect((await t.get(`${pc.base}/tags`)).status).toBe(401);
    const other = await t.tokenFor(org, ['courses:read', 'student-groups:write', 'tags:write']);
    const ro = await t.tokenFor(org, ['published-courses:read']);
    expect((await t.get(`${pc.base}/tags`, { token: other })).status).toBe(403);
    expect((await t.get(`${pc.base}/visibility-overrides`, { token: other })).status).toBe(403);
    expect((await t.get(`${pc.base}/tags`, { token: ro })).status).toBe(200);
    expect((await t.post(`${pc.base}/tags`, { tag: { id: a.id } }, { token: ro })).status).toBe(403);
    expect((await t.post(`${pc.base}/visibility-overrides`, { student_group: { id: g.id }, is_visible: true }, { token: ro })).status).toBe(403);
    expect((await t.delete(`${pc.base}/tags/${a.id}`, { token: ro })).status).toBe(403);
    expect((await t.get(`${pc.base}/student-group-prerequisites`, { token: other })).status).toBe(403);
    expect((await t.get(`${pc.base}/published-course-prerequisites`, { token: ro })).status).toBe(200);
    expect((await t.post(`${pc.base}/student-group-prerequisites`, { student_group: { id: g.id } }, { token: ro })).status).toBe(403);
    expect((await t.post(`${pc.base}/published-course-prerequisites`, { published_course: { id: pc.id } }, { token: ro })).status).toBe(403);
  });

  it('cross-organization: their published course is 404; their tag or group is 400; nothing changes', async () => {
    const other = await t.newOrg();
    const theirs = await published(other);
    const theirTag = await tag(other);
    const theirGroup = await group(other);
    await t.post(`${theirs.base}/tags`, { tag: { id: theirTag.id } }, { basic: other.api_key });
    expect((await t.get(`${theirs.base}/tags`, { token })).status).toBe(404);
    expect((await t.post(`${theirs.base}/tags`, { tag: { id: theirTag.id } }, { token })).status).toBe(404);
    expect((await t.delete(`${theirs.base}/tags/${theirTag.id}`, { token })).status).toBe(404);
    expect((await t.get(`/v1/domains/${org.domain_name}/published-courses/${theirs.id}/tags`, { token })).status).toBe(404);
    const mine = await published();
    const r1 = await t.post(`${mine.base}/tags`, { tag: { id: theirTag.id } }, { token });
    expect(r1.status).toBe(400);
    expect(r1.body.tag.id).toEqual(expect.any(Array));
    const r2 = await t.post(`${mine.base}/visibility-overrides`, { student_group: { id: theirGroup.id }, is_visible: true }, { token });
    expect(r2.status).toBe(400);
    expect((await t.post(`${mine.base}/student-group-prerequisites`, { student_group: { id: theirGroup.id } }, { token })).status).toBe(400);
    expect((await t.post(`${mine.base}/published-course-prerequisites`, { published_course: { id: theirs.id } }, { token })).status).toBe(400);
    expect((await t.get(`${theirs.base}/published-course-prerequisites`, { token })).status).toBe(404);
    expect((await t.get(`${theirs.base}/tags`, { basic: other.api_key })).body.count).toBe(1);
    const [c] = await t.ds.query(`SELECT count(*)::int AS n FROM visibility_overrides WHERE group_id = $1`, [theirGroup.uuid]);
    expect(c.n).toBe(0);
  });
});
