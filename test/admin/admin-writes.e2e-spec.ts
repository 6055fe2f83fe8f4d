import { randomBytes } from 'node:crypto';
import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { twoOrgs } from '../support/two-orgs';
import { drfFlat } from '../support/drf';

/** The administrative writes of CONVENTIONS §15 through HTTP (issue 15). */
describe('/v1 administrative writes (extensions)', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let dn: string;
  const rnd = () => randomBytes(3).toString('hex');
  const basic = (o: CreatedOrg = org) => ({ basic: o.api_key });
  const count = async (table: string, o: CreatedOrg = org) => Number((await t.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1`, [orgUuid(o)]))[0].n);

  beforeAll(async () => {
    t = await startTestApp();
    ({ a: org, b: other } = await twoOrgs(t));
    dn = org.domain_name;
  });
  afterAll(() => t.close());

  /** a course published on domain `d` (through the API) */
  const publish = async (d: string = dn, o: CreatedOrg = org) => {
    const c = await t.post('/v1/courses', { title: `Course ${rnd()}`, short_description: 'S', enforce_sequential_navigation: false }, basic(o));
    expect(c.status).toBe(201);
    const pc = await t.post(`/v1/domains/${d}/published-courses`, { course: { id: c.body.id } }, basic(o));
    expect(pc.status).toBe(201);
    return { courseId: c.body.id as string, id: pc.body.id as string };
  };
  const newDomain = async (o: CreatedOrg = org, extra: Record<string, unknown> = {}) => {
    const r = await t.post('/v1/domains', { name: `adm-${rnd()}.example.test`, ...extra }, basic(o));
    expect(r.status).toBe(201);
    return r.body;
  };

  describe('the OpenAPI document', () => {
    it('marks every administrative write x-extension: true with a description, and only those', async () => {
      const doc = (await t.get('/openapi.json')).body;
      const marked: string[] = [];
      for (const [path, item] of Object.entries<any>(doc.paths)) {
        for (const [method, op] of Object.entries<any>(item)) if (op?.['x-extension']) marked.push(`${method.toUpperCase()} ${path}`);
      }
      const D = '/v1/domains/{domain_name}';
      const ours = [
        'POST /v1/domains',
        `DELETE ${D}`,
        `POST ${D}/signup-fields`,
        `PUT ${D}/signup-fields/{signup_field_id}`,
        `PATCH ${D}/signup-fields/{signup_field_id}`,
        `DELETE ${D}/signup-fields/{signup_field_id}`,
        `POST ${D}/plan`,
        `PUT ${D}/plan/{plan_id}`,
        `PATCH ${D}/plan/{plan_id}`,
        `DELETE ${D}/plan/{plan_id}`,
        `POST ${D}/course-series`,
        `PUT ${D}/course-series/{course_series_id}`,
        `PATCH ${D}/course-series/{course_series_id}`,
        `DELETE ${D}/course-series/{course_series_id}`,
        'POST /v1/group-categories',
        'PUT /v1/group-categories/{group_category_id}',
        'PATCH /v1/group-categories/{group_category_id}',
        'DELETE /v1/group-categories/{group_category_id}',
      ];
      expect(marked).toEqual(expect.arrayContaining(ours));
      for (const op of ours) {
        const [method, path] = op.split(' ');
        expect([op, doc.paths[path][method.toLowerCase()].description]).toEqual([op, expect.stringMatching(/^Extension \(not in the published API\): ./)]);
      }
      // the published reads beside them are not marked
      expect(marked).not.toContain('GET /v1/domains');
      expect(marked).not.toContain(`GET ${D}/plan/{plan_id}`);
      // the rating members of the published enrollment update are
      const enr = doc.paths[`${D}/published-courses/{published_course_id}/enrollments/{enrollment_id}`];
      expect(enr.patch['x-extension-members']).toEqual(['rating', 'feedback']);
      expect(enr.put['x-extension-members']).toEqual(['rating', 'feedback']);
    });
  });

  describe('scopes', () => {
    it("each write needs its family's :write scope (group categories: student-groups:write)", async () => {
      const ro = await t.tokenFor(org, ['domains:read', 'signup-fields:read', 'plans:read', 'course-families:read', 'student-groups:read']);
      const D = `/v1/domains/${dn}`;
      const writes: [string, string, unknown][] = [
        ['POST', '/v1/domains', { name: `x-${rnd()}.test` }],
        ['POST', `${D}/signup-fields`, { label: 'L' }],
        ['POST', `${D}/plan`, { name: 'P', hidden: false }],
        ['POST', `${D}/course-series`, { title: 'S' }],
        ['POST', '/v1/group-categories', { name: 'G' }],
      ];
      for (const [method, path, body] of writes) {
        const r = await t.request(method, path, { token: ro, body });
        expect([method, path, r.status]).toEqual([method, path, 403]);
      }
      const right: Record<string, string> = {
        '/v1/domains': 'domains:write',
        [`${D}/signup-fields`]: 'signup-fields:write',
        [`${D}/plan`]: 'plans:write',
        [`${D}/course-series`]: 'course-families:write',
        '/v1/group-categories': 'student-groups:write',
      };
      for (const [method, path, body] of writes) {
        const tk = await t.tokenFor(org, [right[path]]);
        const r = await t.request(method, path, { token: tk, body });
        expect([path, r.status]).toEqual([path, 201]);
      }
    });
  });

  describe('domains', () => {
    it('POST /v1/domains answers the published Domain; private and access kept consistent', async () => {
      const name = `Shop-${rnd()}.Example.test`;
      const r = await t.post('/v1/domains', { name, catalog_title: '<h1>Shop</h1>', private: true }, basic());
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        id: expect.stringMatching(/^dom[0-9a-z]+$/),
        name: name.toLowerCase(),
        catalog_title: '<h1>Shop</h1>',
        private: true,
        access: 'PRIVATE',
        access_code_message_html: '',
        marketing_message: '',
      });
      expect((await t.get(`/v1/domains/${name.toLowerCase()}`, basic())).body).toEqual(r.body);
      expect((await t.post('/v1/domains', { name: `a-${rnd()}.test`, access: 'PRIVATE_CODE' }, basic())).body).toMatchObject({ private: true, access: 'PRIVATE_CODE' });
      expect((await t.post('/v1/domains', { name: `b-${rnd()}.test`, private: false }, basic())).body).toMatchObject({ private: false, access: 'PUBLIC' });
      expect((await t.post('/v1/domains', { name: `c-${rnd()}.test`, private: true, access: 'PRIVATE_CODE' }, basic())).body).toMatchObject({ private: true, access: 'PRIVATE_CODE' });
      expect((await t.post('/v1/domains', { name: `d-${rnd()}.test` }, basic())).body).toMatchObject({ private: false, access: 'PUBLIC' });
    });

    it('bad input is a 400 naming the member, and nothing is made', async () => {
      const before = await count('domains');
      const cases: [unknown, string][] = [
        [{}, 'name'],
        [{ name: 'not a domain!' }, 'name'],
        [{ name: dn }, 'name'], // taken (by this organization)
        [{ name: other.domain_name }, 'name'], // taken (by another: names are unique on the server)
        [{ name: `e-${rnd()}.test`, private: true, access: 'PUBLIC' }, 'private'],
        [{ name: `f-${rnd()}.test`, private: false, access: 'PRIVATE' }, 'private'],
        [{ name: `g-${rnd()}.test`, access: 'SECRET' }, 'access'],
        [{ name: 5 }, 'name'],
      ];
      for (const [body, field] of cases) {
        const r = await t.post('/v1/domains', body, basic());
        expect([JSON.stringify(body), r.status, Object.keys(drfFlat(r.body))]).toEqual([JSON.stringify(body), 400, [field]]);
      }
      expect(await count('domains')).toBe(before);
    });

    it('two creates of one name at once: one 201, one 400', async () => {
      const name = `race-${rnd()}.test`;
      const rs = await Promise.all([0, 1, 2].map(() => t.post('/v1/domains', { name }, basic())));
      expect(rs.map((r) => r.status).sort()).toEqual([201, 400, 400]);
      expect((await t.ds.query(`SELECT count(*)::int AS n FROM domains WHERE name = $1`, [name]))[0].n).toBe(1);
    });

    it('DELETE removes a domain without learners with its configuration; refuses one with learners and the last one', async () => {
      const d = await newDomain();
      const pc = await publish(d.name);
      const field = await t.post(`/v1/domains/${d.name}/signup-fields`, { label: 'Team' }, basic());
      const plan = await t.post(`/v1/domains/${d.name}/plan`, { name: 'Gold', hidden: false, published_courses: [{ id: pc.id }] }, basic());
      expect([field.status, plan.status]).toEqual([201, 201]);
      const del = await t.delete(`/v1/domains/${d.name}`, basic());
      expect(del.status).toBe(204);
      expect((await t.get(`/v1/domains/${d.name}`, basic())).status).toBe(404);
      expect((await t.delete(`/v1/domains/${d.name}`, basic())).status).toBe(404);
      for (const table of ['published_courses', 'signup_fields', 'plans']) {
        expect((await t.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE domain_id = $1`, [decodeId('domain', d.id)]))[0].n).toBe(0);
      }
      // the course itself is the organization's and stays
      expect((await t.get(`/v1/courses/${pc.courseId}`, basic())).status).toBe(200);

      // a domain with a member: 409, nothing deleted
      const withUser = await newDomain();
      const u = await t.post(`/v1/domains/${withUser.name}/users`, { user: { email: `m-${rnd()}@example.test`, first_name: 'M', last_name: 'U' } }, basic());
      expect(u.status).toBe(201);
      const refused = await t.delete(`/v1/domains/${withUser.name}`, basic());
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ detail: expect.stringMatching(/learners/) });
      expect((await t.get(`/v1/domains/${withUser.name}`, basic())).status).toBe(200);
      // an enrollment alone (membership since removed) keeps it too
      const pc2 = await publish(withUser.name);
      const e = await t.post(`/v1/domains/${withUser.name}/published-courses/${pc2.id}/enrollments`, { user: { id: u.body.user.id } }, basic());
      expect(e.status).toBe(201);
      await t.ds.query(`DELETE FROM domain_users WHERE domain_id = $1`, [decodeId('domain', withUser.id)]);
      expect((await t.delete(`/v1/domains/${withUser.name}`, basic())).status).toBe(409);

      // a purchase of one of its offers, not yet paid (no membership yet), keeps it too: the offers' keys would take it along
      const shop = await newDomain();
      const sold = await publish(shop.name);
      const offerId = (await t.get(`/v1/domains/${shop.name}/published-courses/${sold.id}`, basic())).body.offer.id;
      expect((await t.patch(`/v1/offers/${offerId}`, { price_cents: 1000 }, basic())).status).toBe(200);
      const buy = await t.post('/v1/purchases', { user: { email: `buyer-${rnd()}@example.test`, first_name: 'B', last_name: 'Uyer' }, offer_id: offerId }, basic());
      expect([buy.status, buy.body.purchase_state ?? buy.body.state]).toEqual([201, 'CREATED']);
      expect((await t.get(`/v1/domains/${shop.name}/users`, basic())).body.count).toBe(0);
      const kept = await t.delete(`/v1/domains/${shop.name}`, basic());
      expect(kept.status).toBe(409);
      expect(kept.body.detail).toMatch(/purchases/);

      // the last domain of an organization stays
      const solo = await t.newOrg();
      const last = await t.delete(`/v1/domains/${solo.domain_name}`, basic(solo));
      expect(last.status).toBe(409);
      expect(last.body.detail).toMatch(/only domain/);
    });

    it('deleting two of three domains at once leaves one: never zero', async () => {
      const o = await t.newOrg();
      const d1 = await newDomain(o);
      const rs = await Promise.all([o.domain_name, d1.name].map((n) => t.delete(`/v1/domains/${n}`, basic(o))));
      expect(rs.map((r) => r.status).sort()).toEqual([204, 409]);
      expect(await count('domains', o)).toBe(1);
    });

    it("another organization's domain is 404 on delete and on every write under it", async () => {
      const theirs = other.domain_name;
      expect((await t.delete(`/v1/domains/${theirs}`, basic())).status).toBe(404);
      expect((await t.post(`/v1/domains/${theirs}/signup-fields`, { label: 'X' }, basic())).status).toBe(404);
      expect((await t.post(`/v1/domains/${theirs}/plan`, { name: 'X', hidden: false }, basic())).status).toBe(404);
      expect((await t.post(`/v1/domains/${theirs}/course-series`, { title: 'X' }, basic())).status).toBe(404);
      expect((await t.get(`/v1/domains/${theirs}`, basic(other))).status).toBe(200);
    });
  });

  describe('signup fields', () => {
    it('create, read through the published list, update (PUT and PATCH), delete', async () => {
      const d = await newDomain();
      const base = `/v1/domains/${d.name}/signup-fields`;
      const c = await t.post(base, { type: 'PICKLIST', label: 'Region', required: true, options: [{ value: 'EMEA' }, { value: 'APAC' }], help_text: 'Where you work' }, basic());
      expect(c.status).toBe(201);
      expect(c.body).toEqual({
        id: expect.stringMatching(/^sfd[0-9a-z]+$/),
        type: 'PICKLIST',
        label: 'Region',
        help_text: 'Where you work',
        regex_validator: '',
        regex_validator_error_text: '',
        required: true,
        active: true,
        order: 0,
        options: [
          { id: expect.stringMatching(/^[0-9a-z]+$/), value: 'EMEA' },
          { id: expect.stringMatching(/^[0-9a-z]+$/), value: 'APAC' },
        ],
      });
      const text = await t.post(base, { label: 'Employee number', order: 5 }, basic());
      expect(text.body).toMatchObject({ type: 'TEXT', required: false, options: [], order: 5 });
      const list = await t.get(base, basic());
      expect(list.body.results).toEqual([c.body, text.body]);

      // PATCH: options replaced; an option sent again by value keeps its id (group rules naming it keep working)
      const [emea, apac] = c.body.options;
      const p = await t.patch(`${base}/${c.body.id}`, { options: [{ value: 'AMER' }, { value: 'EMEA' }] }, basic());
      expect(p.status).toBe(200);
      expect(p.body.options).toEqual([{ id: expect.any(String), value: 'AMER' }, emea]);
      expect(p.body.options[0].id).not.toBe(apac.id);
      // a read written back is accepted unchanged (ids kept by id)
      const back = await t.request('PUT', `${base}/${c.body.id}`, { body: p.body, ...basic() });
      expect(back.status).toBe(200);
      expect(back.body).toEqual(p.body);
      // by id: the value of an option changes, its id stays
      const renamed = await t.patch(`${base}/${c.body.id}`, { options: [{ id: emea.id, value: 'Europe' }] }, basic());
      expect(renamed.body.options).toEqual([{ id: emea.id, value: 'Europe' }]);
      // PUT needs the label
      const put = await t.request('PUT', `${base}/${c.body.id}`, { body: { required: false }, ...basic() });
      expect(put.status).toBe(400);
      expect(put.body).toEqual({ label: ['This field is required.'] });
      // type change to TEXT drops the options
      expect((await t.patch(`${base}/${c.body.id}`, { type: 'TEXT' }, basic())).body.options).toEqual([]);

      expect((await t.delete(`${base}/${text.body.id}`, basic())).status).toBe(204);
      expect((await t.delete(`${base}/${text.body.id}`, basic())).status).toBe(404);
      expect((await t.patch(`${base}/${text.body.id}`, { label: 'x' }, basic())).status).toBe(404);
      expect((await t.get(base, basic())).body.count).toBe(1);
    });

    it('bad input: 400 naming the member, nothing written', async () => {
      const base = `/v1/domains/${dn}/signup-fields`;
      const f = await t.post(base, { label: 'Size', type: 'PICKLIST', options: [{ value: 'S' }] }, basic());
      const before = await t.ds.query(`SELECT * FROM signup_fields WHERE organization_id = $1 ORDER BY id`, [orgUuid(org)]);
      const cases: [unknown, string][] = [
        [{}, 'label'],
        [{ label: '' }, 'label'],
        [{ label: 'x', type: 'DATE' }, 'type'],
        [{ label: 'x', type: 'PICKLIST' }, 'options'],
        [{ label: 'x', type: 'PICKLIST', options: [] }, 'options'],
        [{ label: 'x', type: 'PICKLIST', options: [{ value: 'a' }, { value: 'a' }] }, 'options'],
        [{ label: 'x', type: 'TEXT', options: [{ value: 'a' }] }, 'options'],
        [{ label: 'x', options: 'a,b' }, 'options'],
        [{ label: 'x', type: 'PICKLIST', options: [{ value: 'x'.repeat(101) }] }, 'options.0.value'],
        [{ label: 'x', required: 'yes' }, 'required'],
        [{ label: 'x', order: -1 }, 'order'],
        [{ label: 'x', regex_validator: '([' }, 'regex_validator'],
      ];
      for (const [body, field] of cases) {
        const r = await t.post(base, body, basic());
        expect([JSON.stringify(body), r.status, Object.keys(drfFlat(r.body))]).toEqual([JSON.stringify(body), 400, [field]]);
      }
      const upd: [unknown, string][] = [
        [{ options: [{ id: 'nope', value: 'M' }] }, 'options'],
        [{ options: [] }, 'options'],
        [{ label: null }, 'label'],
      ];
      for (const [body, field] of upd) {
        const r = await t.patch(`${base}/${f.body.id}`, body, basic());
        expect([JSON.stringify(body), r.status, Object.keys(drfFlat(r.body))]).toEqual([JSON.stringify(body), 400, [field]]);
      }
      expect(await t.ds.query(`SELECT * FROM signup_fields WHERE organization_id = $1 ORDER BY id`, [orgUuid(org)])).toEqual(before);
    });

    it("another organization's field is 404 under its own domain name and under ours", async () => {
      const theirs = await t.post(`/v1/domains/${other.domain_name}/signup-fields`, { label: 'Theirs' }, basic(other));
      expect(theirs.status).toBe(201);
      expect((await t.patch(`/v1/domains/${dn}/signup-fields/${theirs.body.id}`, { label: 'Mine' }, basic())).status).toBe(404);
      expect((await t.delete(`/v1/domains/${dn}/signup-fields/${theirs.body.id}`, basic())).status).toBe(404);
      expect((await t.patch(`/v1/domains/${other.domain_name}/signup-fields/${theirs.body.id}`, { label: 'Mine' }, basic())).status).toBe(404);
      // a field of another domain of the same organization is not found under this one
      const d = await newDomain();
      const f = await t.post(`/v1/domains/${d.name}/signup-fields`, { label: 'Elsewhere' }, basic());
      expect((await t.patch(`/v1/domains/${dn}/signup-fields/${f.body.id}`, { label: 'x' }, basic())).status).toBe(404);
      expect((await t.get(`/v1/domains/${other.domain_name}/signup-fields`, basic(other))).body.results.map((r: any) => r.label)).toEqual(['Theirs']);
    });
  });

  describe('plans', () => {
    it('create with published courses and paths and its offer; update; delete', async () => {
      const d = await newDomain();
      const [a, b] = [await publish(d.name), await publish(d.name)];
      const pp = await t.post(`/v1/domains/${d.name}/published-paths`, { slug: `path-${rnd()}`, path: { title: 'Path' } }, basic());
      expect(pp.status).toBe(201);
      const base = `/v1/domains/${d.name}/plan`;
      const c = await t.post(
        base,
        { name: 'Gold Plan', hidden: false, short_description: 'Everything', published_courses: [{ id: b.id }, { id: a.id }], published_paths: [{ id: pp.body.id }] },
        basic(),
      );
      expect(c.status).toBe(201);
      expect(c.body).toEqual({
        id: expect.stringMatching(/^pln[0-9a-z]+$/),
        plan: { id: c.body.id, title: 'Gold Plan' },
        name: 'Gold Plan',
        slug: 'gold-plan',
        plan_url: `https://${d.name}/plan/gold-plan`,
        offer: expect.objectContaining({ id: expect.stringMatching(/^ofr/), registration_open: true, registration_url: expect.stringContaining(d.name) }),
        hidden: false,
        short_description: 'Everything',
        published_courses: [{ id: b.id }, { id: a.id }],
        published_paths: [{ id: pp.body.id }],
      });
      expect(await t.ds.query(`SELECT count(*)::int AS n FROM offers WHERE plan_id = $1 AND organization_id = $2`, [decodeId('plan', c.body.id), orgUuid(org)])).toEqual([{ n: 1 }]);
      expect((await t.get(`${base}/${c.body.id}`, basic())).body).toEqual(c.body);
      expect((await t.get(base, basic())).body.results).toEqual([c.body]);

      // a second plan of the same name gets another slug; a chosen slug that is taken is a 400
      const c2 = await t.post(base, { name: 'Gold Plan', hidden: true }, basic());
      expect(c2.body.slug).toMatch(/^gold-plan-[0-9a-f]{6}$/);
      const taken = await t.post(base, { name: 'Other', hidden: true, slug: 'gold-plan' }, basic());
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ slug: [expect.stringMatching(/already exists/)] });

      // PATCH: only the members sent; a list sent replaces the stored one
      const p = await t.patch(`${base}/${c.body.id}`, { published_courses: [{ id: a.id }], hidden: true }, basic());
      expect(p.status).toBe(200);
      expect(p.body).toMatchObject({ name: 'Gold Plan', hidden: true, published_courses: [{ id: a.id }], published_paths: [{ id: pp.body.id }] });
      expect((await t.patch(`${base}/${c.body.id}`, { slug: c2.body.slug }, basic())).status).toBe(400);
      const put = await t.request('PUT', `${base}/${c.body.id}`, { body: { name: 'Silver' }, ...basic() });
      expect(put.status).toBe(400);
      expect(put.body).toEqual({ hidden: ['This field is required.'] });
      // a read written back is accepted
      const rw = await t.request('PUT', `${base}/${c.body.id}`, { body: p.body, ...basic() });
      expect(rw.status).toBe(200);
      expect(rw.body).toEqual(p.body);

      // an unpublished course leaves the plan's reads
      expect((await t.delete(`/v1/domains/${d.name}/published-courses/${a.id}`, basic())).status).toBe(204);
      expect((await t.get(`${base}/${c.body.id}`, basic())).body.published_courses).toEqual([]);

      expect((await t.delete(`${base}/${c.body.id}`, basic())).status).toBe(204);
      expect((await t.get(`${base}/${c.body.id}`, basic())).status).toBe(404);
      expect((await t.delete(`${base}/${c.body.id}`, basic())).status).toBe(404);
      expect((await t.get(base, basic())).body.results.map((r: any) => r.id)).toEqual([c2.body.id]);
      // the deleted plan's slug is free again
      expect((await t.post(base, { name: 'Gold Plan', hidden: false }, basic())).body.slug).toBe('gold-plan');
    });

    it('bad input and foreign ids: 400 naming the member, nothing written', async () => {
      const d = await newDomain();
      const mine = await publish(d.name);
      const elsewhere = await publish(dn); // published on another domain of the organization
      const theirs = await publish(other.domain_name, other);
      const base = `/v1/domains/${d.name}/plan`;
      const before = [await count('plans'), await count('plan_items'), await count('offers')];
      const cases: [unknown, string][] = [
        [{ hidden: false }, 'name'],
        [{ name: 'P' }, 'hidden'],
        [{ name: 'P', hidden: false, slug: 'Not A Slug' }, 'slug'],
        [{ name: 'P', hidden: false, short_description: 'x'.repeat(301) }, 'short_description'],
        [{ name: 'P', hidden: false, published_courses: [{ id: theirs.id }] }, 'published_courses'],
        [{ name: 'P', hidden: false, published_courses: [{ id: elsewhere.id }] }, 'published_courses'],
        [{ name: 'P', hidden: false, published_courses: [{ id: mine.id }, { id: mine.id }] }, 'published_courses'],
        [{ name: 'P', hidden: false, published_courses: [{ id: 'nope' }] }, 'published_courses'],
        [{ name: 'P', hidden: false, published_courses: { id: mine.id } }, 'published_courses'],
        [{ name: 'P', hidden: false, published_paths: [{ id: mine.id }] }, 'published_paths'],
      ];
      for (const [body, field] of cases) {
        const r = await t.post(base, body, basic());
        expect([JSON.stringify(body), r.status, Object.keys(drfFlat(r.body))]).toEqual([JSON.stringify(body), 400, [field]]);
      }
      expect([await count('plans'), await count('plan_items'), await count('offers')]).toEqual(before);
      // another organization's plan: 404 on every write
      const theirPlan = await t.post(`/v1/domains/${other.domain_name}/plan`, { name: 'Theirs', hidden: false }, basic(other));
      for (const [m, body] of [
        ['PUT', { name: 'x', hidden: false }],
        ['PATCH', { name: 'x' }],
        ['DELETE', undefined],
      ] as const) {
        expect((await t.request(m, `/v1/domains/${dn}/plan/${theirPlan.body.id}`, { body, ...basic() })).status).toBe(404);
      }
      expect((await t.get(`/v1/domains/${other.domain_name}/plan/${theirPlan.body.id}`, basic(other))).body.name).toBe('Theirs');
    });

    it('concurrent creates with one chosen slug: exactly one plan has it', async () => {
      const d = await newDomain();
      const rs = await Promise.all([0, 1, 2, 3].map((i) => t.post(`/v1/domains/${d.name}/plan`, { name: `P${i}`, hidden: false, slug: 'same' }, basic())));
      expect(rs.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
      expect((await t.ds.query(`SELECT count(*)::int AS n FROM plans WHERE domain_id = $1 AND organization_id = $2`, [decodeId('domain', d.id), orgUuid(org)]))[0].n).toBe(1);
    });
  });

  describe('course series', () => {
    it('create with ordered published courses and its offer; update the order; delete', async () => {
      const d = await newDomain();
      const [a, b, c] = [await publish(d.name), await publish(d.name), await publish(d.name)];
      const base = `/v1/domains/${d.name}/course-series`;
      const s = await t.post(base, { title: 'Cloud Series', published_courses: [{ id: c.id }, { id: a.id }] }, basic());
      expect(s.status).toBe(201);
      expect(s.body).toEqual({
        id: expect.stringMatching(/^csr[0-9a-z]+$/),
        title: 'Cloud Series',
        visible_on_catalog: true,
        series_url: `https://${d.name}/series/cloud-series`,
        published_course_count: 2,
        offer: expect.objectContaining({ id: expect.stringMatching(/^ofr/), registration_open: true, registration_url: expect.stringContaining(d.name) }),
      });
      const courses = async () => (await t.get(`${base}/${s.body.id}/published-courses`, basic())).body.results.map((r: any) => r.id);
      expect(await courses()).toEqual([c.id, a.id]);
      const p = await t.patch(`${base}/${s.body.id}`, { published_courses: [{ id: b.id }, { id: c.id }, { id: a.id }], visible_on_catalog: false }, basic());
      expect(p.status).toBe(200);
      expect(p.body).toMatchObject({ title: 'Cloud Series', visible_on_catalog: false, published_course_count: 3 });
      expect(await courses()).toEqual([b.id, c.id, a.id]);
      // a title change keeps the URL
      expect((await t.request('PUT', `${base}/${s.body.id}`, { body: { title: 'Renamed' }, ...basic() })).body).toMatchObject({ title: 'Renamed', series_url: s.body.series_url });
      expect((await t.request('PUT', `${base}/${s.body.id}`, { body: { visible_on_catalog: true }, ...basic() })).body).toEqual({ title: ['This field is required.'] });
      // bad input changes nothing
      const theirs = await publish(other.domain_name, other);
      const bad = await t.patch(`${base}/${s.body.id}`, { title: 'X', published_courses: [{ id: a.id }, { id: theirs.id }] }, basic());
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body)).toEqual(['published_courses']);
      expect((await t.get(`${base}/${s.body.id}`, basic())).body.title).toBe('Renamed');
      expect(await courses()).toEqual([b.id, c.id, a.id]);
      expect((await t.post(base, { published_courses: [] }, basic())).body).toEqual({ title: ['This field is required.'] });

      expect((await t.delete(`${base}/${s.body.id}`, basic())).status).toBe(204);
      expect((await t.get(`${base}/${s.body.id}`, basic())).status).toBe(404);
      expect((await t.patch(`${base}/${s.body.id}`, { title: 'Back' }, basic())).status).toBe(404);
      // another organization's series
      const their = await t.post(`/v1/domains/${other.domain_name}/course-series`, { title: 'Theirs' }, basic(other));
      expect((await t.patch(`/v1/domains/${dn}/course-series/${their.body.id}`, { title: 'x' }, basic())).status).toBe(404);
      expect((await t.delete(`/v1/domains/${dn}/course-series/${their.body.id}`, basic())).status).toBe(404);
    });
  });

  describe('group categories', () => {
    it('create, rename (PUT and PATCH), delete (its groups keep going without one)', async () => {
      const c = await t.post('/v1/group-categories', { name: 'Region' }, basic());
      expect(c.status).toBe(201);
      expect(c.body).toEqual({ id: expect.stringMatching(/^gcat[0-9a-z]+$/), name: 'Region' });
      expect((await t.get(`/v1/group-categories/${c.body.id}`, basic())).body).toEqual(c.body);
      const g = await t.post('/v1/groups', { name: `G ${rnd()}`, group_category_id: c.body.id }, basic());
      expect(g.body.group_category_id).toBe(c.body.id);
      expect((await t.request('PUT', `/v1/group-categories/${c.body.id}`, { body: { name: 'Area' }, ...basic() })).body).toEqual({ id: c.body.id, name: 'Area' });
      expect((await t.patch(`/v1/group-categories/${c.body.id}`, { name: 'Zone' }, basic())).body).toEqual({ id: c.body.id, name: 'Zone' });
      for (const body of [{}, { name: '' }, { name: 7 }, { name: 'x'.repeat(256) }]) {
        const r = await t.post('/v1/group-categories', body, basic());
        expect([r.status, Object.keys(r.body)]).toEqual([400, ['name']]);
        expect((await t.patch(`/v1/group-categories/${c.body.id}`, body, basic())).status).toBe(400);
      }
      expect((await t.get(`/v1/group-categories/${c.body.id}`, basic())).body.name).toBe('Zone');
      expect((await t.delete(`/v1/group-categories/${c.body.id}`, basic())).status).toBe(204);
      expect((await t.get(`/v1/group-categories/${c.body.id}`, basic())).status).toBe(404);
      expect((await t.get(`/v1/groups/${g.body.id}`, basic())).body.group_category_id).toBeNull();
      // another organization's category
      const theirs = await t.post('/v1/group-categories', { name: 'Theirs' }, basic(other));
      expect((await t.patch(`/v1/group-categories/${theirs.body.id}`, { name: 'x' }, basic())).status).toBe(404);
      expect((await t.delete(`/v1/group-categories/${theirs.body.id}`, basic())).status).toBe(404);
      expect((await t.get(`/v1/group-categories/${theirs.body.id}`, basic(other))).body.name).toBe('Theirs');
    });
  });

  describe('Idempotency-Key', () => {
    it('a repeated create with the same key answers the first answer and makes one object', async () => {
      const before = await count('plans');
      const headers = { 'Idempotency-Key': `adm-${rnd()}` };
      const body = { name: 'Once', hidden: false };
      const r1 = await t.post(`/v1/domains/${dn}/plan`, body, { ...basic(), headers });
      const r2 = await t.post(`/v1/domains/${dn}/plan`, body, { ...basic(), headers });
      expect(r1.status).toBe(201);
      expect(r2.status).toBe(201);
      expect(r2.body).toEqual(r1.body);
      expect(await count('plans')).toBe(before + 1);
      const r3 = await t.post(`/v1/domains/${dn}/plan`, { ...body, name: 'Twice' }, { ...basic(), headers });
      expect(r3.status).toBe(422);
    });
  });
});
