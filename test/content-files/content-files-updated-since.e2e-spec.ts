import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { v1SinceChecks, v2SinceChecks } from '../support/since-checks';

/**
 * `updated_since` (/v1) and `filter[updated_since]` (/v2) on the lists of assets and web packages
 * (docs/decisions/data-out.md, issue 32 point 1): the files changed at or after the time, by last
 * change across pages (page numbers on /v1, the cursor at (updated_at, id) on /v2), a bad value 400
 * `{"updated_since"}` / 422 naming the parameter, on `<table>_org_updated_idx` (EXPLAIN, no Seq Scan).
 */
jest.setTimeout(120_000);

describe('assets and web packages: updated_since', () => {
  let t: TestApp;
  let o: CreatedOrg;
  let token: string;
  let v1: ReturnType<typeof v1SinceChecks>;
  let v2: ReturnType<typeof v2SinceChecks>;
  beforeAll(async () => {
    // web packages are made from a URL the worker would fetch (no worker here: they stay PROCESSING)
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true });
    o = await t.newOrg();
    token = await t.tokenFor(o);
    v1 = v1SinceChecks(t, { basic: o.api_key });
    v2 = v2SinceChecks(t, token);
  });
  afterAll(() => t.close());

  it('assets: /v1 and /v2 lists changed since, by last change', async () => {
    const asset = async (i: number) =>
      v1.ok(await t.post('/v2/assets/', { data: [{ type: 'assets', attributes: { embed_link_url: `https://video.example.test/embed/${i}`, name: `A${i}` } }] }, { token })).data[0].result.id as string;
    const rename = async (id: string) => v1.ok(await t.patch(`/v2/assets/${id}`, { data: { type: 'assets', id, attributes: { name: `${id} again` } } }, { token }));
    const [a1, a2, a3] = [await asset(1), await asset(2), await asset(3)];
    const mid = await v1.between();
    await rename(a3);
    await v1.pause(5);
    await rename(a1);

    const since = v1.ok(await t.get(`/v1/assets?updated_since=${mid}`, { basic: o.api_key }));
    expect({ count: since.count, ids: since.results.map((r: any) => r.id) }).toEqual({ count: 2, ids: [a3, a1] });
    expect(await v1.pages('/v1/assets?updated_since=2000-01-01T00:00:00Z')).toEqual([a2, a3, a1]);
    expect(await v1.pages('/v1/assets')).toEqual([a1, a2, a3]);
    await v1.refusesBadTime('/v1/assets');
    await v1.servedBy('/v1/assets', /FROM "assets".*ORDER BY .*updated_at/s, 'assets_org_updated_idx');

    expect(await v2.pages(`/v2/assets/?filter[updated_since]=${mid}`)).toEqual([a3, a1]);
    expect(await v2.pages('/v2/assets/?filter[updated_since]=2000-01-01T00:00:00Z')).toEqual([a2, a3, a1]);
    expect(await v2.pages('/v2/assets/')).toEqual([a1, a2, a3]);
    await v2.refusesBadTime('/v2/assets/');
    await v2.servedBy('/v2/assets/', /FROM "assets".*ORDER BY .*updated_at/s, 'assets_org_updated_idx');
    // another organization's assets are never in the list
    const other = await t.newOrg();
    expect((await t.get('/v1/assets?updated_since=2000-01-01T00:00:00Z', { basic: other.api_key })).body.results).toEqual([]);
  });

  it('web packages: /v1 and /v2 lists changed since, by last change', async () => {
    const pkg = async (i: number) => v1.ok(await t.post('/v1/web-packages', { content_url: `https://127.0.0.1:9/p${i}.zip`, web_package: { title: `P${i}` } }, { basic: o.api_key }), 201).id as string;
    const retitle = async (id: string) => v1.ok(await t.patch('/v2/web-packages/', { data: [{ type: 'web-packages', id, attributes: { title: `${id} again` } }] }, { token }));
    const [w1, w2, w3] = [await pkg(1), await pkg(2), await pkg(3)];
    const mid = await v1.between();
    await retitle(w3);
    await v1.pause(5);
    await retitle(w1);

    const since = v1.ok(await t.get(`/v1/web-packages?updated_since=${mid}`, { basic: o.api_key }));
    expect({ count: since.count, ids: since.results.map((r: any) => r.id) }).toEqual({ count: 2, ids: [w3, w1] });
    expect(await v1.pages('/v1/web-packages?updated_since=2000-01-01T00:00:00Z')).toEqual([w2, w3, w1]);
    expect(await v1.pages('/v1/web-packages')).toEqual([w1, w2, w3]);
    await v1.refusesBadTime('/v1/web-packages');
    await v1.servedBy('/v1/web-packages', /FROM "web_packages".*ORDER BY .*updated_at/s, 'web_packages_org_updated_idx');

    expect(await v2.pages(`/v2/web-packages/?filter[updated_since]=${mid}`)).toEqual([w3, w1]);
    expect(await v2.pages('/v2/web-packages/?filter[updated_since]=2000-01-01T00:00:00Z')).toEqual([w2, w3, w1]);
    expect(await v2.pages('/v2/web-packages/')).toEqual([w1, w2, w3]);
    await v2.refusesBadTime('/v2/web-packages/');
    await v2.servedBy('/v2/web-packages/', /FROM "web_packages".*ORDER BY .*updated_at/s, 'web_packages_org_updated_idx');
  });
});
