import { decodeId } from '../../src/core/ids/ids';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, insertStudent, planOf, useAccessCode } from '../support/fixtures';
import { pause, v1Ids } from '../support/updated-since';

/**
 * `updated_since` on /v1/domains/{d}/access-code-pools and a pool's access-codes
 * (docs/decisions/data-out.md): changed rows only, by last change (a redemption, which bumps
 * `use_count` without naming `updated_at`, moves it: the trigger), combined with the pools' `name`
 * filter; 400 on a bad value; EXPLAIN naming the index, no sequential scan.
 */
jest.setTimeout(120_000);

describe('access codes: updated_since', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const ids = (path: string, key: { basic: string }, idOf?: (r: any) => string) => v1Ids(t, path, key, idOf);

  it('pools and codes changed since, by last change on their indexes', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const P = `/v1/domains/${o.domain_name}/access-code-pools`;
    const pool = async (name: string) => (await t.post(P, { name }, key)).body.id as string;
    const [a, b, c] = [await pool('A'), await pool('B'), await pool('C')];
    const C = `${P}/${a}/access-codes`;
    const code = async (value: string) => (await t.post(C, { code: value }, key)).body.id as string;
    const [k1, k2, k3] = [await code('K1'), await code('K2'), await code('K3')];
    await pause(5);
    const mid = encodeURIComponent(new Date().toISOString());
    await pause(5);
    expect((await t.patch(`${P}/${c}`, { active: false }, key)).status).toBe(200);
    await pause(5);
    expect((await t.patch(`${P}/${a}`, { active: false }, key)).status).toBe(200);
    expect((await t.patch(`${C}/${k2}`, { max_uses: 5 }, key)).status).toBe(200);
    await pause(5);
    // a redemption of k1
    const s = await insertStudent(t, o);
    await useAccessCode(t, o, decodeId('accessCode', k1)!, s.uuid);

    const pools = await t.get(`${P}?updated_since=${mid}`, key);
    expect(pools.status).toBe(200);
    expect(pools.body.count).toBe(2);
    expect(pools.body.results.map((r: any) => r.id)).toEqual([c, a]);
    expect(await ids(`${P}?updated_since=2000-01-01T00:00:00Z&page_size=1`, key)).toEqual([b, c, a]);
    expect(await ids(`${P}?page_size=1`, key)).toEqual([a, b, c]);
    expect((await t.get(`${P}?name=A&updated_since=${mid}`, key)).body.results.map((r: any) => r.id)).toEqual([a]);
    expect((await t.get(`${P}?name=B&updated_since=${mid}`, key)).body.results).toEqual([]);

    const codes = await t.get(`${C}?updated_since=${mid}`, key);
    expect(codes.body.count).toBe(2);
    expect(codes.body.results.map((r: any) => [r.id, r.use_count])).toEqual([
      [k2, 0],
      [k1, 1],
    ]);
    expect(await ids(`${C}?updated_since=2000-01-01T00:00:00Z&page_size=1`, key)).toEqual([k3, k2, k1]);
    expect(await ids(`${C}?page_size=1`, key)).toEqual([k1, k2, k3]);

    for (const url of [P, C]) {
      const bad = await t.get(`${url}?updated_since=soon`, key);
      expect({ url, status: bad.status, keys: Object.keys(bad.body) }).toEqual({ url, status: 400, keys: ['updated_since'] });
    }
    const runP = await countQueries(() => t.get(`${P}?updated_since=2000-01-01T00:00:00Z`, key));
    const planP = await planOf(t, runP, /FROM "access_code_pools".*ORDER BY .*updated_at/s);
    expect(planP).toMatch(/access_code_pools_domain_updated_idx/);
    expect(planP).not.toMatch(/Seq Scan/);
    const runC = await countQueries(() => t.get(`${C}?updated_since=2000-01-01T00:00:00Z`, key));
    const planC = await planOf(t, runC, /FROM "access_codes".*ORDER BY .*updated_at/s);
    expect(planC).toMatch(/access_codes_pool_updated_idx/);
    expect(planC).not.toMatch(/Seq Scan/);
  });
});
