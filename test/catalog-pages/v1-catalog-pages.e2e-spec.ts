import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

/**
 * /v1/domains/{domain_name}/catalog-pages (issue 29 point 1, CONVENTIONS §17): the pages (PUT and
 * PATCH both partial, a slug unique on its domain, delete takes what hangs under it), their tags and
 * their student-group visibility overrides, classic page items, content blocks and their typed blocks,
 * and tile container items (dense order).
 */
describe('/v1 catalog pages', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  const key = () => ({ basic: org.api_key });
  const rnd = () => newUuid().slice(0, 8);
  const P = (o = org) => `/v1/domains/${o.domain_name}/catalog-pages`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
  });
  afterAll(() => t.close());

  it('create (defaults, slug from the title), read, list pages, PUT and PATCH partial, delete', async () => {
    const created = await t.post(P(), { page_title: 'Sales Enablement' }, key());
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^cpg[0-9a-z]+$/),
      page_title: 'Sales Enablement',
      slug: 'sales-enablement',
      short_description: '',
      tile_callout: '',
      hidden: false,
      strict_enforce_group_visibility: false,
      is_classic: true,
      url: `https://${org.domain_name}/page/sales-enablement`,
      header_html: '',
      tile_sort_method: 'catalog_settings_order',
      search_location: 'HEADER_RIGHT',
      search_behavior: 'GLOBAL',
      item_layout: 'TILE',
    });
    const id = created.body.id;
    const builder = await t.post(P(), { page_title: 'Builder', slug: 'builder_1', is_classic: false, item_layout: 'LIST', tile_callout: 'New!' }, key());
    expect(builder.body).toEqual(expect.objectContaining({ slug: 'builder_1', is_classic: false, item_layout: 'LIST', tile_callout: 'New!' }));
    expect((await t.get(`${P()}/${id}`, key())).body).toEqual(created.body);
    const page1 = await t.get(`${P()}?page_size=1`, key());
    expect(page1.body.count).toBe(2);
    expect(page1.body.results.map((r: any) => r.id)).toEqual([id]);
    expect(page1.body.next).toEqual(expect.stringContaining('page=2'));

    for (const method of ['PUT', 'PATCH']) {
      const res = await t.request(method, `${P()}/${id}`, { ...key(), body: { short_description: `Desc ${method}` } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...created.body, short_description: `Desc ${method}` });
    }
    // is_classic is set at creation only (not a member of the update request: ignored)
    expect((await t.patch(`${P()}/${id}`, { is_classic: false }, key())).body.is_classic).toBe(true);
    // bad input: 400 naming the member, nothing changed
    for (const [body, member] of [
      [{ slug: 'has space' }, 'slug'],
      [{ slug: 'builder_1' }, 'slug'],
      [{ tile_callout: 'x'.repeat(16) }, 'tile_callout'],
      [{ item_layout: 'GRID' }, 'item_layout'],
      [{ hidden: 'yes' }, 'hidden'],
      [{ page_title: '' }, 'page_title'],
    ] as const) {
      const res = await t.patch(`${P()}/${id}`, body, key());
      expect({ body, status: res.status, keys: Object.keys(res.body) }).toEqual({ body, status: 400, keys: [member] });
    }
    expect((await t.post(P(), {}, key())).body).toEqual({ page_title: ['This field is required.'] });
    expect((await t.get(`${P()}/${id}`, key())).body.short_description).toBe('Desc PATCH');

    expect((await t.delete(`${P()}/${id}`, key())).status).toBe(204);
    expect((await t.get(`${P()}/${id}`, key())).status).toBe(404);
    // the slug is free again
    expect((await t.post(P(), { page_title: 'Again', slug: 'sales-enablement' }, key())).status).toBe(201);
  });

  it('tags and visibility overrides; deleting the page deletes them; isolation', async () => {
    const page = (await t.post(P(), { page_title: `Tagged ${rnd()}` }, key())).body.id;
    const tag = (await t.post('/v1/tags', { name: `Tag ${rnd()}` }, key())).body;
    const group = (await t.post('/v1/groups', { name: `Group ${rnd()}` }, key())).body;
    const added = await t.post(`${P()}/${page}/tags`, { tag: { id: tag.id } }, key());
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ tag: { id: tag.id, name: tag.name, slug: expect.any(String) } });
    expect((await t.get(`${P()}/${page}/tags`, key())).body.results).toEqual([added.body]);
    expect((await t.get(`${P()}/${page}/tags/${tag.id}`, key())).body).toEqual(added.body);
    const foreignTag = (await t.post('/v1/tags', { name: `Tag ${rnd()}` }, { basic: other.api_key })).body.id;
    expect((await t.post(`${P()}/${page}/tags`, { tag: { id: foreignTag } }, key())).status).toBe(400);

    const vis = await t.post(`${P()}/${page}/visibility-overrides`, { student_group: { id: group.id }, is_visible: false }, key());
    expect(vis.status).toBe(201);
    expect(vis.body).toEqual({ student_group: { id: group.id, name: group.name }, is_visible: false });
    // again: the override changes
    expect((await t.post(`${P()}/${page}/visibility-overrides`, { student_group: { id: group.id }, is_visible: true }, key())).body.is_visible).toBe(true);
    expect((await t.get(`${P()}/${page}/visibility-overrides`, key())).body.results).toEqual([{ student_group: { id: group.id, name: group.name }, is_visible: true }]);
    expect((await t.get(`${P()}/${page}/visibility-overrides/${group.id}`, key())).body.is_visible).toBe(true);

    // another organization sees nothing, on its own domain path or ours
    for (const path of [`${P()}/${page}`, `${P()}/${page}/tags`, `${P()}/${page}/tags/${tag.id}`, `${P()}/${page}/visibility-overrides/${group.id}`, `${P(other)}/${page}`]) {
      expect({ path, status: (await t.get(path, { basic: other.api_key })).status }).toEqual({ path, status: 404 });
    }
    expect((await t.get(`${P()}/${encodeId('catalogPage', newUuid())}/tags`, key())).status).toBe(404);

    expect((await t.delete(`${P()}/${page}/tags/${tag.id}`, key())).status).toBe(204);
    expect((await t.get(`${P()}/${page}/tags`, key())).body.results).toEqual([]);
    await t.post(`${P()}/${page}/tags`, { tag: { id: tag.id } }, key());
    expect((await t.delete(`${P()}/${page}`, key())).status).toBe(204);
    const [{ n }] = await t.ownerQuery(`SELECT (SELECT count(*) FROM catalog_page_tags) + (SELECT count(*) FROM catalog_page_visibility_overrides) AS n`);
    expect(Number(n)).toBe(0);
    // the tag and the group themselves stay
    expect((await t.get(`/v1/tags/${tag.id}`, key())).status).toBe(200);
    expect((await t.get(`/v1/groups/${group.id}`, key())).status).toBe(200);
  });

  const orders = async (path: string) => (await t.get(`${path}?page_size=100`, key())).body.results.map((r: any) => [r.id, r.order]);

  it('classic page items: exactly one target of the domain, dense order on insert, move and delete', async () => {
    const page = (await t.post(P(), { page_title: `Classic ${rnd()}` }, key())).body.id;
    const target = (await t.post(P(), { page_title: `Target ${rnd()}` }, key())).body.id;
    const course = (await t.post('/v1/courses', { title: `C ${rnd()}`, short_description: 's', enforce_sequential_navigation: false }, key())).body.id;
    const pc = (await t.post(`/v1/domains/${org.domain_name}/published-courses`, { course: { id: course }, slug: `c-${rnd()}` }, key())).body.id;
    const I = `${P()}/${page}/classic-page-items`;
    const a = await t.post(I, { item_catalog_page_id: target }, key());
    expect(a.status).toBe(201);
    expect(a.body).toEqual({ id: expect.stringMatching(/^cpi/), order: 1, type: 'CATALOG_PAGE', item_catalog_page_id: target });
    const b = (await t.post(I, { item_published_course_id: pc }, key())).body;
    expect(b).toEqual({ id: expect.any(String), order: 2, type: 'PUBLISHED_COURSE', item_published_course_id: pc });
    // in at the front: the others move down; far beyond the end: the end
    const c = (await t.post(I, { item_catalog_page_id: target, order: 1 }, key())).body;
    const d = (await t.post(I, { item_published_course_id: pc, order: 99 }, key())).body;
    expect(await orders(I)).toEqual([
      [c.id, 1],
      [a.body.id, 2],
      [b.id, 3],
      [d.id, 4],
    ]);
    // moves (PUT and PATCH), then a delete closes the gap
    expect((await t.request('PUT', `${I}/${d.id}`, { ...key(), body: { order: 2 } })).body).toEqual({ ...d, order: 2 });
    expect((await t.patch(`${I}/${c.id}`, { order: 4 }, key())).body.order).toBe(4);
    expect(await orders(I)).toEqual([
      [d.id, 1],
      [a.body.id, 2],
      [b.id, 3],
      [c.id, 4],
    ]);
    expect((await t.delete(`${I}/${a.body.id}`, key())).status).toBe(204);
    expect(await orders(I)).toEqual([
      [d.id, 1],
      [b.id, 2],
      [c.id, 3],
    ]);
    expect((await t.get(`${I}/${b.id}`, key())).body).toEqual({ ...b, order: 2 });
    // bad items: none or two targets, another organization's course, the page itself: 400; nothing added
    const foreign = (await t.post('/v1/courses', { title: 'F', short_description: 's', enforce_sequential_navigation: false }, { basic: other.api_key })).body.id;
    const foreignPc = (await t.post(`/v1/domains/${other.domain_name}/published-courses`, { course: { id: foreign }, slug: `f-${rnd()}` }, { basic: other.api_key })).body.id;
    for (const body of [
      {},
      { item_catalog_page_id: target, item_published_course_id: pc },
      { item_published_course_id: foreignPc },
      { item_catalog_page_id: page },
      { item_plan_id: 'nope' },
      { item_catalog_page_id: target, order: 0 },
    ]) {
      expect({ body, status: (await t.post(I, body, key())).status }).toEqual({ body, status: 400 });
    }
    expect(await orders(I)).toHaveLength(3);
    // a builder page has no classic items; a classic page no content blocks
    const builder = (await t.post(P(), { page_title: `Builder ${rnd()}`, is_classic: false }, key())).body.id;
    expect((await t.post(`${P()}/${builder}/classic-page-items`, { item_catalog_page_id: target }, key())).status).toBe(400);
    expect((await t.post(`${P()}/${page}/content-blocks`, { type: 'HTML' }, key())).status).toBe(400);
    // deleting the target page removes the items naming it; deleting the page removes its items
    expect((await t.delete(`${P()}/${target}`, key())).status).toBe(204);
    expect(await orders(I)).toHaveLength(2);
    expect((await t.delete(`${P()}/${page}`, key())).status).toBe(204);
    const [{ n }] = await t.ownerQuery(`SELECT count(*)::int AS n FROM catalog_page_items`);
    expect(n).toBe(0);
  });

  it('builder pages: content blocks and their typed blocks, tile container items; isolation', async () => {
    const page = (await t.post(P(), { page_title: `Builder ${rnd()}`, is_classic: false }, key())).body.id;
    const B = `${P()}/${page}/content-blocks`;
    const html = (await t.post(B, { type: 'HTML' }, key())).body;
    expect(html).toEqual({ id: expect.stringMatching(/^cpb/), order: 1, type: 'HTML', html_content_block_id: expect.stringMatching(/^hcb/) });
    const tiles = (await t.post(B, { type: 'TILE_SECTION' }, key())).body;
    expect(tiles).toEqual({ id: expect.any(String), order: 2, type: 'TILE_SECTION', tile_container_content_block_id: expect.stringMatching(/^tcb/) });
    const comp = (await t.post(B, { type: 'IN_PROGRESS_COURSES', order: 1 }, key())).body;
    expect(comp).toEqual(expect.objectContaining({ order: 1, component_content_block_id: expect.stringMatching(/^ccb/) }));
    expect(await orders(B)).toEqual([
      [comp.id, 1],
      [html.id, 2],
      [tiles.id, 3],
    ]);
    expect((await t.post(B, { type: 'CAROUSEL' }, key())).status).toBe(400);

    const H = `${P()}/${page}/html-content-blocks/${html.html_content_block_id}`;
    expect((await t.get(H, key())).body).toEqual({ id: html.html_content_block_id, content_block_id: html.id, html: '' });
    for (const method of ['PUT', 'PATCH']) expect((await t.request(method, H, { ...key(), body: { html: `<p>${method}</p>` } })).body.html).toBe(`<p>${method}</p>`);
    const T = `${P()}/${page}/tile-container-content-blocks/${tiles.tile_container_content_block_id}`;
    const tset = await t.patch(T, { header_text: 'Courses', alignment: 'center' }, key());
    expect(tset.body).toEqual({ id: tiles.tile_container_content_block_id, content_block_id: tiles.id, header_text: 'Courses', header_sub_text: '', alignment: 'center' });
    expect((await t.patch(T, { alignment: 'middle' }, key())).status).toBe(400);
    const C = `${P()}/${page}/component-content-blocks/${comp.component_content_block_id}`;
    expect((await t.get(C, key())).body).toEqual({
      id: comp.component_content_block_id,
      component: 'in_progress_content',
      header_text: '',
      header_sub_text: '',
      include_profile_link: true,
      max_tiles: 4,
    });
    expect((await t.request('PUT', C, { ...key(), body: { max_tiles: 6 } })).status).toBe(400); // PUT requires component
    expect((await t.patch(C, { max_tiles: 6 }, key())).body.max_tiles).toBe(6);
    // a typed id of the wrong kind is not found
    expect((await t.get(`${P()}/${page}/html-content-blocks/${tiles.tile_container_content_block_id}`, key())).status).toBe(404);

    const course = (await t.post('/v1/courses', { title: `C ${rnd()}`, short_description: 's', enforce_sequential_navigation: false }, key())).body.id;
    const pc = (await t.post(`/v1/domains/${org.domain_name}/published-courses`, { course: { id: course }, slug: `c-${rnd()}` }, key())).body.id;
    const TI = `${T}/items`;
    const i1 = (await t.post(TI, { item_published_course_id: pc }, key())).body;
    expect(i1).toEqual({ id: expect.stringMatching(/^tci/), order: 1, item_type: 'PUBLISHED_COURSE', item_published_course_id: pc });
    const i2 = (await t.post(TI, { item_published_course_id: pc, order: 1 }, key())).body;
    expect(await orders(TI)).toEqual([
      [i2.id, 1],
      [i1.id, 2],
    ]);
    expect((await t.patch(`${TI}/${i2.id}`, { order: 2 }, key())).body.order).toBe(2);
    expect((await t.get(`${TI}/${i1.id}`, key())).body.order).toBe(1);
    // another organization sees nothing
    for (const path of [B, `${B}/${html.id}`, H, T, C, TI, `${TI}/${i1.id}`]) {
      expect({ path, status: (await t.get(path, { basic: other.api_key })).status }).toEqual({ path, status: 404 });
    }
    expect((await t.patch(H, { html: 'x' }, { basic: other.api_key })).status).toBe(404);
    // deleting the tile container removes its items and closes the order
    expect((await t.delete(`${B}/${tiles.id}`, key())).status).toBe(204);
    expect(await orders(B)).toEqual([
      [comp.id, 1],
      [html.id, 2],
    ]);
    expect((await t.get(TI, key())).status).toBe(404);
    const [{ n }] = await t.ownerQuery(`SELECT count(*)::int AS n FROM catalog_page_items`);
    expect(n).toBe(0);
  });
});
