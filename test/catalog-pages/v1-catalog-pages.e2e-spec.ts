import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

/**
 * /v1/domains/{domain_name}/catalog-pages (issue 29 point 1, CONVENTIONS §17): the pages (PUT and
 * PATCH both partial, a slug unique on its domain, delete takes what hangs under it), their tags and
 * their student-group visibility overrides. The items and content blocks are not built (501).
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
      id: expect.stringMatching(/^cpg[0-9a-z]+$/), page_title: 'Sales Enablement', slug: 'sales-enablement', short_description: '', tile_callout: '', hidden: false,
      strict_enforce_group_visibility: false, is_classic: true, url: `https://${org.domain_name}/page/sales-enablement`, header_html: '',
      tile_sort_method: 'catalog_settings_order', search_location: 'HEADER_RIGHT', search_behavior: 'GLOBAL', item_layout: 'TILE',
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
      [{ slug: 'has space' }, 'slug'], [{ slug: 'builder_1' }, 'slug'], [{ tile_callout: 'x'.repeat(16) }, 'tile_callout'], [{ item_layout: 'GRID' }, 'item_layout'],
      [{ hidden: 'yes' }, 'hidden'], [{ page_title: '' }, 'page_title'],
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

  it('the operations not built answer 501', async () => {
    const page = (await t.post(P(), { page_title: `Later ${rnd()}` }, key())).body.id;
    for (const path of [`${P()}/${page}/classic-page-items`, `${P()}/${page}/content-blocks`]) {
      const res = await t.get(path, key());
      expect({ path, status: res.status }).toEqual({ path, status: 501 });
    }
  });
});
