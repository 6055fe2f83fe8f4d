import { randomBytes } from 'node:crypto';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, planOf, v2Pages } from '../support/fixtures';
import { journey } from '../support/learner-journey';

/**
 * `updated_since` (/v1) and `filter[updated_since]` (/v2) on the group lists (docs/decisions/data-out.md):
 * changed rows only, ordered by last change, served by groups_org_updated_idx; bad values 400 / 422.
 */
jest.setTimeout(120_000);

const rnd = () => randomBytes(4).toString('hex');
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('group lists: updated_since', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('/v2/groups filter[updated_since] and /v1/groups updated_since: changed groups only, ordered by last change, on the index; bad values 422 / 400', async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o);
    const t0 = new Date(Date.now() - 1000).toISOString();
    const created = await t.post('/v2/groups/', { data: [1, 2, 3].map((i) => ({ type: 'groups', attributes: { name: `G${i} ${rnd()}` } })) }, { token: tok });
    expect(created.status).toBe(200);
    const [g1, g2, g3] = created.body.data.map((d: any) => d.id as string);
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await t.patch('/v2/groups/', { data: [{ type: 'groups', id: g3, attributes: { name: `Third ${rnd()}` } }] }, { token: tok })).status).toBe(200);
    await pause(5);
    expect((await t.patch(`/v1/groups/${g1}`, { name: `First ${rnd()}` }, { basic: o.api_key })).status).toBe(200);

    const since = await v2Pages(t, `/v2/groups/?filter[updated_since]=${encodeURIComponent(mid)}`, tok);
    expect(since.map((d) => d.id)).toEqual([g3, g1]);
    // page by page (size 2): g2 (unchanged since creation), then g3 and g1 in the order they changed
    const paged = await v2Pages(t, `/v2/groups/?filter[updated_since]=${encodeURIComponent(t0)}&page[size]=2`, tok);
    expect(paged.map((d) => d.id)).toEqual([g2, g3, g1]);
    // without the filter: oldest first, as before
    expect((await v2Pages(t, '/v2/groups/', tok)).map((d) => d.id)).toEqual([g1, g2, g3]);
    for (const bad of ['yesterday', '2026-01-01T00:00:00']) {
      const res = await t.get(`/v2/groups/?filter[updated_since]=${encodeURIComponent(bad)}`, { token: tok });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].source).toEqual({ parameter: 'filter[updated_since]' });
    }
    const run = await countQueries(() => t.get(`/v2/groups/?filter[updated_since]=${encodeURIComponent(t0)}`, { token: tok }));
    expect(await planOf(t, run, /FROM groups g WHERE .*updated_at >=/)).toMatch(/groups_org_updated_idx/);

    const v1 = await t.get(`/v1/groups?updated_since=${encodeURIComponent(mid)}`, { basic: o.api_key });
    expect(v1.status).toBe(200);
    expect(v1.body.results.map((g: any) => g.id)).toEqual([g3, g1]);
    expect(v1.body.count).toBe(2);
    const v1all = await t.get(`/v1/groups?updated_since=2000-01-01T00:00:00Z`, { basic: o.api_key });
    expect(v1all.body.results.map((g: any) => g.id)).toEqual([g2, g3, g1]);
    const bad = await t.get(`/v1/groups?updated_since=nope`, { basic: o.api_key });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['updated_since']);
    const runV1 = await countQueries(() => t.get(`/v1/groups?updated_since=2000-01-01T00:00:00Z`, { basic: o.api_key }));
    expect(await planOf(t, runV1, /FROM groups WHERE .*ORDER BY updated_at/)).toMatch(/groups_org_updated_idx/);

    // another organization's groups are never in the list
    const other = await t.newOrg();
    expect(await v2Pages(t, `/v2/groups/?filter[updated_since]=${encodeURIComponent(t0)}`, await t.tokenFor(other))).toEqual([]);
  });

  it('/v1/group-categories by last change, and the membership lists (/v1/groups/{id}/users, /v1/users/{id}/groups) by the membership made, each on its index', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const cat = async (name: string) => (await t.post('/v1/group-categories', { name }, key)).body.id as string;
    const c1 = await cat('One');
    const c2 = await cat('Two');
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await t.patch(`/v1/group-categories/${c1}`, { name: 'One again' }, key)).status).toBe(200);
    const cats = await t.get(`/v1/group-categories?updated_since=${encodeURIComponent(mid)}`, key);
    expect(cats.status).toBe(200);
    expect(cats.body.results.map((c: any) => c.id)).toEqual([c1]);
    expect((await t.get(`/v1/group-categories?updated_since=2000-01-01T00:00:00Z`, key)).body.results.map((c: any) => c.id)).toEqual([c2, c1]);
    expect((await t.get(`/v1/group-categories?updated_since=x`, key)).status).toBe(400);
    const runCats = await countQueries(() => t.get(`/v1/group-categories?updated_since=2000-01-01T00:00:00Z`, key));
    expect(await planOf(t, runCats, /FROM group_categories WHERE .*ORDER BY updated_at/)).toMatch(/group_categories_org_updated_idx/);

    // memberships: made and removed, never changed, so the one made after `since` is the change
    const j = journey(t, o);
    const [a, b] = [await j.learner(), await j.learner()];
    const g = (await t.post('/v1/groups', { name: `Members ${rnd()}` }, key)).body.id as string;
    expect((await t.post(`/v1/groups/${g}/users`, { user: { id: a.id } }, key)).status).toBe(201);
    await pause(5);
    const mid2 = new Date().toISOString();
    await pause(5);
    expect((await t.post(`/v1/groups/${g}/users`, { user: { id: b.id } }, key)).status).toBe(201);
    const members = await t.get(`/v1/groups/${g}/users?updated_since=${encodeURIComponent(mid2)}`, key);
    expect(members.status).toBe(200);
    expect(members.body.count).toBe(1);
    expect(members.body.results.map((m: any) => m.user.id)).toEqual([b.id]);
    expect((await t.get(`/v1/groups/${g}/users?updated_since=bad`, key)).status).toBe(400);
    const runMembers = await countQueries(() => t.get(`/v1/groups/${g}/users?updated_since=2000-01-01T00:00:00Z`, key));
    expect(await planOf(t, runMembers, /FROM group_memberships gm JOIN users u .*ORDER BY gm\.created_at/s)).toMatch(/group_memberships_group_created_idx/);
    expect((await t.get(`/v1/users/${a.id}/groups?updated_since=${encodeURIComponent(mid2)}`, key)).body.results).toEqual([]);
    expect((await t.get(`/v1/users/${b.id}/groups?updated_since=${encodeURIComponent(mid2)}`, key)).body.results.map((r: any) => r.group.id)).toEqual([g]);
    expect((await t.get(`/v1/users/${b.id}/groups?updated_since=bad`, key)).status).toBe(400);
    const runUser = await countQueries(() => t.get(`/v1/users/${b.id}/groups?updated_since=2000-01-01T00:00:00Z`, key));
    expect(await planOf(t, runUser, /FROM group_memberships gm JOIN groups g .*ORDER BY gm\.created_at/s)).toMatch(/group_memberships_user_created_idx/);
  });

  it('/v2/groups/{id}/relationships/published-course-visibility filter[updated_since]: by last change, on (group_id, updated_at, id); 422 on a bad value', async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o);
    const j = journey(t, o);
    const [c1, c2] = [await j.course([{ type: 'HTML' }]), await j.course([{ type: 'HTML' }])];
    const g = (await t.post('/v2/groups/', { data: [{ type: 'groups', attributes: { name: `Vis ${rnd()}` } }] }, { token: tok })).body.data[0].id as string;
    const path = `/v2/groups/${g}/relationships/published-course-visibility/`;
    const add = async (pc: string, visible: boolean) =>
      expect((await t.post(path, { data: [{ type: 'visibility-overrides', attributes: { published_course_id: pc, is_visible: visible } }] }, { token: tok })).status).toBe(200);
    await add(c1.publishedCourseId, true);
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    await add(c2.publishedCourseId, false);
    const since = await v2Pages(t, `${path}?filter[updated_since]=${encodeURIComponent(mid)}`, tok);
    expect(since.map((d) => d.attributes.published_course_id)).toEqual([c2.publishedCourseId]);
    const paged = await v2Pages(t, `${path}?filter[updated_since]=2000-01-01T00:00:00Z&page[size]=1`, tok);
    expect(paged.map((d) => d.attributes.published_course_id)).toEqual([c1.publishedCourseId, c2.publishedCourseId]);
    const bad = await t.get(`${path}?filter[updated_since]=nope`, { token: tok });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source).toEqual({ parameter: 'filter[updated_since]' });
    const run = await countQueries(() => t.get(`${path}?filter[updated_since]=2000-01-01T00:00:00Z`, { token: tok }));
    expect(await planOf(t, run, /visibility_overrides.*ORDER BY .*updated_at/s)).toMatch(/visibility_overrides_group_updated_idx/);
  });
});
