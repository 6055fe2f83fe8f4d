import { startTestApp, TestApp } from '../support/app';
import { countQueries, planOf } from '../support/fixtures';
import { pause, v1Ids } from '../support/updated-since';

/**
 * `updated_since` on /v1/labels, /v1/tags and /v1/courses/{id}/labels (docs/decisions/data-out.md):
 * changed labels and tags by last change; a course's labels attached since (a link's `created_at`);
 * 400 on a bad value; EXPLAIN naming the index, no sequential scan.
 */
jest.setTimeout(120_000);

describe('labels and tags: updated_since', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const ids = (path: string, key: { basic: string }, idOf?: (r: any) => string) => v1Ids(t, path, key, idOf);

  async function served(url: string, key: { basic: string }, statement: RegExp, index: string) {
    const bad = await t.get(`${url}?updated_since=2026-13-01T00:00:00Z`, key);
    expect({ url, status: bad.status, keys: Object.keys(bad.body) }).toEqual({ url, status: 400, keys: ['updated_since'] });
    const run = await countQueries(() => t.get(`${url}?updated_since=2000-01-01T00:00:00Z`, key));
    const plan = await planOf(t, run, statement);
    expect({ url, plan }).toEqual({ url, plan: expect.stringContaining(index) });
    expect(plan).not.toMatch(/Seq Scan/);
  }

  it('/v1/labels and /v1/tags: the rows renamed since, by last change, on their indexes', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    for (const family of ['labels', 'tags']) {
      const make = async (name: string) => (await t.post(`/v1/${family}`, { name }, key)).body.id as string;
      const [x1, x2, x3] = [await make('One'), await make('Two'), await make('Three')];
      await pause(5);
      const mid = encodeURIComponent(new Date().toISOString());
      await pause(5);
      expect((await t.patch(`/v1/${family}/${x3}`, { name: 'Three again' }, key)).status).toBe(200);
      await pause(5);
      expect((await t.request('PUT', `/v1/${family}/${x1}`, { ...key, body: { name: 'One again' } })).status).toBe(200);
      const since = await t.get(`/v1/${family}?updated_since=${mid}`, key);
      expect(since.status).toBe(200);
      expect({ family, count: since.body.count, ids: since.body.results.map((r: any) => r.id) }).toEqual({ family, count: 2, ids: [x3, x1] });
      expect(await ids(`/v1/${family}?updated_since=2000-01-01T00:00:00Z&page_size=1`, key)).toEqual([x2, x3, x1]);
      expect(await ids(`/v1/${family}?page_size=1`, key)).toEqual([x1, x2, x3]);
      // another organization's rows are never in the list
      expect((await t.get(`/v1/${family}?updated_since=2000-01-01T00:00:00Z`, { basic: (await t.newOrg()).api_key })).body.results).toEqual([]);
    }
    await served('/v1/labels', key, /FROM "labels".*ORDER BY .*updated_at/s, 'labels_org_updated_idx');
    await served('/v1/tags', key, /FROM "tags".*ORDER BY .*updated_at/s, 'tags_org_updated_idx');
  });

  it('/v1/courses/{id}/labels: the labels attached since, on course_labels_course_created_idx', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const course = (await t.post('/v1/courses', { title: 'C', short_description: 's', enforce_sequential_navigation: false }, key)).body.id as string;
    const label = async (name: string) => (await t.post('/v1/labels', { name }, key)).body.id as string;
    const [l1, l2] = [await label('L1'), await label('L2')];
    const L = `/v1/courses/${course}/labels`;
    expect((await t.post(L, { label: { id: l1 } }, key)).status).toBe(201);
    await pause(5);
    const mid = encodeURIComponent(new Date().toISOString());
    await pause(5);
    expect((await t.post(L, { label: { id: l2 } }, key)).status).toBe(201);
    const since = await t.get(`${L}?updated_since=${mid}`, key);
    expect(since.status).toBe(200);
    expect(since.body.count).toBe(1);
    expect(since.body.results).toEqual([{ label: { id: l2, name: 'L2' } }]);
    expect(await ids(`${L}?updated_since=2000-01-01T00:00:00Z&page_size=1`, key, (r) => r.label.id)).toEqual([l1, l2]);
    expect((await t.get(`${L}?updated_since=2999-01-01T00:00:00Z`, key)).body).toEqual(expect.objectContaining({ count: 0, results: [] }));
    await served(L, key, /FROM course_labels cl JOIN labels l .*cl\.created_at >= .*ORDER BY cl\.created_at/s, 'course_labels_course_created_idx');
  });
});
