import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { journey } from '../support/learner-journey';
import { v1SinceChecks } from '../support/since-checks';

/**
 * `updated_since` on a published course's sub-lists (docs/decisions/data-out.md, issue 32 point 1):
 * its tags, published-course and student-group prerequisites (links: made and removed, never
 * changed, so the link's creation is its last change) and its group visibility overrides (their
 * `updated_at`). Each answers the rows changed at or after the time, by last change across pages,
 * 400 `{"updated_since"}` on a bad value, on the index named (EXPLAIN, no Seq Scan).
 */
jest.setTimeout(120_000);

describe('published-course sub-lists: updated_since', () => {
  let t: TestApp;
  let o: CreatedOrg;
  let u: ReturnType<typeof v1SinceChecks>;
  beforeAll(async () => {
    t = await startTestApp();
    o = await t.newOrg();
    u = v1SinceChecks(t, { basic: o.api_key });
  });
  afterAll(() => t.close());

  it('tags, prerequisites, group prerequisites and visibility overrides: changed since, by last change', async () => {
    const key = { basic: o.api_key };
    const j = journey(t, o);
    const pcs = [(await j.course([{}])).publishedCourseId, (await j.course([{}])).publishedCourseId, (await j.course([{}])).publishedCourseId, (await j.course([{}])).publishedCourseId];
    const base = `/v1/domains/${o.domain_name}/published-courses/${pcs[0]}`;
    const n = Date.now().toString(36);
    const tag = async (i: number) => u.ok(await t.post('/v1/tags', { name: `T${i} ${n}` }, key), 201).id as string;
    const group = async (i: number) => u.ok(await t.post('/v1/groups', { name: `G${i} ${n}` }, key), 201).id as string;
    const [t1, t2, t3] = [await tag(1), await tag(2), await tag(3)];
    const [g1, g2, g3] = [await group(1), await group(2), await group(3)];
    const lists = {
      tags: { url: `${base}/tags`, body: (id: string) => ({ tag: { id } }), id: (r: any) => r.tag.id },
      prerequisites: { url: `${base}/published-course-prerequisites`, body: (id: string) => ({ published_course: { id } }), id: (r: any) => r.published_course.id },
      groups: { url: `${base}/student-group-prerequisites`, body: (id: string) => ({ student_group: { id } }), id: (r: any) => r.student_group.id },
      overrides: { url: `${base}/visibility-overrides`, body: (id: string) => ({ student_group: { id }, is_visible: true }), id: (r: any) => r.student_group.id },
    };
    const add = async (l: (typeof lists)[keyof typeof lists], id: string, body: object = l.body(id)) => u.ok(await t.post(l.url, body, key), 201);
    for (const x of [t1, t2]) await add(lists.tags, x);
    for (const x of [pcs[1], pcs[2]]) await add(lists.prerequisites, x);
    for (const x of [g1, g2]) await add(lists.groups, x);
    for (const x of [g1, g2]) await add(lists.overrides, x);
    const mid = await u.between();
    await add(lists.tags, t3);
    await add(lists.prerequisites, pcs[3]);
    await add(lists.groups, g3);
    await add(lists.overrides, g3);
    await u.pause(5);
    await add(lists.overrides, g1, { student_group: { id: g1 }, is_visible: false }); // g1's override changes

    expect(await u.pages(`${lists.tags.url}?updated_since=${mid}`, lists.tags.id)).toEqual([t3]);
    expect(await u.pages(`${lists.tags.url}?updated_since=2000-01-01T00:00:00Z`, lists.tags.id)).toEqual([t1, t2, t3]);
    expect(await u.pages(`${lists.prerequisites.url}?updated_since=${mid}`, lists.prerequisites.id)).toEqual([pcs[3]]);
    expect(await u.pages(`${lists.prerequisites.url}?updated_since=2000-01-01T00:00:00Z`, lists.prerequisites.id)).toEqual(pcs.slice(1));
    expect(await u.pages(`${lists.groups.url}?updated_since=${mid}`, lists.groups.id)).toEqual([g3]);
    expect(await u.pages(`${lists.overrides.url}?updated_since=${mid}`, lists.overrides.id)).toEqual([g3, g1]);
    expect(await u.pages(`${lists.overrides.url}?updated_since=2000-01-01T00:00:00Z`, lists.overrides.id)).toEqual([g2, g3, g1]);
    expect(u.ok(await t.get(`${lists.overrides.url}?updated_since=${mid}`, key)).count).toBe(2);
    for (const l of Object.values(lists)) await u.refusesBadTime(l.url);

    await u.servedBy(lists.tags.url, /FROM published_course_tags x .*ORDER BY x\.created_at/s, 'published_course_tags_list_idx');
    await u.servedBy(lists.prerequisites.url, /FROM published_course_prerequisites pr .*ORDER BY pr\.created_at/s, 'published_course_prerequisites_list_idx');
    await u.servedBy(lists.groups.url, /FROM published_course_group_prerequisites x .*ORDER BY x\.created_at/s, 'published_course_group_prerequisites_list_idx');
    await u.servedBy(lists.overrides.url, /FROM visibility_overrides vo .*ORDER BY vo\.updated_at/s, 'visibility_overrides_pc_updated_idx');
  });
});
