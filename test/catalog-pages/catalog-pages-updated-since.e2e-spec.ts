import { startTestApp, TestApp } from '../support/app';
import { countQueries, planOf } from '../support/fixtures';
import { pause, v1Ids } from '../support/updated-since';

/**
 * `updated_since` on the catalog page lists (docs/decisions/data-out.md): the pages of a domain, a
 * classic page's items, a builder page's content blocks, a tile container's items (a row renumbered
 * by a neighbour's move changes too), the page's tags (a link's creation) and visibility overrides
 * (their `updated_at`): changed rows only, by last change, 400 on a bad value, and EXPLAIN of the list
 * statement naming the index (no sequential scan).
 */
jest.setTimeout(120_000);

describe('catalog pages: updated_since', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const ids = (path: string, key: { basic: string }, idOf?: (r: any) => string) => v1Ids(t, path, key, idOf);

  /** The list answers 400 {"updated_since"} on a bad value, and its statement is served by `index`. */
  async function served(url: string, key: { basic: string }, statement: RegExp, index: string) {
    const bad = await t.get(`${url}?updated_since=yesterday`, key);
    expect({ url, status: bad.status, keys: Object.keys(bad.body) }).toEqual({ url, status: 400, keys: ['updated_since'] });
    const run = await countQueries(() => t.get(`${url}?updated_since=2000-01-01T00:00:00Z`, key));
    const plan = await planOf(t, run, statement);
    expect({ url, plan }).toEqual({ url, plan: expect.stringContaining(index) });
    expect(plan).not.toMatch(/Seq Scan/);
  }

  it('the pages of a domain, their classic items, content blocks and tile container items, by last change on their indexes', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const P = `/v1/domains/${o.domain_name}/catalog-pages`;
    const page = async (body: object) => (await t.post(P, body, key)).body.id as string;
    const [p1, p2, p3] = [await page({ page_title: 'One' }), await page({ page_title: 'Two' }), await page({ page_title: 'Three', is_classic: false })];
    const I = `${P}/${p1}/classic-page-items`;
    const item = async () => (await t.post(I, { item_catalog_page_id: p2 }, key)).body.id as string;
    const [i1, i2, i3] = [await item(), await item(), await item()];
    const B = `${P}/${p3}/content-blocks`;
    const html = (await t.post(B, { type: 'HTML' }, key)).body;
    const tiles = (await t.post(B, { type: 'TILE_SECTION' }, key)).body;
    const TI = `${P}/${p3}/tile-container-content-blocks/${tiles.tile_container_content_block_id}/items`;
    const t1 = (await t.post(TI, { item_catalog_page_id: p1 }, key)).body.id as string;
    await pause(5);
    const mid = encodeURIComponent(new Date().toISOString());
    await pause(5);
    expect((await t.patch(`${P}/${p2}`, { short_description: 'changed' }, key)).status).toBe(200);
    await pause(5);
    expect((await t.patch(`${P}/${p1}`, { short_description: 'changed' }, key)).status).toBe(200);
    // i3 moves to 2: i2 is renumbered to 3 in the same write, i1 stays
    expect((await t.patch(`${I}/${i3}`, { order: 2 }, key)).body.order).toBe(2);
    expect((await t.patch(`${P}/${p3}/html-content-blocks/${html.html_content_block_id}`, { html: '<p>x</p>' }, key)).status).toBe(200);
    const t2 = (await t.post(TI, { item_catalog_page_id: p2 }, key)).body.id as string;

    // the pages: changed since, by last change; all of them across pages; without it, oldest first
    const since = await t.get(`${P}?updated_since=${mid}`, key);
    expect(since.status).toBe(200);
    expect(since.body.count).toBe(2);
    expect(since.body.results.map((r: any) => r.id)).toEqual([p2, p1]);
    expect(await ids(`${P}?updated_since=2000-01-01T00:00:00Z&page_size=1`, key)).toEqual([p3, p2, p1]);
    expect(await ids(`${P}?page_size=1`, key)).toEqual([p1, p2, p3]);
    expect((await t.get(`${P}?updated_since=2999-01-01T00:00:00Z`, key)).body).toEqual(expect.objectContaining({ count: 0, results: [] }));
    // another organization's pages are never in its list
    expect((await t.get(`/v1/domains/${o.domain_name}/catalog-pages?updated_since=2000-01-01T00:00:00Z`, { basic: (await t.newOrg()).api_key })).status).toBe(404);

    const classic = await t.get(`${I}?updated_since=${mid}`, key);
    expect(classic.body.count).toBe(2);
    expect(classic.body.results.map((r: any) => r.id).sort()).toEqual([i2, i3].sort());
    expect(await ids(`${I}?page_size=1`, key)).toEqual([i1, i3, i2]);
    expect((await t.get(`${B}?updated_since=${mid}`, key)).body.results.map((r: any) => r.id)).toEqual([html.id]);
    expect((await t.get(`${TI}?updated_since=${mid}`, key)).body.results.map((r: any) => r.id)).toEqual([t2]);
    expect(await ids(`${TI}?updated_since=2000-01-01T00:00:00Z&page_size=1`, key)).toEqual([t1, t2]);

    await served(P, key, /FROM catalog_pages cp JOIN domains d .*ORDER BY cp\.updated_at/s, 'catalog_pages_domain_updated_idx');
    await served(I, key, /FROM catalog_page_items WHERE .*block_id IS NULL AND updated_at >= .*ORDER BY updated_at/s, 'catalog_page_items_page_updated_idx');
    await served(B, key, /FROM catalog_page_blocks WHERE .*ORDER BY updated_at/s, 'catalog_page_blocks_page_updated_idx');
    await served(TI, key, /FROM catalog_page_items WHERE .*block_id = \$1 AND updated_at >= .*ORDER BY updated_at/s, 'catalog_page_items_block_updated_idx');
  });

  it("a page's tags (the link made) and visibility overrides (changed), by last change on their indexes", async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const P = `/v1/domains/${o.domain_name}/catalog-pages`;
    const page = (await t.post(P, { page_title: 'Tagged' }, key)).body.id as string;
    const tag = async (name: string) => (await t.post('/v1/tags', { name }, key)).body.id as string;
    const group = async (name: string) => (await t.post('/v1/groups', { name }, key)).body.id as string;
    const [tg1, tg2, g1, g2] = [await tag('T1'), await tag('T2'), await group('G1'), await group('G2')];
    const TG = `${P}/${page}/tags`;
    const VO = `${P}/${page}/visibility-overrides`;
    expect((await t.post(TG, { tag: { id: tg1 } }, key)).status).toBe(201);
    for (const g of [g1, g2]) expect((await t.post(VO, { student_group: { id: g }, is_visible: true }, key)).status).toBe(201);
    await pause(5);
    const mid = encodeURIComponent(new Date().toISOString());
    await pause(5);
    expect((await t.post(TG, { tag: { id: tg2 } }, key)).status).toBe(201);
    // adding an override again changes is_visible: its last change
    expect((await t.post(VO, { student_group: { id: g1 }, is_visible: false }, key)).body.is_visible).toBe(false);

    const tags = await t.get(`${TG}?updated_since=${mid}`, key);
    expect(tags.status).toBe(200);
    expect(tags.body.count).toBe(1);
    expect(tags.body.results.map((r: any) => r.tag.id)).toEqual([tg2]);
    expect(await ids(`${TG}?updated_since=2000-01-01T00:00:00Z&page_size=1`, key, (r) => r.tag.id)).toEqual([tg1, tg2]);
    const overrides = await t.get(`${VO}?updated_since=${mid}`, key);
    expect(overrides.body.results).toEqual([{ student_group: { id: g1, name: 'G1' }, is_visible: false }]);
    expect(await ids(`${VO}?updated_since=2000-01-01T00:00:00Z&page_size=1`, key, (r) => r.student_group.id)).toEqual([g2, g1]);
    expect(await ids(`${VO}?page_size=1`, key, (r) => r.student_group.id)).toEqual([g1, g2]);

    await served(TG, key, /FROM catalog_page_tags x .*x\.created_at >= .*ORDER BY x\.created_at/s, 'catalog_page_tags_page_created_idx');
    await served(VO, key, /FROM catalog_page_visibility_overrides x .*x\.updated_at >= .*ORDER BY x\.updated_at/s, 'catalog_page_visibility_overrides_page_updated_idx');
  });
});
