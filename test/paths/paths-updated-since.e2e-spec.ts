import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { journey } from '../support/learner-journey';
import { v1SinceChecks } from '../support/since-checks';

/**
 * `updated_since` on the lists of the paths module (docs/decisions/data-out.md, issue 32 point 1):
 * /v1/paths, a path's items (both ways in), a domain's published paths, a published path's labels,
 * tags, group visibility overrides and enrollments, and a user's published-path enrollments. Each
 * answers the rows changed at or after the time, ordered by last change across pages, 400
 * `{"updated_since"}` on a bad value, and its statement is served by the index named (EXPLAIN with
 * sequential scans off: no Seq Scan).
 */
jest.setTimeout(120_000);

describe('paths: updated_since on every list', () => {
  let t: TestApp;
  let o: CreatedOrg;
  let key: { basic: string };
  let base: string;
  let u: ReturnType<typeof v1SinceChecks>;
  beforeAll(async () => {
    t = await startTestApp();
    o = await t.newOrg();
    key = { basic: o.api_key };
    base = `/v1/domains/${o.domain_name}/published-paths`;
    u = v1SinceChecks(t, key);
  });
  afterAll(() => t.close());

  const publish = (slug: string) => t.post(base, { slug: `${slug}-${Date.now().toString(36)}`, path: { title: `Path ${slug}` } }, key).then((r) => u.ok(r, 201));

  it('/v1/paths and /v1/domains/{d}/published-paths: changed since, by last change', async () => {
    const [a, b, c] = [await publish('a'), await publish('b'), await publish('c')];
    const mid = await u.between();
    u.ok(await t.patch(`/v1/paths/${c.path.id}`, { title: 'C again' }, key));
    await u.pause(5);
    u.ok(await t.patch(`/v1/paths/${a.path.id}`, { title: 'A again' }, key));

    const since = u.ok(await t.get(`/v1/paths?updated_since=${mid}`, key));
    expect({ count: since.count, ids: since.results.map((r: any) => r.id) }).toEqual({ count: 2, ids: [c.path.id, a.path.id] });
    expect(await u.pages('/v1/paths?updated_since=2000-01-01T00:00:00Z')).toEqual([b.path.id, c.path.id, a.path.id]);
    expect(await u.pages('/v1/paths')).toEqual([a.path.id, b.path.id, c.path.id]);
    await u.refusesBadTime('/v1/paths');
    await u.servedBy('/v1/paths', /FROM "paths".*ORDER BY .*updated_at/s, 'paths_org_updated_idx');

    // the published path's own row: its changes (a change of the path shows on /v1/paths)
    const mid2 = await u.between();
    u.ok(await t.patch(`${base}/${b.id}`, { hidden: true }, key));
    await u.pause(5);
    u.ok(await t.patch(`${base}/${a.id}`, { hidden: true }, key));
    const pps = u.ok(await t.get(`${base}?updated_since=${mid2}`, key));
    expect({ count: pps.count, ids: pps.results.map((r: any) => r.id) }).toEqual({ count: 2, ids: [b.id, a.id] });
    expect(await u.pages(`${base}?updated_since=2000-01-01T00:00:00Z`)).toEqual([c.id, b.id, a.id]);
    expect(await u.pages(base)).toEqual([a.id, b.id, c.id]);
    // with the list's search ("again": the paths a and c, of which a changed since)
    expect((await t.get(`${base}?search=again&updated_since=${mid2}`, key)).body.results.map((r: any) => r.id)).toEqual([a.id]);
    await u.refusesBadTime(base);
    await u.servedBy(base, /SELECT pp\.id FROM published_paths pp .*ORDER BY pp\.updated_at/s, 'published_paths_domain_updated_idx');
  });

  it("a path's items (/v1/paths/{id}/path-items and the published path's): changed since, by last change", async () => {
    const j = journey(t, o);
    const pcs = [(await j.course([{}])).publishedCourseId, (await j.course([{}])).publishedCourseId, (await j.course([{}])).publishedCourseId];
    const pp = await publish('items');
    const items: string[] = [];
    for (const [i, pc] of pcs.entries()) items.push(u.ok(await t.post(`${base}/${pp.id}/path-items`, { order: i + 1, published_course: { id: pc } }, key), 201).id);
    const mid = await u.between();
    u.ok(await t.patch(`${base}/${pp.id}/path-items/${items[2]}`, { order: 30 }, key));
    await u.pause(5);
    u.ok(await t.patch(`${base}/${pp.id}/path-items/${items[0]}`, { order: 10 }, key));

    for (const url of [`${base}/${pp.id}/path-items`, `/v1/paths/${pp.path.id}/path-items`]) {
      const since = u.ok(await t.get(`${url}?updated_since=${mid}`, key));
      expect({ count: since.count, ids: since.results.map((r: any) => r.id) }).toEqual({ count: 2, ids: [items[2], items[0]] });
      expect(await u.pages(`${url}?updated_since=2000-01-01T00:00:00Z`)).toEqual([items[1], items[2], items[0]]);
      expect(await u.pages(url)).toEqual([items[1], items[0], items[2]]); // by order (2, 10, 30), as before
      await u.refusesBadTime(url);
      await u.servedBy(url, /FROM path_items pi .*ORDER BY pi\.updated_at/s, 'path_items_path_updated_idx');
    }
  });

  it("a published path's labels, tags and group visibility overrides: the links made (overrides: changed) since", async () => {
    const pp = await publish('links');
    const n = Date.now().toString(36);
    const label = async (i: number) => u.ok(await t.post('/v1/labels', { name: `L${i} ${n}` }, key), 201).id as string;
    const tag = async (i: number) => u.ok(await t.post('/v1/tags', { name: `T${i} ${n}` }, key), 201).id as string;
    const group = async (i: number) => u.ok(await t.post('/v1/groups', { name: `G${i} ${n}` }, key), 201).id as string;
    const [l1, l2, l3] = [await label(1), await label(2), await label(3)];
    const [t1, t2, t3] = [await tag(1), await tag(2), await tag(3)];
    const [g1, g2, g3] = [await group(1), await group(2), await group(3)];
    const labels = `${base}/${pp.id}/labels`;
    const tags = `${base}/${pp.id}/tags`;
    const overrides = `${base}/${pp.id}/visibility-overrides`;
    for (const l of [l1, l2]) u.ok(await t.post(labels, { label: { id: l } }, key), 201);
    for (const x of [t1, t2]) u.ok(await t.post(tags, { tag: { id: x } }, key), 201);
    for (const g of [g1, g2]) u.ok(await t.post(overrides, { student_group: { id: g }, is_visible: true }, key), 201);
    const mid = await u.between();
    u.ok(await t.post(labels, { label: { id: l3 } }, key), 201);
    u.ok(await t.post(tags, { tag: { id: t3 } }, key), 201);
    u.ok(await t.post(overrides, { student_group: { id: g3 }, is_visible: true }, key), 201);
    await u.pause(5);
    u.ok(await t.post(overrides, { student_group: { id: g1 }, is_visible: false }, key), 201); // changes g1's override

    expect(await u.pages(`${labels}?updated_since=${mid}`, (r) => r.label.id)).toEqual([l3]);
    expect(await u.pages(`${labels}?updated_since=2000-01-01T00:00:00Z`, (r) => r.label.id)).toEqual([l1, l2, l3]);
    expect(await u.pages(`${tags}?updated_since=${mid}`, (r) => r.tag.id)).toEqual([t3]);
    expect(await u.pages(`${overrides}?updated_since=${mid}`, (r) => r.student_group.id)).toEqual([g3, g1]);
    expect(await u.pages(`${overrides}?updated_since=2000-01-01T00:00:00Z`, (r) => r.student_group.id)).toEqual([g2, g3, g1]);
    expect(await u.pages(overrides, (r) => r.student_group.id)).toEqual([g1, g2, g3]); // by creation, as before
    for (const url of [labels, tags, overrides]) await u.refusesBadTime(url);
    await u.servedBy(labels, /FROM path_labels x .*ORDER BY x\.created_at/s, 'path_labels_list_idx');
    await u.servedBy(tags, /FROM path_tags x .*ORDER BY x\.created_at/s, 'path_tags_list_idx');
    await u.servedBy(overrides, /FROM path_visibility_overrides x .*ORDER BY x\.updated_at/s, 'path_visibility_overrides_pp_updated_idx');
  });

  it("a published path's enrollments and a user's published-path enrollments: changed since, by last change", async () => {
    const j = journey(t, o);
    const pp = await publish('enrollments');
    const url = `${base}/${pp.id}/published-path-enrollments`;
    const learners = [await j.learner(), await j.learner(), await j.learner()];
    const e: string[] = [];
    for (const l of learners) e.push((await j.enrollPath(l.id, pp.id)).id);
    const mid = await u.between();
    u.ok(await t.patch(`${url}/${e[2]}`, { active: false }, key));
    await u.pause(5);
    u.ok(await t.patch(`${url}/${e[0]}`, { active: false }, key));

    const since = u.ok(await t.get(`${url}?updated_since=${mid}`, key));
    expect({ count: since.count, ids: since.results.map((r: any) => r.id) }).toEqual({ count: 2, ids: [e[2], e[0]] });
    expect(await u.pages(`${url}?updated_since=2000-01-01T00:00:00Z`)).toEqual([e[1], e[2], e[0]]);
    expect(await u.pages(url)).toEqual(e);
    await u.refusesBadTime(url);
    await u.servedBy(url, /FROM "published_path_enrollments".*ORDER BY .*updated_at/s, 'published_path_enrollments_pp_updated_idx');

    const mine = `/v1/users/${learners[2].id}/published-path-enrollments`;
    expect(u.ok(await t.get(`${mine}?updated_since=${mid}`, key)).map((r: any) => r.enrollment_id)).toEqual([e[2]]);
    expect(u.ok(await t.get(`/v1/users/${learners[1].id}/published-path-enrollments?updated_since=${mid}`, key))).toEqual([]);
    await u.refusesBadTime(mine);
    await u.servedBy(mine, /FROM published_path_enrollments ppe.*ORDER BY ppe\.updated_at/s, 'published_path_enrollments_org_user_updated_idx');
  });
});
