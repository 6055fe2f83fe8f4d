import { HttpResponse, startTestApp, TestApp } from '../support/app';
import { countQueries, planOf } from '../support/fixtures';

/**
 * `updated_since` on GET /v1/domains (docs/decisions/data-out.md): the domains changed since, by last
 * change, across pages; 400 on a bad value; EXPLAIN naming domains_org_updated_idx, no sequential scan.
 */
jest.setTimeout(120_000);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('/v1/domains: updated_since', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function names(path: string, key: { basic: string }): Promise<string[]> {
    const out: string[] = [];
    let url: string | null = path;
    while (url) {
      const res: HttpResponse = await t.get(url.replace(t.baseUrl, ''), key);
      expect(res.status).toBe(200);
      out.push(...res.body.results.map((r: any) => r.name));
      url = res.body.next;
    }
    return out;
  }

  it('the domains changed since, by last change, on domains_org_updated_idx', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const d1 = o.domain_name;
    const make = async () => (await t.post('/v1/domains', { name: `d-${Math.random().toString(36).slice(2, 10)}.test` }, key)).body.name as string;
    const [d2, d3] = [await make(), await make()];
    await pause(5);
    const mid = encodeURIComponent(new Date().toISOString());
    await pause(5);
    expect((await t.patch(`/v1/domains/${d3}`, { catalog_title: 'Three' }, key)).status).toBe(200);
    await pause(5);
    expect((await t.patch(`/v1/domains/${d1}`, { catalog_title: 'One' }, key)).status).toBe(200);

    const since = await t.get(`/v1/domains?updated_since=${mid}`, key);
    expect(since.status).toBe(200);
    expect(since.body.count).toBe(2);
    expect(since.body.results.map((r: any) => r.name)).toEqual([d3, d1]);
    expect(await names('/v1/domains?updated_since=2000-01-01T00:00:00Z&page_size=1', key)).toEqual([d2, d3, d1]);
    expect(await names('/v1/domains?page_size=1', key)).toEqual([d1, d2, d3]);
    expect((await t.get('/v1/domains?updated_since=2999-01-01T00:00:00Z', key)).body).toEqual(expect.objectContaining({ count: 0, results: [] }));
    const bad = await t.get('/v1/domains?updated_since=2026-01-01T00:00:00', key);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['updated_since']);
    // another organization's domains are never in the list
    expect(await names('/v1/domains?updated_since=2000-01-01T00:00:00Z', { basic: (await t.newOrg()).api_key })).not.toContain(d1);
    const run = await countQueries(() => t.get('/v1/domains?updated_since=2000-01-01T00:00:00Z', key));
    const plan = await planOf(t, run, /FROM "domains".*ORDER BY .*updated_at/s);
    expect(plan).toMatch(/domains_org_updated_idx/);
    expect(plan).not.toMatch(/Seq Scan/);
  });
});
