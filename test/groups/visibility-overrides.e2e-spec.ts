import { Client } from 'pg';
import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { insertCourse, orgUuid, publishCourse } from '../support/fixtures';

/** Count the SQL statements the pg driver really sends while `fn` runs. */
async function countQueries<T>(fn: () => Promise<T>): Promise<{ result: T; count: number; sql: string[] }> {
  const proto = Client.prototype as any;
  const original = proto.query;
  const sql: string[] = [];
  proto.query = function (...args: any[]) {
    sql.push(typeof args[0] === 'string' ? args[0] : String(args[0]?.text ?? args[0]));
    return original.apply(this, args);
  };
  try {
    const result = await fn();
    return { result, count: sql.length, sql };
  } finally {
    proto.query = original;
  }
}

const ov = (published_course_id: unknown, is_visible?: unknown) => ({
  type: 'visibility-overrides',
  attributes: is_visible === undefined ? { published_course_id } : { published_course_id, is_visible },
});
const path = (groupId: string) => `/v2/groups/${groupId}/relationships/published-course-visibility/`;

describe('/v2/groups/{id}/relationships/published-course-visibility/', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let readOnly: string;
  let otherToken: string;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org, ['student-groups:read', 'student-groups:write']);
    readOnly = await t.tokenFor(org, ['student-groups:read']);
    otherToken = await t.tokenFor(other, ['student-groups:read', 'student-groups:write']);
  });
  afterAll(() => t.close());

  async function newGroup(tok = token, name = `G ${newUuid().slice(0, 8)}`): Promise<{ id: string; uuid: string }> {
    const res = await t.post('/v2/groups/', { data: [{ type: 'groups', attributes: { name } }] }, { token: tok });
    expect(res.status).toBe(200);
    const id = res.body.data[0].id as string;
    const uuid = (await t.ds.query(`SELECT id FROM groups WHERE name = $1`, [name]))[0].id;
    return { id, uuid };
  }
  async function newPublished(o: CreatedOrg = org) {
    const c = await insertCourse(t, o);
    return publishCourse(t, o, c.uuid);
  }
  const rows = (groupUuid: string) => t.ds.query(`SELECT published_course_id, is_visible, organization_id FROM visibility_overrides WHERE group_id = $1 ORDER BY created_at, id`, [groupUuid]);

  describe('auth', () => {
    it('401 without a token, 403 without the scope', async () => {
      const g = await newGroup();
      const pc = await newPublished();
      const body = { data: [ov(pc.id)] };
      expect((await t.get(path(g.id))).status).toBe(401);
      expect((await t.post(path(g.id), body)).status).toBe(401);
      expect((await t.request('DELETE', path(g.id), { body })).status).toBe(401);
      const none = await t.tokenFor(org, ['students:read']);
      expect((await t.get(path(g.id), { token: none })).status).toBe(403);
      const post = await t.post(path(g.id), body, { token: readOnly });
      expect(post.status).toBe(403);
      expect(post.body.errors[0].code).toBe('forbidden');
      expect((await t.request('DELETE', path(g.id), { token: readOnly, body })).status).toBe(403);
      expect(await rows(g.uuid)).toHaveLength(0);
    });
  });

  describe('add', () => {
    it('adds allowlist and blocklist rows; is_visible defaults to true', async () => {
      const g = await newGroup();
      const [p1, p2] = [await newPublished(), await newPublished()];
      const res = await t.post(path(g.id), { data: [ov(p1.id), ov(p2.id, false), ov(p1.id, false)] }, { token });
      expect(res.status).toBe(200);
      expect(res.body.summary).toEqual({ total: 3, succeeded: 3, failed: 0 });
      const [a, b, c] = res.body.data;
      expect(a).toEqual({
        status: 'succeeded',
        id: a.result.id,
        result: {
          type: 'visibility-overrides',
          id: expect.stringMatching(/^[0-9a-z]+$/),
          attributes: { published_course_id: p1.id, is_visible: true, created_at: expect.any(String), updated_at: expect.any(String) },
        },
      });
      expect(b.result.attributes).toMatchObject({ published_course_id: p2.id, is_visible: false });
      expect(c.result.attributes).toMatchObject({ published_course_id: p1.id, is_visible: false });
      expect(new Set([a.id, b.id, c.id]).size).toBe(3);
      const stored = await rows(g.uuid);
      expect(stored).toHaveLength(3);
      expect(stored.every((r: any) => r.organization_id === orgUuid(org))).toBe(true);
    });

    it('is idempotent: an existing tuple succeeds with the same resource and no new row', async () => {
      const g = await newGroup();
      const pc = await newPublished();
      const first = await t.post(path(g.id), { data: [ov(pc.id, true)] }, { token });
      const again = await t.post(path(g.id), { data: [ov(pc.id, true)] }, { token });
      expect(again.status).toBe(200);
      expect(again.body.data[0]).toEqual(first.body.data[0]);
      expect(await rows(g.uuid)).toHaveLength(1);
    });

    it('duplicate tuples in one batch: first wins, pointer at attributes/published_course_id', async () => {
      const g = await newGroup();
      const pc = await newPublished();
      const res = await t.post(path(g.id), { data: [ov(pc.id), ov(pc.id, true), ov(pc.id, false)] }, { token });
      expect(res.status).toBe(207);
      expect(res.body.data[0].status).toBe('succeeded');
      expect(res.body.data[1]).toEqual({
        status: 'failed',
        id: null,
        error: { code: 'duplicate_in_batch', detail: expect.any(String), source: { pointer: '/data/1/attributes/published_course_id' } },
      });
      expect(res.body.data[2].status).toBe('succeeded'); // (pc, false) is a different tuple
      expect(await rows(g.uuid)).toHaveLength(2);
    });

    it('unknown, undecodable, unpublished and other-organization published courses are not_found; bad items are validation errors', async () => {
      const g = await newGroup();
      const theirs = await newPublished(other);
      const ok = await newPublished();
      const unpublished = await newPublished();
      await t.ds.query(`UPDATE published_courses SET unpublished_at = now() WHERE id = $1`, [unpublished.uuid]);
      const course = await insertCourse(t, org);
      const res = await t.post(
        path(g.id),
        {
          data: [
            ov(theirs.id),
            ov(encodeId('publishedCourse', newUuid())),
            ov('pcs_garbage'),
            ov(course.id), // a course id is not a published-course id
            ov(unpublished.id),
            ov(ok.id, 'yes'),
            ov(ok.id, null),
            ov(42),
            ov('x'.repeat(65)),
            { type: 'visibility-overrides' },
            { type: 'visibility-overrides', attributes: [] },
            { type: 'groups', attributes: { published_course_id: ok.id } },
            'str',
            ov(ok.id, false),
          ],
        },
        { token },
      );
      expect(res.status).toBe(207);
      const e = (i: number) => res.body.data[i].error;
      for (const i of [0, 1, 2, 3, 4]) expect(e(i)).toMatchObject({ code: 'not_found', source: { pointer: `/data/${i}/attributes/published_course_id` } });
      expect(e(5)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/5/attributes/is_visible' } });
      expect(e(6)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/6/attributes/is_visible' } });
      expect(e(7)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/7/attributes/published_course_id' } });
      // too long to be ours: names no published course, so not_found like any unknown id (v2-api.md rule 4)
      expect(e(8)).toMatchObject({ code: 'not_found', source: { pointer: '/data/8/attributes/published_course_id' } });
      expect(e(9)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/9/attributes' } });
      expect(e(10)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/10/attributes' } });
      expect(e(11)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/11/type' } });
      expect(e(12)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/12' } });
      expect(res.body.data[13].status).toBe('succeeded');
      const stored = await rows(g.uuid);
      expect(stored).toEqual([{ published_course_id: ok.uuid, is_visible: false, organization_id: orgUuid(org) }]);
      expect(await t.ds.query(`SELECT 1 FROM visibility_overrides WHERE published_course_id = $1`, [theirs.uuid])).toHaveLength(0);
    });

    it('rule 9: a group not in the caller’s organization is 404 before the envelope check', async () => {
      const theirs = await newGroup(otherToken);
      const pc = await newPublished();
      for (const g of [theirs.id, encodeId('group', newUuid()), 'garbage', encodeId('student', newUuid())]) {
        for (const body of [{ data: [ov(pc.id)] }, { data: [] }, { data: Array.from({ length: 101 }, () => ov(pc.id)) }, { nope: true }, undefined]) {
          const res = await t.request('POST', path(g), { token, body });
          expect(res.status).toBe(404);
          expect(res.body.errors[0].code).toBe('not_found');
        }
      }
      expect(await rows(theirs.uuid)).toHaveLength(0);
      // for a group of the caller, the same bodies are 400
      const mine = await newGroup();
      expect((await t.post(path(mine.id), { data: [] }, { token })).status).toBe(400);
      expect((await t.post(path(mine.id), { data: Array.from({ length: 101 }, () => ov(pc.id)) }, { token })).status).toBe(400);
      expect((await t.post(path(mine.id), { nope: true }, { token })).status).toBe(400);
      expect((await t.request('POST', path(mine.id), { token })).status).toBe(400);
    });
  });

  describe('list', () => {
    let g: { id: string; uuid: string };
    let pcs: { id: string; uuid: string }[];
    let added: any[];

    beforeAll(async () => {
      g = await newGroup();
      pcs = [];
      for (let i = 0; i < 4; i++) pcs.push(await newPublished());
      const res = await t.post(path(g.id), { data: [ov(pcs[0].id), ov(pcs[1].id, false), ov(pcs[2].id), ov(pcs[0].id, false), ov(pcs[3].id)] }, { token });
      expect(res.status).toBe(200);
      added = res.body.data.map((d: any) => d.result);
      // another group of the same org with a row for the same course: never listed here
      const g2 = await newGroup();
      await t.post(path(g2.id), { data: [ov(pcs[0].id)] }, { token });
    });

    it('pages through the group’s overrides in a stable order', async () => {
      const seen: any[] = [];
      let url: string | null = `${path(g.id)}?page[size]=2`;
      while (url) {
        const res: any = await t.get(url.replace(t.baseUrl, ''), { token: readOnly });
        expect(res.status).toBe(200);
        expect(res.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.data);
        url = res.body.links.next;
      }
      expect(seen).toHaveLength(5);
      expect(new Set(seen.map((o) => o.id))).toEqual(new Set(added.map((o) => o.id)));
      const all = await t.get(path(g.id), { token: readOnly });
      expect(all.body.data).toEqual(seen);
      expect(all.body).toMatchObject({ has_more: false, next_cursor: null, meta: { page_size: 25 }, links: { next: null } });
    });

    it('filter[is_visible] true / false / omitted; anything else is 422', async () => {
      const vis = (await t.get(`${path(g.id)}?filter[is_visible]=true`, { token })).body.data;
      expect(vis).toHaveLength(3);
      expect(vis.every((o: any) => o.attributes.is_visible === true)).toBe(true);
      const hidden = (await t.get(`${path(g.id)}?filter[is_visible]=false`, { token })).body.data;
      expect(hidden.map((o: any) => o.attributes.published_course_id).sort()).toEqual([pcs[0].id, pcs[1].id].sort());
      for (const v of ['yes', '1', 'TRUE', '']) {
        const res = await t.get(`${path(g.id)}?filter[is_visible]=${v}`, { token });
        expect(res.status).toBe(422);
        expect(res.body.errors[0]).toMatchObject({ code: 'validation_error', source: { parameter: 'filter[is_visible]' } });
      }
    });

    it('filter[published_course_id]: that course’s rows; undecodable, other-org or over-long (65 chars) ids give an empty page (CONVENTIONS §16)', async () => {
      const res = await t.get(`${path(g.id)}?filter[published_course_id]=${pcs[0].id}`, { token });
      expect(res.body.data.map((o: any) => o.attributes.is_visible).sort()).toEqual([false, true]);
      const both = await t.get(`${path(g.id)}?filter[published_course_id]=${pcs[0].id}&filter[is_visible]=false`, { token });
      expect(both.body.data).toHaveLength(1);
      const theirs = await newPublished(other);
      for (const v of [theirs.id, 'junk', encodeId('course', newUuid()), encodeId('publishedCourse', newUuid())]) {
        const r = await t.get(`${path(g.id)}?filter[published_course_id]=${encodeURIComponent(v)}`, { token });
        expect(r.status).toBe(200);
        expect(r.body.data).toEqual([]);
      }
      const long = await t.get(`${path(g.id)}?filter[published_course_id]=${'p'.repeat(65)}`, { token });
      expect(long.status).toBe(200);
      expect(long.body).toMatchObject({ data: [], has_more: false, next_cursor: null });
    });

    it('bad paging input is 4xx, never 500', async () => {
      for (const [q, status] of [
        ['page[size]=0', 422],
        ['page[size]=1000', 422],
        ['page[cursor]=abc', 400],
        ['filter[is_visible]=true&filter[is_visible]=false', 422],
      ] as const) {
        expect((await t.get(`${path(g.id)}?${q}`, { token })).status).toBe(status);
      }
      // a cursor of another group's list is rejected
      const first = await t.get(`${path(g.id)}?page[size]=1`, { token });
      const g2 = await newGroup();
      expect((await t.get(`${path(g2.id)}?page[cursor]=${encodeURIComponent(first.body.next_cursor)}`, { token })).status).toBe(400);
    });

    it('another organization’s group is 404', async () => {
      const res = await t.get(path(g.id), { token: otherToken });
      expect(res.status).toBe(404);
      expect(res.body.errors[0].code).toBe('not_found');
      for (const id of ['nope', encodeId('group', newUuid())]) expect((await t.get(path(id), { token })).status).toBe(404);
    });
  });

  describe('remove', () => {
    it('removes tuples; the result id echoes the published_course_id; absent tuples succeed', async () => {
      const g = await newGroup();
      const [p1, p2, p3] = [await newPublished(), await newPublished(), await newPublished()];
      await t.post(path(g.id), { data: [ov(p1.id), ov(p1.id, false), ov(p2.id, false)] }, { token });
      const res = await t.request('DELETE', path(g.id), {
        token,
        body: { data: [ov(p1.id), ov(p2.id, false), ov(p3.id), ov(p2.id, true)] },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [
          { status: 'deleted', id: p1.id },
          { status: 'deleted', id: p2.id },
          { status: 'deleted', id: p3.id },
          { status: 'deleted', id: p2.id },
        ],
        summary: { total: 4, succeeded: 4, failed: 0 },
      });
      // (p1, false) stays: is_visible defaults to true on remove
      expect(await rows(g.uuid)).toEqual([{ published_course_id: p1.uuid, is_visible: false, organization_id: orgUuid(org) }]);
    });

    it('duplicates, unknown courses and bad items fail per item; other groups keep their rows', async () => {
      const g = await newGroup();
      const g2 = await newGroup();
      const pc = await newPublished();
      const theirsPc = await newPublished(other);
      await t.post(path(g.id), { data: [ov(pc.id)] }, { token });
      await t.post(path(g2.id), { data: [ov(pc.id)] }, { token });
      const res = await t.request('DELETE', path(g.id), {
        token,
        body: { data: [ov(pc.id), ov(pc.id, true), ov(theirsPc.id), ov('junk'), ov(pc.id, 'no'), { type: 'groups', attributes: { published_course_id: pc.id } }] },
      });
      expect(res.status).toBe(207);
      const d = res.body.data;
      expect(d[0]).toEqual({ status: 'deleted', id: pc.id });
      expect(d[1].error).toMatchObject({ code: 'duplicate_in_batch', source: { pointer: '/data/1/attributes/published_course_id' } });
      expect(d[2].error).toMatchObject({ code: 'not_found', source: { pointer: '/data/2/attributes/published_course_id' } });
      expect(d[3].error).toMatchObject({ code: 'not_found', source: { pointer: '/data/3/attributes/published_course_id' } });
      expect(d[4].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/4/attributes/is_visible' } });
      expect(d[5].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/5/type' } });
      expect(await rows(g.uuid)).toHaveLength(0);
      expect(await rows(g2.uuid)).toHaveLength(1);
    });

    it('a group not in the caller’s organization is 404 before the envelope check, and its rows stay', async () => {
      const theirs = await newGroup(otherToken);
      const theirPc = await newPublished(other);
      await t.post(path(theirs.id), { data: [ov(theirPc.id)] }, { token: otherToken });
      for (const body of [{ data: [ov(theirPc.id)] }, { data: [] }, undefined]) {
        const res = await t.request('DELETE', path(theirs.id), { token, body });
        expect(res.status).toBe(404);
      }
      expect(await rows(theirs.uuid)).toHaveLength(1);
      const mine = await newGroup();
      expect((await t.request('DELETE', path(mine.id), { token, body: { data: [] } })).status).toBe(400);
    });
  });

  describe('set-wise SQL', () => {
    it('adding and removing 100 overrides take at most 10 statements each', async () => {
      const g = await newGroup();
      const course = await insertCourse(t, org);
      const pcIds: string[] = [];
      const domain = (await t.ds.query(`SELECT id FROM domains WHERE organization_id = $1 LIMIT 1`, [orgUuid(org)]))[0].id;
      const inserted = await t.ds.query(
        `INSERT INTO published_courses (organization_id, course_id, domain_id, slug)
         SELECT $1, $2, $3, 'bulk-' || i FROM generate_series(1, 100) AS i RETURNING id`,
        [orgUuid(org), course.uuid, domain],
      );
      for (const r of inserted) pcIds.push(encodeId('publishedCourse', r.id));
      const add = await countQueries(() => t.post(path(g.id), { data: pcIds.map((id, i) => ov(id, i % 2 === 0)) }, { token }));
      expect(add.result.status).toBe(200);
      expect(add.result.body.summary.succeeded).toBe(100);
      expect(add.count).toBeLessThanOrEqual(10);
      expect(await rows(g.uuid)).toHaveLength(100);
      const again = await countQueries(() => t.post(path(g.id), { data: pcIds.map((id, i) => ov(id, i % 2 === 0)) }, { token }));
      expect(again.result.status).toBe(200);
      expect(again.count).toBeLessThanOrEqual(10);
      const remove = await countQueries(() => t.request('DELETE', path(g.id), { token, body: { data: pcIds.map((id, i) => ov(id, i % 2 === 0)) } }));
      expect(remove.result.status).toBe(200);
      expect(remove.count).toBeLessThanOrEqual(10);
      expect(await rows(g.uuid)).toHaveLength(0);
      console.log(`SQL statements per 100-item override batch: add ${add.count}, re-add ${again.count}, remove ${remove.count}`);
    });
  });
});
