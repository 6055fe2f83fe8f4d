import { decodeId, encodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, domainOf, insertCourse, insertDomain, insertLabelRow, insertStudent, joinDomain, orgUuid, publishCourse } from '../support/fixtures';
import { drfFlat } from '../support/drf';

describe('/v1 published paths, path items, labels, enrollments and /v1/paths', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let dn: string;
  let base: string;
  const basic = () => ({ basic: org.api_key });
  const bearer = () => ({ token });

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org);
    dn = (await domainOf(t, org)).name;
    base = `/v1/domains/${dn}/published-paths`;
  });
  afterAll(() => t.close());

  /** a learner of the organization who joined the domain (enrollments need domain membership) */
  const member = async (domainUuid?: string, attrs: Parameters<typeof insertStudent>[2] = {}) => {
    const s = await insertStudent(t, org, attrs);
    await joinDomain(t, org, domainUuid ?? (await domainOf(t, org)).uuid, s.uuid);
    return s;
  };
  const count = async (table: string, o: CreatedOrg = org) => Number((await t.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1`, [orgUuid(o)]))[0].n);

  async function createPP(slug: string, path: Record<string, unknown> = { title: `Path ${slug}` }, o: CreatedOrg = org) {
    const d = o === org ? dn : (await domainOf(t, o)).name;
    const res = await t.post(`/v1/domains/${d}/published-paths`, { slug, path }, { basic: o.api_key });
    expect(res.status).toBe(201);
    return res.body;
  }

  describe('auth', () => {
    it('401 without credentials, 403 without the paths scope, enrollments need the enrollments scope', async () => {
      expect((await t.get(base)).status).toBe(401);
      expect((await t.get('/v1/paths')).status).toBe(401);
      const narrow = await t.tokenFor(org, ['courses:read', 'enrollments:read']);
      const r = await t.get(base, { token: narrow });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ detail: expect.any(String) });
      expect((await t.post(base, { slug: 'x', path: { title: 'x' } }, { token: await t.tokenFor(org, ['paths:read']) })).status).toBe(403);
      expect((await t.get('/v1/paths', { token: narrow })).status).toBe(403);
      const pp = await createPP('auth-pp');
      const pathsOnly = await t.tokenFor(org, ['paths:read', 'paths:write']);
      expect((await t.get(`${base}/${pp.id}/published-path-enrollments`, { token: pathsOnly })).status).toBe(403);
      expect((await t.get(`${base}/${pp.id}/published-path-enrollments`, { token: narrow })).status).toBe(200);
    });
  });

  describe('published paths', () => {
    it('creates the path, the published path and a default offer in one go (Basic and Bearer)', async () => {
      const before = await count('offers');
      const res = await t.post(base, { slug: 'intro-path', path: { title: 'Intro Path' } }, basic());
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-z]+$/),
        slug: 'intro-path',
        path: {
          id: expect.stringMatching(/^[0-9a-z]+$/),
          title: 'Intro Path',
          promo_image_url: '',
          short_description: '',
          long_description_html: '',
          header_html: '',
          course_name_singular: 'Course',
          course_name_plural: 'Courses',
          path_item_count: 0,
        },
        path_url: `https://${dn}/path/intro-path`,
        hidden: false,
        strict_enforce_group_visibility: false,
        offer: { id: expect.stringMatching(/^[0-9a-z]+$/), registration_open: true, registration_url: expect.stringContaining(dn), price: { amount: '0.00', currency_code: 'USD' } },
        unique_progress_per_enrollment: false,
        created_at: expect.stringMatching(/Z$/),
        modified_at: expect.any(String),
      });
      expect(await count('offers')).toBe(before + 1);
      const offerRow = await t.ds.query(`SELECT published_path_id, price_cents, registration_open FROM offers WHERE id = $1`, [decodeId('offer', res.body.offer.id)]);
      expect(offerRow[0]).toEqual({ published_path_id: decodeId('publishedPath', res.body.id), price_cents: null, registration_open: true });

      const full = {
        slug: 'full_path-2',
        hidden: true,
        path: { title: 'Full', short_description: 'short', long_description_html: '<p>long</p>', header_html: '<h1>h</h1>', course_name_singular: 'Module', course_name_plural: 'Modules' },
      };
      const res2 = await t.post(base, full, bearer());
      expect(res2.status).toBe(201);
      expect(res2.body.hidden).toBe(true);
      expect(res2.body.path).toMatchObject({ ...full.path, path_item_count: 0 });
    });

    it('required fields and max lengths are 400 field errors, and nothing is created', async () => {
      const paths = await count('paths');
      const pps = await count('published_paths');
      const bad = async (body: unknown, field: string) => {
        const r = await t.post(base, body, basic());
        expect(r.status).toBe(400);
        expect(drfFlat(r.body)[field]).toEqual([expect.any(String)]);
      };
      await bad({ path: { title: 'x' } }, 'slug');
      await bad({ slug: 'a' }, 'path');
      await bad({ slug: 'a', path: {} }, 'path.title');
      expect((await t.post(base, { slug: 'a', path: { title: null } }, basic())).body).toEqual({ path: { title: ['This field may not be null.'] } });
      await bad({ slug: 'a', path: { title: '' } }, 'path.title');
      await bad({ slug: 'a', path: { title: 'x'.repeat(501) } }, 'path.title');
      await bad({ slug: 'a', path: { title: 'x', short_description: 'y'.repeat(301) } }, 'path.short_description');
      await bad({ slug: 'a', path: { title: 'x', course_name_singular: '' } }, 'path.course_name_singular');
      expect((await t.post(base, { slug: 'a', path: 'nope' }, basic())).body.path).toContain('Invalid data. Expected a dictionary, but got str.');
      await bad({ slug: 'not a slug!', path: { title: 'x' } }, 'slug');
      await bad({ slug: 's'.repeat(101), path: { title: 'x' } }, 'slug');
      await bad({ slug: 5, path: { title: 'x' } }, 'slug');
      await bad({ slug: 'ok', path: { title: 'x' }, hidden: 'yes' }, 'hidden');
      await bad({ slug: 'ok', path: { title: 'nul \u0000 byte' } }, 'path.title');
      // a list filter never fails on an odd value: it matches nothing (issue 25 item 7)
      expect((await t.get(`${base}?search=a%00b`, basic())).body).toEqual({ count: 0, next: null, previous: null, results: [] });
      expect((await t.get(`${base}?label__name=%00`, basic())).body).toEqual({ count: 0, next: null, previous: null, results: [] });
      expect((await t.get(`/v1/domains/a%00b/published-paths`, basic())).status).toBe(404);
      expect((await t.get(`/v1/paths/%00`, basic())).status).toBe(404);
      const notObject = await t.request('POST', base, { raw: { contentType: 'application/json', data: '[1,2]' }, ...basic() });
      expect(notObject.status).toBe(400);
      const malformed = await t.request('POST', base, { raw: { contentType: 'application/json', data: '{"slug": ' }, ...basic() });
      expect(malformed.status).toBe(400);
      expect(await count('paths')).toBe(paths);
      expect(await count('published_paths')).toBe(pps);
      // exactly at the limits is fine
      const ok = await t.post(base, { slug: 'limits', path: { title: 't'.repeat(500), short_description: 's'.repeat(300) } }, basic());
      expect(ok.status).toBe(201);
    });

    it('slugs are unique per domain', async () => {
      await createPP('dup-slug');
      const r = await t.post(base, { slug: 'DUP-slug', path: { title: 'again' } }, basic());
      expect(r.status).toBe(400);
      expect(r.body.slug).toBeDefined();
      // another domain of the same organization may reuse it
      const d2 = await insertDomain(t, org);
      expect((await t.post(`/v1/domains/${d2.name}/published-paths`, { slug: 'dup-slug', path: { title: 'x' } }, basic())).status).toBe(201);
    });

    it('reads, updates (PUT needs slug) and partially updates', async () => {
      const pp = await createPP('rw-path');
      const read = await t.get(`${base}/${pp.id}`, bearer());
      expect(read.status).toBe(200);
      expect(read.body).toEqual(pp);

      const put = await t.request('PUT', `${base}/${pp.id}`, { body: { hidden: true }, ...basic() });
      expect(put.status).toBe(400);
      expect(put.body).toEqual({ slug: ['This field is required.'] });
      const badSlug = await t.request('PUT', `${base}/${pp.id}`, { body: { slug: 'not a slug!', hidden: 'x' }, ...basic() });
      expect(badSlug.body).toEqual({ slug: ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'], hidden: ['Must be a valid boolean.'] });
      expect((await t.request('PUT', `${base}/${pp.id}`, { body: { slug: null }, ...basic() })).body).toEqual({ slug: ['This field may not be null.'] });
      const put2 = await t.request('PUT', `${base}/${pp.id}`, { body: { slug: 'rw-path-2', hidden: true }, ...bearer() });
      expect(put2.status).toBe(200);
      expect(put2.body).toMatchObject({ slug: 'rw-path-2', hidden: true, path_url: `https://${dn}/path/rw-path-2` });
      const patch = await t.patch(`${base}/${pp.id}`, { slug: 'rw-path-3' }, basic());
      expect(patch.status).toBe(200);
      expect(patch.body).toMatchObject({ slug: 'rw-path-3', hidden: true });
      expect((await t.patch(`${base}/${pp.id}`, { slug: '' }, basic())).status).toBe(400);
      expect((await t.get(`${base}/${pp.id}`, basic())).body.slug).toBe('rw-path-3');
      expect((await t.get(`${base}/nope`, basic())).status).toBe(404);
      expect((await t.get(`${base}/${pp.path.id}`, basic())).status).toBe(404);
    });

    it('lists with pagination, search (not in items) and label__name; include_searchable_content adds members', async () => {
      const d = await insertDomain(t, org);
      const b = `/v1/domains/${d.name}/published-paths`;
      const mk = async (slug: string, title: string, extra: Record<string, unknown> = {}) => (await t.post(b, { slug, path: { title, ...extra } }, basic())).body;
      const a = await mk('kubernetes-basics', 'Kubernetes Basics');
      const c = await mk('cloud', 'Cloud Journey', { short_description: 'all about kubernetes clusters' });
      const z = await mk('zebra', 'Zebra');
      // an item whose course title mentions "zebra-course" must not make the path match
      const course = await insertCourse(t, org, { title: 'Secret Zebracourse' });
      const pc = await publishCourse(t, org, course.uuid, d.uuid);
      expect((await t.post(`${b}/${a.id}/path-items`, { order: 1, published_course: { id: pc.id } }, basic())).status).toBe(201);

      const all = await t.get(b, basic());
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ count: 3, next: null, previous: null });
      expect(all.body.results.map((r: any) => r.id)).toEqual([a.id, c.id, z.id]);
      expect(all.body.results[0].path.path_item_count).toBe(1);
      expect(all.body.results[0].path_item_list).toBeUndefined();

      const s = await t.get(`${b}?search=kubernetes`, bearer());
      expect(s.body.results.map((r: any) => r.id)).toEqual([a.id, c.id]); // title match first
      expect((await t.get(`${b}?search=zebracourse`, basic())).body.count).toBe(0);
      expect((await t.get(`${b}?search=${encodeURIComponent('100%_')}`, basic())).body.count).toBe(0);

      const label = await insertLabelRow(t, org, 'Featured');
      expect((await t.post(`${b}/${z.id}/labels`, { label: { id: label.id } }, basic())).status).toBe(201);
      const byLabel = await t.get(`${b}?label__name=Featured`, basic());
      expect(byLabel.body.results.map((r: any) => r.id)).toEqual([z.id]);
      expect((await t.get(`${b}?label__name=featured`, basic())).body.count).toBe(0);

      const sc = await t.get(`${b}?include_searchable_content=true`, basic());
      expect(sc.body.results[0]).toMatchObject({
        title: 'Kubernetes Basics',
        short_description: '',
        long_description_html: '',
        search_keywords: '',
        tags: [],
        hidden: false,
        path_item_list: [{ id: pc.id, title: 'Secret Zebracourse' }],
      });
      expect((await t.get(`${b}?include_searchable_content=maybe`, basic())).status).toBe(400);

      const p1 = await t.get(`${b}?page=1`, basic());
      expect(p1.status).toBe(200);
      expect((await t.get(`${b}?page=2`, basic())).status).toBe(404);
      expect((await t.get(`${b}?page=abc`, basic())).status).toBe(400);
      expect((await t.get(`${b}?page=0`, basic())).status).toBe(400);
    });

    it('paginates at 100 per page', async () => {
      const d = await insertDomain(t, org);
      const path = await t.ds.query(`INSERT INTO paths (organization_id, title) SELECT $1, 'bulk ' || g FROM generate_series(1, 101) g RETURNING id`, [orgUuid(org)]);
      for (const [i, r] of path.entries()) {
        await t.ds.query(`INSERT INTO published_paths (organization_id, path_id, domain_id, slug) VALUES ($1, $2, $3, $4)`, [orgUuid(org), r.id, d.uuid, `bulk-${i}`]);
      }
      const b = `/v1/domains/${d.name}/published-paths`;
      const p1 = await t.get(`${b}?page_size=500`, basic());
      expect(p1.body.count).toBe(101);
      expect(p1.body.results).toHaveLength(100);
      expect(p1.body.next).toContain('page=2');
      const p2 = await t.get(`${b}?page=2`, basic());
      expect(p2.body.results).toHaveLength(1);
      expect(p2.body.results[0].offer).toMatchObject({ id: expect.stringMatching(/^ofr/), price: { amount: '0.00' } }); // made with it (offers trigger)
      expect(p2.body.previous).not.toBeNull();
    });

    it('unpublishes with DELETE', async () => {
      const pp = await createPP('to-delete');
      expect((await t.delete(`${base}/${pp.id}`, basic())).status).toBe(204);
      expect((await t.get(`${base}/${pp.id}`, basic())).status).toBe(404);
      // the slug is free again and the path still exists on /v1/paths
      await createPP('to-delete');
      expect((await t.get(`/v1/paths/${pp.path.id}`, basic())).status).toBe(200);
    });
  });

  describe('path items', () => {
    it('creates items in any order and lists them by order; order is unique per path', async () => {
      const pp = await createPP('items-path');
      const courses = await Promise.all([1, 2, 3].map((i) => insertCourse(t, org, { title: `C${i}` })));
      const pcs = await Promise.all(courses.map((c) => publishCourse(t, org, c.uuid)));
      const mk = (order: number, pcId: string, opts: { basic?: string; token?: string } = basic()) => t.post(`${base}/${pp.id}/path-items`, { order, published_course: { id: pcId } }, opts);
      const r3 = await mk(30, pcs[0].id);
      expect(r3.status).toBe(201);
      expect(r3.body).toEqual({ id: expect.stringMatching(/^[0-9a-z]+$/), order: 30, published_course: { id: pcs[0].id, course_id: courses[0].id, slug: expect.any(String) } });
      expect((await mk(10, pcs[1].id, bearer())).status).toBe(201);
      expect((await mk(20, pcs[2].id)).status).toBe(201);

      const dupOrder = await mk(20, pcs[2].id);
      expect(dupOrder.status).toBe(400);
      const dupOrder2 = await t.post(`${base}/${pp.id}/path-items`, { order: 10, published_course: { id: pcs[0].id } }, basic());
      expect(dupOrder2.status).toBe(400);
      expect(dupOrder2.body.order).toBeDefined();
      const dupCourse = await mk(40, pcs[0].id);
      expect(dupCourse.status).toBe(400);

      const list = await t.get(`${base}/${pp.id}/path-items`, bearer());
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(3);
      expect(list.body.results.map((r: any) => r.order)).toEqual([10, 20, 30]);
      expect(list.body.results.map((r: any) => r.published_course.id)).toEqual([pcs[1].id, pcs[2].id, pcs[0].id]);

      // reorder: move the first (order 10) to the end
      const first = list.body.results[0];
      expect((await t.request('PUT', `${base}/${pp.id}/path-items/${first.id}`, { body: { order: 20 }, ...basic() })).status).toBe(400);
      const moved = await t.request('PUT', `${base}/${pp.id}/path-items/${first.id}`, { body: { order: 40 }, ...basic() });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ id: first.id, order: 40 });
      const patched = await t.patch(`${base}/${pp.id}/path-items/${first.id}`, { order: 5 }, bearer());
      expect(patched.body.order).toBe(5);
      expect((await t.patch(`${base}/${pp.id}/path-items/${first.id}`, { order: 'first' }, basic())).status).toBe(400);
      expect((await t.patch(`${base}/${pp.id}/path-items/${first.id}`, { order: 1.5 }, basic())).status).toBe(400);
      const relist = await t.get(`${base}/${pp.id}/path-items`, basic());
      expect(relist.body.results.map((r: any) => r.id)[0]).toBe(first.id);
      expect((await t.get(`${base}/${pp.id}/path-items/${first.id}`, basic())).body.order).toBe(5);

      const read = await t.get(`${base}/${pp.id}`, basic());
      expect(read.body.path.path_item_count).toBe(3);

      expect((await t.delete(`${base}/${pp.id}/path-items/${first.id}`, basic())).status).toBe(204);
      expect((await t.get(`${base}/${pp.id}/path-items/${first.id}`, basic())).status).toBe(404);
      expect((await t.get(`${base}/${pp.id}/path-items`, basic())).body.count).toBe(2);
    });

    it('requires order and a live published course of the organization on the same domain', async () => {
      const pp = await createPP('items-rules');
      const course = await insertCourse(t, org);
      const pc = await publishCourse(t, org, course.uuid);
      const items = `${base}/${pp.id}/path-items`;
      const r1 = await t.post(items, { published_course: { id: pc.id } }, basic());
      expect(r1.status).toBe(400);
      expect(r1.body.order).toBeDefined();
      const r2 = await t.post(items, { order: 1 }, basic());
      expect(r2.status).toBe(400);
      expect(r2.body.published_course).toBeDefined();
      expect((await t.post(items, { order: 1, published_course: {} }, basic())).body.published_course.id).toBeDefined();
      expect((await t.post(items, { order: 1, published_course: { id: 'garbage' } }, basic())).status).toBe(400);
      expect((await t.post(items, { order: 1, published_course: { id: course.id } }, basic())).status).toBe(400);

      // another organization's published course: 400, nothing created
      const oc = await insertCourse(t, other);
      const opc = await publishCourse(t, other, oc.uuid);
      const before = await count('path_items');
      const cross = await t.post(items, { order: 1, published_course: { id: opc.id } }, basic());
      expect(cross.status).toBe(400);
      expect(cross.body.published_course.id).toBeDefined();
      // a course published on another domain of the organization
      const d2 = await insertDomain(t, org);
      const pc2 = await publishCourse(t, org, course.uuid, d2.uuid);
      expect((await t.post(items, { order: 1, published_course: { id: pc2.id } }, basic())).status).toBe(400);
      // an unpublished one
      await t.ds.query(`UPDATE published_courses SET unpublished_at = now() WHERE id = $1`, [pc2.uuid]);
      expect(await count('path_items')).toBe(before);
      expect((await t.post(items, { order: 1, published_course: { id: pc.id } }, basic())).status).toBe(201);
    });
  });

  describe('labels', () => {
    it('attaches, lists and reads labels of the organization only', async () => {
      const pp = await createPP('labels-path');
      const l1 = await insertLabelRow(t, org);
      const l2 = await insertLabelRow(t, org);
      const url = `${base}/${pp.id}/labels`;
      const c1 = await t.post(url, { label: { id: l1.id } }, basic());
      expect(c1.status).toBe(201);
      expect(c1.body).toEqual({ label: { id: l1.id, name: l1.name } });
      expect((await t.post(url, { label: { id: l2.id } }, bearer())).status).toBe(201);
      expect((await t.post(url, { label: { id: l2.id } }, basic())).status).toBe(201); // idempotent
      const list = await t.get(url, bearer());
      expect(list.body).toMatchObject({ count: 2, results: [{ label: { id: l1.id, name: l1.name } }, { label: { id: l2.id, name: l2.name } }] });
      expect((await t.get(`${url}/${l1.id}`, basic())).body).toEqual({ label: { id: l1.id, name: l1.name } });
      const l3 = await insertLabelRow(t, org);
      expect((await t.get(`${url}/${l3.id}`, basic())).status).toBe(404);

      const bad = await t.post(url, {}, basic());
      expect(bad.status).toBe(400);
      expect(bad.body.label).toBeDefined();
      const foreign = await insertLabelRow(t, other);
      const cross = await t.post(url, { label: { id: foreign.id } }, basic());
      expect(cross.status).toBe(400);
      expect(cross.body.label.id).toBeDefined();
      expect((await t.get(url, basic())).body.count).toBe(2);

      expect((await t.delete(`${url}/${l1.id}`, basic())).status).toBe(204);
      expect((await t.get(url, basic())).body.count).toBe(1);
      // removing the label itself (content module) removes its association (foreign key, 1763700007001)
      await t.ds.query(`DELETE FROM labels WHERE id = $1`, [l2.uuid]);
      expect((await t.ds.query(`SELECT count(*)::int AS n FROM path_labels WHERE label_id = $1`, [l2.uuid]))[0].n).toBe(0);
    });
  });

  describe('tags and group visibility overrides (OpenAPI-only)', () => {
    const tagRow = async (o: CreatedOrg, name: string) => {
      const [r] = await t.ds.query(`INSERT INTO tags (organization_id, name, slug) VALUES ($1, $2, $3) RETURNING id`, [orgUuid(o), name, name.toLowerCase().replace(/\W+/g, '-')]);
      return { uuid: r.id as string, id: encodeId('tag', r.id), name };
    };
    const groupRow = async (o: CreatedOrg, name: string) => {
      const [r] = await t.ds.query(`INSERT INTO groups (organization_id, name) VALUES ($1, $2) RETURNING id`, [orgUuid(o), name]);
      return { uuid: r.id as string, id: encodeId('group', r.id), name };
    };

    it('adds, lists, reads and removes tags; include_searchable_content lists them', async () => {
      const pp = await createPP('tagged-path');
      const url = `${base}/${pp.id}/tags`;
      const t1 = await tagRow(org, `Cloud ${pp.id.slice(-4)}`);
      const t2 = await tagRow(org, `Security ${pp.id.slice(-4)}`);
      const c1 = await t.post(url, { tag: { id: t1.id } }, basic());
      expect(c1.status).toBe(201);
      expect(c1.body).toEqual({ tag: { id: t1.id, name: t1.name, slug: expect.any(String) } });
      expect((await t.post(url, { tag: { id: t2.id } }, bearer())).status).toBe(201);
      expect((await t.post(url, { tag: { id: t2.id } }, basic())).status).toBe(201); // no duplicate
      const list = await t.get(url, bearer());
      expect(list.body.count).toBe(2);
      expect(list.body.results.map((r: any) => r.tag.id)).toEqual([t1.id, t2.id]);
      expect((await t.get(`${url}/${t2.id}`, basic())).body.tag.name).toBe(t2.name);
      const search = await t.get(`${base}?include_searchable_content=true&search=tagged`, basic());
      const mine = search.body.results.find((r: any) => r.id === pp.id);
      expect(mine.tags.map((x: any) => x.id)).toEqual([t1.id, t2.id]);

      expect((await t.post(url, {}, basic())).body.tag).toBeDefined();
      const foreign = await tagRow(other, 'Foreign');
      const cross = await t.post(url, { tag: { id: foreign.id } }, basic());
      expect(cross.status).toBe(400);
      expect(cross.body.tag.id).toBeDefined();
      expect((await t.get(`${url}/${foreign.id}`, basic())).status).toBe(404);
      expect((await t.get(url, { basic: other.api_key })).status).toBe(404);

      expect((await t.delete(`${url}/${t1.id}`, bearer())).status).toBe(204);
      expect((await t.get(`${url}/${t1.id}`, basic())).status).toBe(404);
      expect((await t.get(url, basic())).body.count).toBe(1);
    });

    it('creates (or changes), lists, reads and removes group visibility overrides', async () => {
      const pp = await createPP('visible-path');
      const url = `${base}/${pp.id}/visibility-overrides`;
      const g1 = await groupRow(org, `Partners ${pp.id.slice(-4)}`);
      const g2 = await groupRow(org, `Staff ${pp.id.slice(-4)}`);
      const c1 = await t.post(url, { student_group: { id: g1.id }, is_visible: true }, basic());
      expect(c1.status).toBe(201);
      expect(c1.body).toEqual({ student_group: { id: g1.id, name: g1.name }, is_visible: true });
      expect((await t.post(url, { student_group: { id: g2.id }, is_visible: false }, bearer())).status).toBe(201);
      const changed = await t.post(url, { student_group: { id: g1.id }, is_visible: false }, basic());
      expect(changed.body.is_visible).toBe(false);
      const list = await t.get(url, bearer());
      expect(list.body).toMatchObject({
        count: 2,
        results: [
          { student_group: { id: g1.id }, is_visible: false },
          { student_group: { id: g2.id }, is_visible: false },
        ],
      });
      expect((await t.get(`${url}/${g2.id}`, basic())).body).toEqual({ student_group: { id: g2.id, name: g2.name }, is_visible: false });

      const missing = await t.post(url, { student_group: { id: g1.id } }, basic());
      expect(missing.status).toBe(400);
      expect(missing.body.is_visible).toEqual(['This field is required.']);
      expect((await t.post(url, { is_visible: true }, basic())).body.student_group).toBeDefined();
      const foreign = await groupRow(other, 'Theirs');
      expect((await t.post(url, { student_group: { id: foreign.id }, is_visible: true }, basic())).body.student_group.id).toBeDefined();
      expect((await t.get(`${url}/${foreign.id}`, basic())).status).toBe(404);
      expect((await t.get(url, { basic: other.api_key })).status).toBe(404);

      expect((await t.delete(`${url}/${g1.id}`, bearer())).status).toBe(204);
      expect((await t.get(`${url}/${g1.id}`, basic())).status).toBe(404);
      expect((await t.get(url, basic())).body.count).toBe(1);
    });
  });

  describe('published-path enrollments', () => {
    it('enrolls a user of the organization and records PATH_ENROLLMENT in the outbox', async () => {
      const pp = await createPP('enroll-path', { title: 'Enroll Path' });
      const stu = await member(undefined, { email: 'pp-learner@example.test', first_name: 'Ada', last_name: 'Lovelace' });
      const url = `${base}/${pp.id}/published-path-enrollments`;
      const res = await t.post(url, { user: { id: stu.id } }, basic());
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-z]+$/),
        user: { id: stu.id, email: 'pp-learner@example.test', first_name: 'Ada', last_name: 'Lovelace', full_name: 'Ada Lovelace' },
        enrolled_at: expect.stringMatching(/Z$/),
        active: true,
        // the registration's $0 purchase (docs/decisions/commerce.md, enrollments made without checkout)
        purchase: expect.objectContaining({
          purchase_price: { amount: '0.00', currency_code: 'USD' },
          purchase_state: 'SUCCESS',
          payment_processor: 'NONE',
          purchase_id: expect.stringMatching(/^pur/),
        }),
      });
      const events = await t.ds.query(`SELECT payload FROM outbox_events WHERE organization_id = $1 AND event_type = 'PATH_ENROLLMENT'`, [orgUuid(org)]);
      expect(events).toHaveLength(1);
      const d = await domainOf(t, org);
      expect(events[0].payload).toMatchObject({
        event_type: 'PATH_ENROLLMENT',
        user: { id: stu.id, email: 'pp-learner@example.test', first_name: 'Ada', last_name: 'Lovelace' },
        path: { id: pp.path.id, published_path_id: pp.id, title: 'Enroll Path', url: pp.path_url },
        domain: { id: expect.stringMatching(/^[0-9a-z]+$/), name: d.name },
      });

      // without enrolled_at, the active unexpired enrollment is returned (200, no new event)
      const again = await t.post(url, { user: { id: stu.id } }, bearer());
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);

      // idempotent for (user, enrolled_at): same enrollment, no second event
      const at = '2026-01-15T10:00:00Z';
      const e1 = await t.post(url, { user: { id: stu.id }, enrolled_at: at, expires_at: '2027-01-15T10:00:00Z' }, bearer());
      expect(e1.status).toBe(201);
      expect(e1.body).toMatchObject({ enrolled_at: '2026-01-15T10:00:00.000Z', expires_at: '2027-01-15T10:00:00.000Z' });
      const e2 = await t.post(url, { user: { id: stu.id }, enrolled_at: at }, bearer());
      expect(e2.status).toBe(200);
      expect(e2.body.id).toBe(e1.body.id);
      const after = await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE organization_id = $1 AND event_type = 'PATH_ENROLLMENT'`, [orgUuid(org)]);
      expect(after[0].n).toBe(2);

      const withPurchase = await t.post(
        url,
        { user: { id: stu.id }, enrolled_at: '2026-02-01T00:00:00Z', purchase: { purchase_price: { amount: '49.5', currency_code: 'usd' }, purchase_state: 'SUCCESS', tax_price_cents: 12 } },
        basic(),
      );
      expect(withPurchase.status).toBe(201);
      expect(withPurchase.body.purchase).toMatchObject({ purchase_price: { amount: '49.50', currency_code: 'USD' }, purchase_state: 'SUCCESS', tax_price_cents: 12, quantity: 1 });

      const list = await t.get(url, bearer());
      expect(list.body.count).toBe(3);
      expect(list.body.results[0].id).toBe(res.body.id);
      expect((await t.get(`${url}?page_size=1`, basic())).body.results).toHaveLength(1);

      const read = await t.get(`${url}/${res.body.id}`, basic());
      expect(read.body).toEqual(res.body);
      const put = await t.request('PUT', `${url}/${res.body.id}`, { body: { active: false, expires_at: '2030-01-01T00:00:00Z' }, ...basic() });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ active: false, expires_at: '2030-01-01T00:00:00.000Z' });
      const patch = await t.patch(`${url}/${res.body.id}`, { expires_at: null }, bearer());
      expect(patch.body).toMatchObject({ active: false });
      expect(patch.body).not.toHaveProperty('expires_at'); // no value: left out (CONVENTIONS §16)
      expect((await t.patch(`${url}/${res.body.id}`, { expires_at: 'soon' }, basic())).status).toBe(400);
      expect((await t.patch(`${url}/${res.body.id}`, { active: 'no' }, basic())).status).toBe(400);
      expect((await t.get(`${url}/nope`, basic())).status).toBe(404);
    });

    it('concurrent creates for one user make exactly one enrollment and one event', async () => {
      const pp = await createPP('enroll-race');
      const url = `${base}/${pp.id}/published-path-enrollments`;
      const s = await member();
      const results = await Promise.all(Array.from({ length: 6 }, () => t.post(url, { user: { id: s.id } }, basic())));
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
      const rows = await t.ds.query(`SELECT count(*)::int AS n FROM published_path_enrollments WHERE published_path_id = $1`, [decodeId('publishedPath', pp.id)]);
      expect(rows[0].n).toBe(1);
      const events = await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE event_type = 'PATH_ENROLLMENT' AND payload->'path'->>'published_path_id' = $1`, [pp.id]);
      expect(events[0].n).toBe(1);
    });

    it('rejects bad bodies and users of other organizations with 400, recording nothing', async () => {
      const pp = await createPP('enroll-rules');
      const url = `${base}/${pp.id}/published-path-enrollments`;
      const stranger = await insertStudent(t, other);
      const events = await count('outbox_events');
      const rows = await count('published_path_enrollments');
      const r1 = await t.post(url, {}, basic());
      expect(r1.status).toBe(400);
      expect(r1.body.user).toBeDefined();
      expect((await t.post(url, { user: {} }, basic())).body.user.id).toBeDefined();
      const cross = await t.post(url, { user: { id: stranger.id } }, basic());
      expect(cross.status).toBe(400);
      expect(cross.body.user).toEqual([expect.any(String)]);
      expect((await t.post(url, { user: { id: 'stu_x' } }, basic())).status).toBe(400);
      // a user of the organization who is not a member of the domain
      const outsider = await insertStudent(t, org);
      const notMember = await t.post(url, { user: { id: outsider.id } }, basic());
      expect(notMember.status).toBe(400);
      expect(notMember.body.user).toEqual([expect.stringContaining('member')]);
      // membership of another domain of the organization does not count
      await joinDomain(t, org, (await insertDomain(t, org)).uuid, outsider.uuid);
      expect((await t.post(url, { user: { id: outsider.id } }, basic())).status).toBe(400);
      const s = await member();
      expect((await t.post(url, { user: { id: s.id }, enrolled_at: 'yesterday' }, basic())).body.enrolled_at).toBeDefined();
      expect((await t.post(url, { user: { id: s.id }, purchase: { purchase_state: 'BOGUS' } }, basic())).status).toBe(400);
      expect((await t.post(url, { user: { id: s.id }, active: 'yes' }, basic())).status).toBe(400);
      expect(await count('outbox_events')).toBe(events);
      expect(await count('published_path_enrollments')).toBe(rows);
    });
  });

  describe('/v1/paths', () => {
    it('lists and reads paths with item counts, and their items with course stats', async () => {
      const pp = await createPP('read-side', { title: 'Read Side' });
      const course = await insertCourse(t, org, { title: 'Stats Course' });
      for (const optional of [false, false, true]) {
        await t.ds.query(`INSERT INTO lessons (organization_id, course_id, title, type, optional) VALUES ($1, $2, 'L', 'HTML', $3)`, [orgUuid(org), course.uuid, optional]);
      }
      await t.ds.query(`INSERT INTO lessons (organization_id, course_id, title, type, deleted_at) VALUES ($1, $2, 'gone', 'HTML', now())`, [orgUuid(org), course.uuid]);
      const pc = await publishCourse(t, org, course.uuid);
      const item = (await t.post(`${base}/${pp.id}/path-items`, { order: 1, published_course: { id: pc.id } }, basic())).body;

      const list = await t.get('/v1/paths?page_size=1000', basic());
      expect(list.status).toBe(200);
      expect(list.body.count).toBeGreaterThan(100); // the bulk test above made 101
      expect(list.body.results).toHaveLength(100);
      const all = [...list.body.results];
      for (let url = list.body.next; url;) {
        const next = await t.get(new URL(url).pathname + new URL(url).search, basic());
        all.push(...next.body.results);
        url = next.body.next;
      }
      expect(all).toHaveLength(list.body.count);
      const mine = all.find((r: any) => r.id === pp.path.id);
      expect(mine).toMatchObject({ id: pp.path.id, title: 'Read Side', path_item_count: 1 });
      const read = await t.get(`/v1/paths/${pp.path.id}`, bearer());
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: pp.path.id, title: 'Read Side', path_item_count: 1, course_name_singular: 'Course' });

      const items = await t.get(`/v1/paths/${pp.path.id}/path-items`, bearer());
      expect(items.body).toMatchObject({ count: 1 });
      expect(items.body.results[0]).toEqual({ id: item.id, slug: item.published_course.slug, course: { id: course.id, title: 'Stats Course', lesson_count: 3, required_lesson_count: 2 } });
      expect((await t.get(`/v1/paths/${pp.path.id}/path-items/${item.id}`, basic())).body).toEqual(items.body.results[0]);
      expect((await t.get(`/v1/paths/${pp.path.id}/path-items/nope`, basic())).status).toBe(404);
      expect((await t.get(`/v1/paths/${pp.id}`, basic())).status).toBe(404);

      const upd = await t.patch(`/v1/paths/${pp.path.id}`, { title: 'Renamed' }, basic());
      expect(upd.status).toBe(200);
      expect(upd.body.title).toBe('Renamed');
      expect((await t.patch(`/v1/paths/${pp.path.id}`, { title: 'x'.repeat(501) }, basic())).status).toBe(400);
      expect((await t.patch(`/v1/paths/${pp.path.id}`, { short_description: 'x'.repeat(301) }, basic())).status).toBe(400);
      expect((await t.get(`${base}/${pp.id}`, basic())).body.path.title).toBe('Renamed');
    });
  });

  describe('both credentials', () => {
    it('every operation works with the API key (Basic) and with a Bearer token', async () => {
      const course = await insertCourse(t, org, { title: 'Both creds' });
      const label = await insertLabelRow(t, org);
      for (const [i, cred] of [basic(), bearer()].entries()) {
        const ok = (r: { status: number; text: string }, status = 200) => expect([r.status, r.text]).toEqual([status, expect.anything()]);
        const created = await t.post(base, { slug: `both-${i}`, path: { title: `Both ${i}` } }, cred);
        ok(created, 201);
        const pp = created.body;
        const b = `${base}/${pp.id}`;
        ok(await t.get(base, cred));
        ok(await t.get(b, cred));
        ok(await t.request('PUT', b, { body: { slug: `both-${i}-put` }, ...cred }));
        ok(await t.patch(b, { slug: `both-${i}-patch` }, cred));
        ok(await t.post(`${b}/labels`, { label: { id: label.id } }, cred), 201);
        ok(await t.get(`${b}/labels`, cred));
        ok(await t.get(`${b}/labels/${label.id}`, cred));
        ok(await t.delete(`${b}/labels/${label.id}`, cred), 204);
        const pc = await publishCourse(t, org, course.uuid);
        const item = await t.post(`${b}/path-items`, { order: 1, published_course: { id: pc.id } }, cred);
        ok(item, 201);
        ok(await t.get(`${b}/path-items`, cred));
        ok(await t.get(`${b}/path-items/${item.body.id}`, cred));
        ok(await t.request('PUT', `${b}/path-items/${item.body.id}`, { body: { order: 2 }, ...cred }));
        ok(await t.patch(`${b}/path-items/${item.body.id}`, { order: 3 }, cred));
        ok(await t.get(`/v1/paths/${pp.path.id}/path-items`, cred));
        ok(await t.get(`/v1/paths/${pp.path.id}/path-items/${item.body.id}`, cred));
        ok(await t.delete(`${b}/path-items/${item.body.id}`, cred), 204);
        const s = await member();
        const e = await t.post(`${b}/published-path-enrollments`, { user: { id: s.id } }, cred);
        ok(e, 201);
        ok(await t.get(`${b}/published-path-enrollments`, cred));
        ok(await t.get(`${b}/published-path-enrollments/${e.body.id}`, cred));
        ok(await t.request('PUT', `${b}/published-path-enrollments/${e.body.id}`, { body: { active: false }, ...cred }));
        ok(await t.patch(`${b}/published-path-enrollments/${e.body.id}`, { active: true }, cred));
        ok(await t.get('/v1/paths', cred));
        ok(await t.get(`/v1/paths/${pp.path.id}`, cred));
        ok(await t.request('PUT', `/v1/paths/${pp.path.id}`, { body: { title: `Put ${i}` }, ...cred }));
        ok(await t.patch(`/v1/paths/${pp.path.id}`, { short_description: 'patched' }, cred));
        expect((await t.get(b, cred)).body.path).toMatchObject({ title: `Put ${i}`, short_description: 'patched' });
        ok(await t.delete(b, cred), 204);
        expect((await t.get(b, cred)).status).toBe(404);
        ok(await t.delete(`/v1/paths/${pp.path.id}`, cred), 204);
        expect((await t.get(`/v1/paths/${pp.path.id}`, cred)).status).toBe(404);
      }
    });
  });

  describe('no N+1', () => {
    it('lists run the same number of statements for 1 row and for many', async () => {
      const measure = async (url: string) => {
        await t.get(url, basic()); // warm caches (auth)
        const { result, statements } = await countQueries(() => t.get(url, basic()));
        expect(result.status).toBe(200);
        // the API key's cache entry may expire between the warm-up and the measured request on a
        // loaded machine (AUTH_CACHE_SECONDS): its look-up is not the list's work, so it is not counted
        const n = statements.filter((q) => !/\bFROM api_keys\b/.test(q)).length;
        expect(n).toBeGreaterThan(0);
        return n;
      };
      const small = await insertDomain(t, org);
      const big = await insertDomain(t, org);
      const fill = async (d: { uuid: string; name: string }, n: number) => {
        let last: any;
        for (let i = 0; i < n; i++) {
          last = (await t.post(`/v1/domains/${d.name}/published-paths`, { slug: `p${i}`, path: { title: `P${i}` } }, basic())).body;
          const c = await insertCourse(t, org);
          const pc = await publishCourse(t, org, c.uuid, d.uuid);
          await t.post(`/v1/domains/${d.name}/published-paths/${last.id}/path-items`, { order: i, published_course: { id: pc.id } }, basic());
          const s = await member(d.uuid);
          expect((await t.post(`/v1/domains/${d.name}/published-paths/${last.id}/published-path-enrollments`, { user: { id: s.id } }, basic())).status).toBe(201);
        }
        return last;
      };
      const one = await fill(small, 1);
      const many = await fill(big, 12);
      // many items and enrollments in one path
      for (let i = 0; i < 8; i++) {
        const c = await insertCourse(t, org);
        const pc = await publishCourse(t, org, c.uuid, big.uuid);
        await t.post(`/v1/domains/${big.name}/published-paths/${many.id}/path-items`, { order: 100 + i, published_course: { id: pc.id } }, basic());
        const s = await member(big.uuid);
        expect((await t.post(`/v1/domains/${big.name}/published-paths/${many.id}/published-path-enrollments`, { user: { id: s.id } }, basic())).status).toBe(201);
      }
      for (const suffix of ['', '?include_searchable_content=true']) {
        expect(await measure(`/v1/domains/${big.name}/published-paths${suffix}`)).toBe(await measure(`/v1/domains/${small.name}/published-paths${suffix}`));
      }
      expect(await measure(`/v1/domains/${big.name}/published-paths/${many.id}/path-items`)).toBe(await measure(`/v1/domains/${small.name}/published-paths/${one.id}/path-items`));
      expect(await measure(`/v1/domains/${big.name}/published-paths/${many.id}/published-path-enrollments`)).toBe(
        await measure(`/v1/domains/${small.name}/published-paths/${one.id}/published-path-enrollments`),
      );
      expect(await measure(`/v1/paths/${many.path.id}/path-items`)).toBe(await measure(`/v1/paths/${one.path.id}/path-items`));
    });
  });

  describe('cross-organization', () => {
    it('another organization never sees, reads or changes these objects', async () => {
      const pp = await createPP('private-path', { title: 'Mine' });
      const course = await insertCourse(t, org);
      const pc = await publishCourse(t, org, course.uuid);
      const item = (await t.post(`${base}/${pp.id}/path-items`, { order: 1, published_course: { id: pc.id } }, basic())).body;
      const stu = await member();
      const enr = (await t.post(`${base}/${pp.id}/published-path-enrollments`, { user: { id: stu.id } }, basic())).body;
      const ob = { basic: other.api_key };
      const otherToken = { token: await t.tokenFor(other) };

      // my domain name with the other org's credentials: 404 everywhere
      expect((await t.get(base, ob)).status).toBe(404);
      expect((await t.post(base, { slug: 'hijack', path: { title: 'x' } }, ob)).status).toBe(404);
      expect((await t.get(`${base}/${pp.id}`, otherToken)).status).toBe(404);
      expect((await t.patch(`${base}/${pp.id}`, { slug: 'hijacked' }, ob)).status).toBe(404);
      expect((await t.get(`${base}/${pp.id}/path-items`, ob)).status).toBe(404);
      expect((await t.patch(`${base}/${pp.id}/path-items/${item.id}`, { order: 9 }, ob)).status).toBe(404);
      expect((await t.get(`${base}/${pp.id}/published-path-enrollments/${enr.id}`, ob)).status).toBe(404);
      expect((await t.patch(`${base}/${pp.id}/published-path-enrollments/${enr.id}`, { active: false }, ob)).status).toBe(404);

      // their own domain with my ids: 404
      const theirs = `/v1/domains/${(await domainOf(t, other)).name}/published-paths`;
      expect((await t.get(`${theirs}/${pp.id}`, ob)).status).toBe(404);
      expect((await t.request('PUT', `${theirs}/${pp.id}`, { body: { slug: 'x' }, ...ob })).status).toBe(404);
      expect((await t.delete(`${theirs}/${pp.id}`, ob)).status).toBe(404);
      expect((await t.get(theirs, ob)).body.results.map((r: any) => r.id)).not.toContain(pp.id);

      // /v1/paths
      expect((await t.get('/v1/paths', ob)).body.results.map((r: any) => r.id)).not.toContain(pp.path.id);
      expect((await t.get(`/v1/paths/${pp.path.id}`, ob)).status).toBe(404);
      expect((await t.patch(`/v1/paths/${pp.path.id}`, { title: 'Hijacked' }, ob)).status).toBe(404);
      expect((await t.delete(`/v1/paths/${pp.path.id}`, ob)).status).toBe(404);
      expect((await t.get(`/v1/paths/${pp.path.id}/path-items`, ob)).status).toBe(404);

      // nothing changed
      const after = await t.get(`${base}/${pp.id}`, basic());
      expect(after.body).toMatchObject({ slug: 'private-path', path: { title: 'Mine' } });
      expect((await t.get(`${base}/${pp.id}/path-items/${item.id}`, basic())).body.order).toBe(1);
      expect((await t.get(`${base}/${pp.id}/published-path-enrollments/${enr.id}`, basic())).body.active).toBe(true);
    });
  });
});
