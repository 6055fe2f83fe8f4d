import { decodeId } from '../../src/core/ids/ids';
import { V1Groups1763700011000 } from '../../migrations/1763700011000-v1-groups';
import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { twoOrgs } from '../support/two-orgs';
import { countQueries, domainOf, insertGroupCategory, insertStudent, orgUuid } from '../support/fixtures';
import { drfFlat } from '../support/drf';

describe('/v1 groups, email-domain rules and group categories', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  const basic = () => ({ basic: org.api_key });
  const bearer = () => ({ token });
  const both = () => [basic(), bearer()];

  beforeAll(async () => {
    t = await startTestApp();
    ({ a: org, b: other, tokenA: token } = await twoOrgs(t));
    // signup-field options the rules name (no endpoint creates signup fields): one field of the
    // org's domain, one organization-wide, one of the other organization
    dn = (await domainOf(t, org)).name;
    const field = `INSERT INTO signup_fields (organization_id, domain_id, label, type, options) VALUES ($1, $2, $3, 'PICKLIST', $4::jsonb)`;
    await t.ds.query(field, [
      orgUuid(org),
      (await domainOf(t, org)).uuid,
      'Region',
      JSON.stringify([
        { id: 'opt1', value: 'EMEA' },
        { id: 'opt2', value: 'APAC' },
      ]),
    ]);
    await t.ds.query(field, [
      orgUuid(org),
      null,
      'Tier',
      JSON.stringify([
        { id: 'a', value: 'Gold' },
        { id: 'x', value: 'Silver' },
        { id: 'z', value: 'Bronze' },
      ]),
    ]);
    await t.ds.query(field, [orgUuid(other), null, 'Theirs', JSON.stringify([{ id: 'theirs', value: 'T' }])]);
  });
  afterAll(() => t.close());

  let dn: string;
  const opt = (id: string) => {
    const known: Record<string, [string, string | null]> = { opt1: ['EMEA', 'dn'], opt2: ['APAC', 'dn'], a: ['Gold', null], x: ['Silver', null], z: ['Bronze', null] };
    const [value, domain] = known[id];
    // value and domain_name left out without one (optional, not nullable in the published SignupFieldOptionLink)
    return domain ? { id, value, domain_name: dn } : { id, value };
  };
  let seq = 0;
  const create = async (body: Record<string, unknown> = {}, o: CreatedOrg = org) => {
    const r = await t.post('/v1/groups', { name: `Group ${++seq}`, ...body }, { basic: o.api_key });
    expect(r.status).toBe(201);
    return r.body;
  };
  const row = async (publicId: string) => (await t.ds.query(`SELECT * FROM groups WHERE id = $1`, [decode(publicId)]))[0];
  const decode = (id: string) => decodeId('group', id);
  const member = async (groupId: string, o: CreatedOrg = org) => {
    const s = await insertStudent(t, o);
    await t.ds.query(`INSERT INTO group_memberships (group_id, user_id, organization_id) VALUES ($1, $2, $3)`, [decode(groupId), s.uuid, orgUuid(o)]);
    return s;
  };

  describe('auth', () => {
    it('401 without credentials, 403 without student-groups scopes, on every operation', async () => {
      const g = await create();
      const ops: [string, string, unknown?][] = [
        ['GET', '/v1/groups'],
        ['POST', '/v1/groups', { name: 'Nope' }],
        ['GET', `/v1/groups/${g.id}`],
        ['PUT', `/v1/groups/${g.id}`, { name: 'Nope' }],
        ['PATCH', `/v1/groups/${g.id}`, { name: 'Nope' }],
        ['DELETE', `/v1/groups/${g.id}`],
        ['GET', `/v1/groups/${g.id}/email-domain-rules`],
        ['PATCH', `/v1/groups/${g.id}/email-domain-rules`, { add: ['x.example'] }],
        ['GET', '/v1/group-categories'],
        ['GET', `/v1/group-categories/${encodeId('groupCategory', newUuid())}`],
      ];
      const none = await t.tokenFor(org, ['courses:read', 'courses:write']);
      const readOnly = await t.tokenFor(org, ['student-groups:read']);
      for (const [method, path, body] of ops) {
        const anon = await t.request(method, path, { body });
        expect([method, path, anon.status]).toEqual([method, path, 401]);
        expect(anon.body).toEqual({ detail: expect.any(String) });
        const forbidden = await t.request(method, path, { body, token: none });
        expect([method, path, forbidden.status]).toEqual([method, path, 403]);
        const ro = await t.request(method, path, { body, token: readOnly });
        if (method === 'GET') expect([path, ro.status]).not.toEqual([path, 403]);
        else expect([method, path, ro.status]).toEqual([method, path, 403]);
      }
      expect(await row(g.id)).toMatchObject({ name: g.name });
      // a wrong API key is 401
      expect((await t.get('/v1/groups', { basic: 'not-a-key' })).status).toBe(401);
    });
  });

  describe('create and read', () => {
    it('creates with every member (API key and Bearer) and reads the v1 Group shape', async () => {
      const cat = await insertGroupCategory(t, org, 'Partners');
      for (const auth of both()) {
        const name = `Full ${++seq}`;
        const r = await t.post(
          '/v1/groups',
          {
            name,
            discount_percent: 15,
            group_category_id: cat.id,
            sign_up_field_rule: { enforce: true, require_match_all: false, options: [{ id: 'opt1' }, { id: 'opt2' }, { id: 'opt1' }] },
            rule_email_domains: ['Example.COM', 'example.com', 'corp.example.org'],
            unknown_member: 'ignored',
          },
          auth,
        );
        expect(r.status).toBe(201);
        expect(r.body).toEqual({
          id: expect.stringMatching(/^[0-9a-z]+$/),
          name,
          user_count: 0,
          discount_percent: 15,
          group_category_id: cat.id,
          sign_up_field_rule: { enforce: true, require_match_all: false, options: [opt('opt1'), opt('opt2')] },
          rule_email_domains: ['example.com', 'corp.example.org'],
        });
        const read = await t.get(`/v1/groups/${r.body.id}`, auth);
        expect(read.status).toBe(200);
        expect(read.body).toEqual(r.body);
        expect(await row(r.body.id)).toMatchObject({ organization_id: orgUuid(org), category_id: cat.uuid, discount_percent: 15 });
      }
    });

    it('defaults: only name sent; enforce and require_match_all default to false; `enforced` is an alias of `enforce`', async () => {
      const r = await t.post('/v1/groups', { name: '  Trimmed name  ' }, bearer());
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        id: expect.any(String),
        name: 'Trimmed name',
        user_count: 0,
        discount_percent: null,
        group_category_id: null,
        rule_email_domains: [],
      });
      const d = await create({ sign_up_field_rule: { options: [] } });
      expect(d.sign_up_field_rule).toEqual({ enforce: false, require_match_all: false, options: [] });
      const alias = await create({ sign_up_field_rule: { enforced: true, options: [{ id: 'a' }] } });
      expect(alias.sign_up_field_rule).toEqual({ enforce: true, require_match_all: false, options: [opt('a')] });
    });

    it('400 field errors for required, type, range and shape; nothing is created; never a 500', async () => {
      const before = await t.ds.query(`SELECT count(*)::int AS n FROM groups WHERE organization_id = $1`, [orgUuid(org)]);
      const cases: [unknown, string][] = [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: null }, 'name'],
        [{ name: 42 }, 'name'],
        [{ name: 'n'.repeat(101) }, 'name'],
        [{ name: 'nul\u0000' }, 'name'],
        [{ name: 'ok', discount_percent: -1 }, 'discount_percent'],
        [{ name: 'ok', discount_percent: 101 }, 'discount_percent'],
        [{ name: 'ok', discount_percent: 1.5 }, 'discount_percent'],
        [{ name: 'ok', discount_percent: '10' }, 'discount_percent'],
        [{ name: 'ok', group_category_id: 'nope' }, 'group_category_id'],
        [{ name: 'ok', group_category_id: encodeId('groupCategory', newUuid()) }, 'group_category_id'],
        [{ name: 'ok', group_category_id: 12 }, 'group_category_id'],
        [{ name: 'ok', group_category_id: '' }, 'group_category_id'],
        [{ name: 'ok', group_category_id: 'x'.repeat(5000) }, 'group_category_id'],
        [{ name: 'ok', sign_up_field_rule: 'yes' }, 'sign_up_field_rule'],
        [{ name: 'ok', sign_up_field_rule: [] }, 'sign_up_field_rule'],
        [{ name: 'ok', sign_up_field_rule: { enforce: true } }, 'sign_up_field_rule.options'],
        [{ name: 'ok', sign_up_field_rule: { options: 'a' } }, 'sign_up_field_rule.options'],
        [{ name: 'ok', sign_up_field_rule: { options: [{}] } }, 'sign_up_field_rule.options'],
        [{ name: 'ok', sign_up_field_rule: { options: [{ id: '' }] } }, 'sign_up_field_rule.options'],
        [{ name: 'ok', sign_up_field_rule: { options: ['a'] } }, 'sign_up_field_rule.options'],
        [{ name: 'ok', sign_up_field_rule: { enforce: 'yes', options: [] } }, 'sign_up_field_rule.enforce'],
        [{ name: 'ok', sign_up_field_rule: { require_match_all: 1, options: [] } }, 'sign_up_field_rule.require_match_all'],
        [{ name: 'ok', sign_up_field_rule: { options: [{ id: 'opt1' }, { id: 'no-such-option' }] } }, 'sign_up_field_rule.options'],
        [{ name: 'ok', sign_up_field_rule: { options: [{ id: 'theirs' }] } }, 'sign_up_field_rule.options'],
        [{ name: 'ok', rule_email_domains: 'example.com' }, 'rule_email_domains'],
        [{ name: 'ok', rule_email_domains: ['@example.com'] }, 'rule_email_domains.0'], // a list element is named by its index (DRF: {"rule_email_domains": {"0": [...]}})
        [{ name: 'ok', rule_email_domains: [1] }, 'rule_email_domains.0'],
      ];
      for (const [body, field] of cases) {
        const r = await t.post('/v1/groups', body, basic());
        expect([JSON.stringify(body).slice(0, 80), r.status]).toEqual([JSON.stringify(body).slice(0, 80), 400]);
        expect(drfFlat(r.body)[field]).toEqual(expect.arrayContaining([expect.any(String)]));
      }
      // another organization's category is not one of ours
      const theirs = await insertGroupCategory(t, other);
      const r = await t.post('/v1/groups', { name: 'ok', group_category_id: theirs.id }, bearer());
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ group_category_id: [expect.stringContaining('does not exist')] });
      // non-object bodies
      expect((await t.post('/v1/groups', [1, 2], basic())).status).toBe(400);
      expect((await t.request('POST', '/v1/groups', { basic: org.api_key, raw: { contentType: 'application/json', data: '"str"' } })).status).toBe(400);
      const after = await t.ds.query(`SELECT count(*)::int AS n FROM groups WHERE organization_id = $1`, [orgUuid(org)]);
      expect(after).toEqual(before);
    });

    it('names are unique within the organization (case-sensitive); another organization may reuse a name', async () => {
      await create({ name: 'Unique Team' });
      const dup = await t.post('/v1/groups', { name: 'Unique Team' }, basic());
      expect(dup.status).toBe(400);
      expect(dup.body).toEqual({ name: [expect.stringContaining('already exists')] });
      const trimmedDup = await t.post('/v1/groups', { name: ' Unique Team ' }, basic());
      expect(trimmedDup.status).toBe(400);
      expect((await t.post('/v1/groups', { name: 'unique team' }, basic())).status).toBe(201);
      expect((await t.post('/v1/groups', { name: 'Unique Team' }, { basic: other.api_key })).status).toBe(201);
      expect(await t.ds.query(`SELECT count(*)::int AS n FROM groups WHERE organization_id = $1 AND name = 'Unique Team'`, [orgUuid(org)])).toEqual([{ n: 1 }]);
    });

    it('404 for undecodable, unknown, wrong-type and other-organization ids', async () => {
      const theirs = await create({}, other);
      for (const id of ['nope', encodeId('group', newUuid()), encodeId('course', newUuid()), theirs.id, 'x'.repeat(3000)]) {
        const r = await t.get(`/v1/groups/${id}`, basic());
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ detail: expect.any(String) });
      }
    });
  });

  describe('list', () => {
    it('lists the organization groups in creation order with user_count computed in one query for the page; exact name filter', async () => {
      const o = await t.newOrg();
      const a = await create({ name: 'Alpha' }, o);
      const b = await create({ name: 'alpha' }, o);
      const c = await create({ name: 'Alpha Beta' }, o);
      await create({ name: 'Alpha' }, other);
      await member(a.id, o);
      await member(a.id, o);
      await member(c.id, o);
      const res = await t.get('/v1/groups', { basic: o.api_key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 3,
        next: null,
        previous: null,
        results: [
          { ...a, user_count: 2 },
          { ...b, user_count: 0 },
          { ...c, user_count: 1 },
        ],
      });
      const tok = await t.tokenFor(o);
      expect((await t.get('/v1/groups/', { token: tok })).body.count).toBe(3);
      const exact = await t.get('/v1/groups?name=Alpha', { token: tok });
      expect(exact.body.results.map((g: any) => g.id)).toEqual([a.id]);
      expect((await t.get('/v1/groups?name=alp', { token: tok })).body).toEqual({ count: 0, next: null, previous: null, results: [] });
      expect((await t.get('/v1/groups?name=', { token: tok })).body.count).toBe(3);
      expect((await t.get(`/v1/groups?name=${encodeURIComponent('Alpha Beta')}`, { token: tok })).body.results[0].user_count).toBe(1);
      // pagination: page_size and links, a page past the end is 404
      const p1 = await t.get('/v1/groups?page_size=2', { token: tok });
      expect(p1.body.results.map((g: any) => g.id)).toEqual([a.id, b.id]);
      expect(p1.body.next).toMatch(/page=2/);
      const p2 = await t.get('/v1/groups?page_size=2&page=2', { token: tok });
      expect(p2.body.results.map((g: any) => g.id)).toEqual([c.id]);
      expect(p2.body.previous).not.toBeNull();
      expect((await t.get('/v1/groups?page=9', { token: tok })).status).toBe(404);
      for (const q of ['page=0', 'page=x', 'page_size=-1', 'page_size=abc']) {
        const r = await t.get(`/v1/groups?${q}`, { token: tok });
        expect([q, r.status]).toEqual([q, 400]);
      }
      // a list filter never fails on an odd value: it matches nothing (issue 25 item 7)
      expect((await t.get('/v1/groups?name=a%00b', { token: tok })).body).toMatchObject({ count: 0, results: [] });
      // user_count of the whole page: a constant number of statements however many groups
      const counted = await countQueries(() => t.get('/v1/groups', { basic: o.api_key }));
      for (let i = 0; i < 5; i++) await member((await create({}, o)).id, o);
      const counted2 = await countQueries(() => t.get('/v1/groups', { basic: o.api_key }));
      expect(counted2.result.body.count).toBe(8);
      expect(counted2.count).toBe(counted.count);
    });

    it('rule options are resolved for the whole page in one query; a vanished option keeps its id, value and domain_name left out', async () => {
      const a = await create({ sign_up_field_rule: { options: [{ id: 'opt1' }] } });
      const name = `rule-${seq}`;
      const one = await countQueries(() => t.get(`/v1/groups?name=${encodeURIComponent(a.name)}`, basic()));
      expect(one.result.body.results[0].sign_up_field_rule.options).toEqual([opt('opt1')]);
      const b = await create({ name, sign_up_field_rule: { options: [{ id: 'x' }, { id: 'opt2' }] } });
      const all = await countQueries(() => t.get('/v1/groups?page_size=1000', basic()));
      const byId = new Map(all.result.body.results.map((g: any) => [g.id, g]));
      expect((byId.get(b.id) as any).sign_up_field_rule.options).toEqual([opt('x'), opt('opt2')]);
      expect(all.count).toBe(one.count);
      // the signup field loses the option: the rule still names it
      const o = await t.newOrg();
      await t.ds.query(`INSERT INTO signup_fields (organization_id, label, options) VALUES ($1, 'Gone', '[{"id": "gone", "value": "G"}]')`, [orgUuid(o)]);
      const g = (await t.post('/v1/groups', { name: 'With gone', sign_up_field_rule: { options: [{ id: 'gone' }] } }, { basic: o.api_key })).body;
      expect(g.sign_up_field_rule.options).toEqual([{ id: 'gone', value: 'G' }]);
      await t.ds.query(`UPDATE signup_fields SET options = '[]' WHERE organization_id = $1`, [orgUuid(o)]);
      expect((await t.get(`/v1/groups/${g.id}`, { basic: o.api_key })).body.sign_up_field_rule.options).toEqual([{ id: 'gone' }]);
    });

    it('caps page_size at 1000', async () => {
      const o = await t.newOrg();
      await t.ds.query(`INSERT INTO groups (organization_id, name) SELECT $1, 'bulk ' || i FROM generate_series(1, 1001) i`, [orgUuid(o)]);
      const r = await t.get('/v1/groups?page_size=5000', { basic: o.api_key });
      expect(r.body.count).toBe(1001);
      expect(r.body.results).toHaveLength(1000);
      expect(r.body.next).toMatch(/page=2/);
    });
  });

  describe('update', () => {
    it('PUT requires name and changes only the members sent; PATCH is partial; rule_email_domains is read-only here', async () => {
      const cat = await insertGroupCategory(t, org);
      const cat2 = await insertGroupCategory(t, org);
      const g = await create({ discount_percent: 10, group_category_id: cat.id, rule_email_domains: ['a.example'], sign_up_field_rule: { enforce: true, options: [{ id: 'x' }] } });
      await member(g.id);
      const noName = await t.request('PUT', `/v1/groups/${g.id}`, { ...basic(), body: { discount_percent: 5 } });
      expect(noName.status).toBe(400);
      expect(noName.body.name).toBeDefined();
      const put = await t.request('PUT', `/v1/groups/${g.id}`, { ...basic(), body: { name: `${g.name} v2`, discount_percent: 20, rule_email_domains: ['b.example'] } });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ ...g, name: `${g.name} v2`, discount_percent: 20, user_count: 1 });
      const patch = await t.patch(`/v1/groups/${g.id}`, { group_category_id: cat2.id, sign_up_field_rule: null, discount_percent: null }, bearer());
      expect(patch.status).toBe(200);
      expect(patch.body).toEqual({ ...put.body, group_category_id: cat2.id, sign_up_field_rule: undefined, discount_percent: null });
      const patch2 = await t.patch(`/v1/groups/${g.id}`, { group_category_id: null, sign_up_field_rule: { require_match_all: true, options: [{ id: 'z' }] } }, basic());
      expect(patch2.body).toMatchObject({ name: `${g.name} v2`, group_category_id: null, sign_up_field_rule: { enforce: false, require_match_all: true, options: [opt('z')] } });
      const empty = await t.patch(`/v1/groups/${g.id}`, {}, bearer());
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual(patch2.body);
      expect((await t.get(`/v1/groups/${g.id}`, bearer())).body).toEqual(patch2.body);
      expect((await row(g.id)).rule_email_domains).toEqual(['a.example']);
    });

    it('400s on update leave the row unchanged: bad members, a taken name, another org category', async () => {
      const g = await create({ discount_percent: 1 });
      const taken = await create();
      const theirCat = await insertGroupCategory(t, other);
      const before = await row(g.id);
      for (const [method, body, field] of [
        ['PATCH', { name: '' }, 'name'],
        ['PATCH', { name: null }, 'name'],
        ['PATCH', { discount_percent: 500 }, 'discount_percent'],
        ['PATCH', { group_category_id: theirCat.id }, 'group_category_id'],
        ['PATCH', { sign_up_field_rule: { options: 5 } }, 'sign_up_field_rule.options'],
        ['PATCH', { name: taken.name }, 'name'],
        ['PUT', { name: taken.name }, 'name'],
        ['PUT', { name: 'fine', discount_percent: 'x' }, 'discount_percent'],
      ] as [string, unknown, string][]) {
        const r = await t.request(method, `/v1/groups/${g.id}`, { ...basic(), body });
        expect([method, JSON.stringify(body), r.status]).toEqual([method, JSON.stringify(body), 400]);
        expect(drfFlat(r.body)[field]).toBeDefined();
      }
      expect(await row(g.id)).toEqual(before);
      // renaming a group to its own name is not a conflict
      expect((await t.patch(`/v1/groups/${g.id}`, { name: g.name }, basic())).status).toBe(200);
    });

    it("another organization's group: 404 on PUT, PATCH and DELETE, and it is unchanged", async () => {
      const theirs = await create({}, other);
      const before = await row(theirs.id);
      expect((await t.request('PUT', `/v1/groups/${theirs.id}`, { ...basic(), body: { name: 'Hijack' } })).status).toBe(404);
      expect((await t.patch(`/v1/groups/${theirs.id}`, { name: 'Hijack' }, bearer())).status).toBe(404);
      expect((await t.delete(`/v1/groups/${theirs.id}`, basic())).status).toBe(404);
      expect((await t.get(`/v1/groups/${theirs.id}/email-domain-rules`, basic())).status).toBe(404);
      expect((await t.patch(`/v1/groups/${theirs.id}/email-domain-rules`, { add: ['x.example'] }, basic())).status).toBe(404);
      expect(await row(theirs.id)).toEqual(before);
      const list = await t.get('/v1/groups?page_size=1000', basic());
      expect(list.body.results.map((g: any) => g.id)).not.toContain(theirs.id);
    });
  });

  describe('delete', () => {
    it('hard-deletes the group with its memberships; the users stay (API key and Bearer)', async () => {
      for (const auth of both()) {
        const g = await create();
        const s = await member(g.id);
        const r = await t.delete(`/v1/groups/${g.id}`, auth);
        expect(r.status).toBe(204);
        expect(r.text).toBe('');
        expect(await row(g.id)).toBeUndefined();
        expect(await t.ds.query(`SELECT 1 FROM group_memberships WHERE group_id = $1`, [decode(g.id)])).toEqual([]);
        expect(await t.ds.query(`SELECT 1 FROM users WHERE id = $1`, [s.uuid])).toHaveLength(1);
        expect((await t.get(`/v1/groups/${g.id}`, auth)).status).toBe(404);
        expect((await t.delete(`/v1/groups/${g.id}`, auth)).status).toBe(404);
      }
    });
  });

  describe('email-domain rules', () => {
    it('reads and patches (add then remove, lower-cased, idempotent) with both credentials', async () => {
      const g = await create({ rule_email_domains: ['a.example'] });
      expect((await t.get(`/v1/groups/${g.id}/email-domain-rules`, basic())).body).toEqual({ email_domains: ['a.example'] });
      const r = await t.patch(`/v1/groups/${g.id}/email-domain-rules`, { add: ['B.example', 'a.example', 'c.example'], remove: ['C.EXAMPLE', 'missing.example'] }, bearer());
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ add: ['b.example', 'a.example', 'c.example'], remove: ['c.example', 'missing.example'], email_domains: ['a.example', 'b.example'] });
      expect((await t.get(`/v1/groups/${g.id}/email-domain-rules`, bearer())).body).toEqual({ email_domains: ['a.example', 'b.example'] });
      expect((await t.get(`/v1/groups/${g.id}`, basic())).body.rule_email_domains).toEqual(['a.example', 'b.example']);
      const rm = await t.patch(`/v1/groups/${g.id}/email-domain-rules`, { remove: ['a.example'] }, basic());
      expect(rm.body.email_domains).toEqual(['b.example']);
    });

    it('400 when neither add nor remove is given, or for bad domains; 404 first for an unknown group', async () => {
      const g = await create({ rule_email_domains: ['keep.example'] });
      for (const body of [{}, { add: null }, { add: 'x.example' }, { add: ['not a domain'] }, { remove: [3] }, { add: Array.from({ length: 101 }, (_, i) => `d${i}.example`) }]) {
        const r = await t.patch(`/v1/groups/${g.id}/email-domain-rules`, body, basic());
        expect([JSON.stringify(body).slice(0, 60), r.status]).toEqual([JSON.stringify(body).slice(0, 60), 400]);
      }
      // more than 100 domains in total
      await t.patch(`/v1/groups/${g.id}/email-domain-rules`, { add: Array.from({ length: 99 }, (_, i) => `e${i}.example`) }, basic());
      const over = await t.patch(`/v1/groups/${g.id}/email-domain-rules`, { add: ['one.example', 'two.example'] }, basic());
      expect(over.status).toBe(400);
      expect((await row(g.id)).rule_email_domains).toHaveLength(100);
      expect((await t.patch(`/v1/groups/${encodeId('group', newUuid())}/email-domain-rules`, {}, basic())).status).toBe(404);
    });
  });

  describe('/v1 and /v2 are the same rows', () => {
    it('a group created on /v1 is read, updated and deleted on /v2, and vice versa', async () => {
      const v2token = await t.tokenFor(org, ['student-groups:read', 'student-groups:write']);
      const cat = await insertGroupCategory(t, org);
      const g = await create({ name: 'From v1', group_category_id: cat.id, rule_email_domains: ['v1.example'] });
      const v2 = await t.get(`/v2/groups/${g.id}`, { token: v2token });
      expect(v2.status).toBe(200);
      expect(v2.body.data).toMatchObject({ type: 'groups', id: g.id, attributes: { name: 'From v1', category_id: cat.id, rule_email_domains: ['v1.example'] } });
      // a /v1 name is taken for /v2 too
      const dupV2 = await t.post('/v2/groups/', { data: [{ type: 'groups', attributes: { name: 'From v1' } }] }, { token: v2token });
      expect(dupV2.body.data[0]).toMatchObject({ status: 'failed', error: { code: 'validation_error', source: { pointer: '/data/0/attributes/name' } } });

      const created = await t.post('/v2/groups/', { data: [{ type: 'groups', attributes: { name: 'From v2', category_id: cat.id, rule_email_domains: ['v2.example'] } }] }, { token: v2token });
      const id2 = created.body.data[0].id;
      const v1 = await t.get(`/v1/groups/${id2}`, basic());
      expect(v1.body).toEqual({ id: id2, name: 'From v2', user_count: 0, discount_percent: null, group_category_id: cat.id, rule_email_domains: ['v2.example'] });
      expect((await t.post('/v1/groups', { name: 'From v2' }, basic())).status).toBe(400);
      // update on one side, read on the other
      await t.patch(`/v1/groups/${id2}`, { name: 'From v2 renamed by v1' }, basic());
      expect((await t.get(`/v2/groups/${id2}`, { token: v2token })).body.data.attributes.name).toBe('From v2 renamed by v1');
      await t.patch('/v2/groups/', { data: [{ type: 'groups', id: g.id, attributes: { name: 'From v1 renamed by v2' } }] }, { token: v2token });
      expect((await t.get(`/v1/groups/${g.id}`, bearer())).body.name).toBe('From v1 renamed by v2');
      // delete on one side, gone on the other
      expect((await t.delete(`/v1/groups/${id2}`, basic())).status).toBe(204);
      expect((await t.get(`/v2/groups/${id2}`, { token: v2token })).status).toBe(404);
      await t.request('DELETE', '/v2/groups/', { token: v2token, body: { data: [{ type: 'groups', id: g.id }] } });
      expect((await t.get(`/v1/groups/${g.id}`, basic())).status).toBe(404);
    });
  });

  describe('group categories', () => {
    it('lists and reads the organization categories only (API key and Bearer)', async () => {
      const o = await t.newOrg();
      const a = await insertGroupCategory(t, o, 'Region');
      const b = await insertGroupCategory(t, o, 'Partner tier');
      // two SQL inserts can share a millisecond: make the creation order explicit
      await t.ds.query(`UPDATE group_categories SET created_at = created_at - interval '1 second' WHERE id = $1`, [a.uuid]);
      const theirs = await insertGroupCategory(t, other, 'Theirs');
      const tok = await t.tokenFor(o);
      for (const auth of [{ basic: o.api_key }, { token: tok }]) {
        const r = await t.get('/v1/group-categories', auth);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({
          count: 2,
          next: null,
          previous: null,
          results: [
            { id: a.id, name: 'Region' },
            { id: b.id, name: 'Partner tier' },
          ],
        });
        expect((await t.get(`/v1/group-categories/${b.id}`, auth)).body).toEqual({ id: b.id, name: 'Partner tier' });
        for (const id of [theirs.id, 'nope', encodeId('groupCategory', newUuid()), encodeId('group', newUuid())]) {
          expect((await t.get(`/v1/group-categories/${id}`, auth)).status).toBe(404);
        }
      }
      const p = await t.get('/v1/group-categories?page_size=1&page=2', { basic: o.api_key });
      expect(p.body.results).toEqual([{ id: b.id, name: 'Partner tier' }]);
      expect((await t.get('/v1/group-categories?page=abc', { basic: o.api_key })).status).toBe(400);
    });
  });
  describe('migration 1763700011000', () => {
    it('renames names that already repeat in an organization before building the unique index (runs last: it rebuilds the schema it tests)', async () => {
      const o = await t.newOrg();
      const migration = new V1Groups1763700011000();
      const qr = (await t.ownerDataSource()).createQueryRunner(); // a migration: the owner's connection
      try {
        await migration.down(qr);
        const [first] = await qr.query(`INSERT INTO groups (organization_id, name, created_at) VALUES ($1, 'Same', now() - interval '1 hour') RETURNING id`, [orgUuid(o)]);
        const [second] = await qr.query(`INSERT INTO groups (organization_id, name) VALUES ($1, 'Same') RETURNING id`, [orgUuid(o)]);
        await qr.query(`INSERT INTO groups (organization_id, name) VALUES ($1, 'Same')`, [orgUuid(other)]);
        await migration.up(qr);
        expect((await qr.query(`SELECT name FROM groups WHERE id = $1`, [first.id]))[0].name).toBe('Same');
        expect((await qr.query(`SELECT name FROM groups WHERE id = $1`, [second.id]))[0].name).toBe(`Same (${second.id.slice(0, 8)})`);
        expect(await qr.query(`SELECT count(*)::int AS n FROM groups WHERE organization_id = $1 AND name = 'Same'`, [orgUuid(other)])).toEqual([{ n: 1 }]);
        expect(await qr.query(`SELECT 1 FROM pg_indexes WHERE indexname = 'groups_org_name_uq'`)).toHaveLength(1);
      } finally {
        await qr.release();
      }
      expect((await t.post('/v1/groups', { name: 'Same' }, { basic: o.api_key })).status).toBe(400);
    });
  });
});
