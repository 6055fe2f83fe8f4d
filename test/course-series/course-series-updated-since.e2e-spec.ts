import { startTestApp, TestApp } from '../support/app';
import { countQueries, planOf } from '../support/fixtures';
import { journey } from '../support/learner-journey';
import { pause, v1Ids } from '../support/updated-since';

/**
 * `updated_since` on /v1/domains/{d}/course-series and on a series' published-courses
 * (docs/decisions/data-out.md): the series changed since, by last change; a series' courses whose item
 * row was written since (the items are rewritten on every change of the series' courses: their
 * `created_at` is their last change); 400 on a bad value; EXPLAIN naming the index, no sequential scan.
 */
jest.setTimeout(120_000);

describe('course series: updated_since', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const ids = (path: string, key: { basic: string }, idOf?: (r: any) => string) => v1Ids(t, path, key, idOf);

  it('the series and a series’ published courses, by last change on their indexes', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const j = journey(t, o);
    const [pc1, pc2, pc3] = [(await j.course([{}])).publishedCourseId, (await j.course([{}])).publishedCourseId, (await j.course([{}])).publishedCourseId];
    const S = `/v1/domains/${o.domain_name}/course-series`;
    const series = async (title: string, pcs: string[]) => (await t.post(S, { title, published_courses: pcs.map((id) => ({ id })) }, key)).body.id as string;
    const [s1, s2] = [await series('One', [pc1, pc2]), await series('Two', [])];
    const PC = `${S}/${s1}/published-courses`;
    await pause(5);
    const mid = encodeURIComponent(new Date().toISOString());
    await pause(5);
    // the title only: the series changes, its courses do not
    expect((await t.patch(`${S}/${s1}`, { title: 'One again' }, key)).status).toBe(200);
    expect((await t.get(`${S}?updated_since=${mid}`, key)).body.results.map((r: any) => r.id)).toEqual([s1]);
    expect(await ids(`${S}?updated_since=2000-01-01T00:00:00Z&page_size=1`, key)).toEqual([s2, s1]);
    expect(await ids(`${S}?page_size=1`, key)).toEqual([s1, s2]);
    const none = await t.get(`${PC}?updated_since=${mid}`, key);
    expect(none.status).toBe(200);
    expect(none.body).toEqual(expect.objectContaining({ count: 0, results: [] }));
    expect((await t.get(`${PC}?updated_since=2000-01-01T00:00:00Z`, key)).body.count).toBe(2);

    // the courses change: the series' items are written again
    expect((await t.patch(`${S}/${s1}`, { published_courses: [{ id: pc3 }, { id: pc1 }] }, key)).status).toBe(200);
    const since = await t.get(`${PC}?updated_since=${mid}`, key);
    expect(since.body.count).toBe(2);
    expect(since.body.results.map((r: any) => r.id).sort()).toEqual([pc1, pc3].sort());
    // without it: series order, as before
    expect(await ids(`${PC}?page_size=1`, key)).toEqual([pc3, pc1]);
    expect((await t.get(`${PC}?updated_since=2999-01-01T00:00:00Z`, key)).body.results).toEqual([]);

    for (const url of [S, PC]) {
      const bad = await t.get(`${url}?updated_since=2026-01-01T00:00:00`, key);
      expect({ url, status: bad.status, keys: Object.keys(bad.body) }).toEqual({ url, status: 400, keys: ['updated_since'] });
    }
    const runS = await countQueries(() => t.get(`${S}?updated_since=2000-01-01T00:00:00Z`, key));
    const planS = await planOf(t, runS, /FROM "course_series".*ORDER BY .*updated_at/s);
    expect(planS).toMatch(/course_series_domain_updated_idx/);
    expect(planS).not.toMatch(/Seq Scan/);
    const runPC = await countQueries(() => t.get(`${PC}?updated_since=2000-01-01T00:00:00Z`, key));
    const planPC = await planOf(t, runPC, /SELECT pc\.id, pc\.course_id.*FROM course_series_items csi.*ORDER BY csi\.created_at/s);
    expect(planPC).toMatch(/course_series_items_series_created_idx/);
    expect(planPC).not.toMatch(/Seq Scan/);
  });
});
