import { Client } from 'pg';
import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { insertCourse, insertGroupCategory, insertStudent, orgUuid, publishCourse } from '../support/fixtures';

/** Count the SQL statements the pg driver really sends while `fn` runs. */
async function countQueries<T>(fn: () => Promise<T>): Promise<{ result: T; count: number; sql: string[] }> {
  const proto = Client.prototype as any;
  const original = proto.query;
  const sql: string[] = [];
  proto.query = function (...args: any[]) {
    sql.push(typeof args[0] === 'string' ? args[0] : String(args[0]?.text ?? args[0]));
    return original.apply(this, args);
  };
  try {
    const result = await fn();
    return { result, count: sql.length, sql };
  } finally {
    proto.query = original;
  }
}

const item = (attributes: Record<string, unknown>) => ({ type: 'groups', attributes });

describe('/v2/groups', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let otherToken: string;
  let readOnly: string;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org, ['student-groups:read', 'student-groups:write']);
    readOnly = await t.tokenFor(org, ['student-groups:read']);
    otherToken = await t.tokenFor(other, ['student-groups:read', 'student-groups:write']);
  });
  afterAll(() => t.close());

  async function createGroups(tok: string, attrs: Record<string, unknown>[]) {
    const res = await t.post('/v2/groups/', { data: attrs.map(item) }, { token: tok });
    expect(res.status).toBe(200);
    return res.body.data.map((d: any) => d.result);
  }

  const row = async (uuidOrId: string) => {
    const rows = await t.ds.query(`SELECT * FROM groups WHERE id = $1`, [uuidOrId]);
    return rows[0];
  };

  describe('auth', () => {
    it('401 without a token on every operation', async () => {
      const g = encodeId('group', newUuid());
      for (const [method, path] of [
        ['GET', '/v2/groups/'],
        ['POST', '/v2/groups/'],
        ['PATCH', '/v2/groups/'],
        ['DELETE', '/v2/groups/'],
        ['GET', `/v2/groups/${g}`],
      ]) {
        const res = await t.request(method, path, method === 'GET' ? {} : { body: { data: [item({ name: 'x' })] } });
        expect(res.status).toBe(401);
        expect(res.body.errors[0].code).toBe('unauthorized');
      }
    });

    it('403 with a token lacking the scope', async () => {
      const none = await t.tokenFor(org, ['students:read']);
      expect((await t.get('/v2/groups/', { token: none })).status).toBe(403);
      expect((await t.get(`/v2/groups/${encodeId('group', newUuid())}`, { token: none })).status).toBe(403);
      const body = { data: [item({ name: 'x' })] };
      for (const method of ['POST', 'PATCH', 'DELETE']) {
        const res = await t.request(method, '/v2/groups/', { token: readOnly, body });
        expect(res.status).toBe(403);
        expect(res.body.errors[0].code).toBe('forbidden');
      }
      // write alone does not grant read
      const writeOnly = await t.tokenFor(org, ['student-groups:write']);
      expect((await t.get('/v2/groups/', { token: writeOnly })).status).toBe(403);
      expect(await t.ds.query(`SELECT 1 FROM groups WHERE name = 'x'`)).toHaveLength(0);
    });
  });

  describe('create', () => {
    it('creates groups with every attribute and reads them back', async () => {
      const cat = await insertGroupCategory(t, org);
      const res = await t.post(
        '/v2/groups/',
        {
          data: [
            item({ name: 'Engineering', rule_email_domains: ['Example.com', 'corp.example.com', 'example.com'], send_course_enrollment_email: true, category_id: cat.id }),
            item({ name: 'Sales' }),
          ],
        },
        { token },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
      expect(res.body.summary).toEqual({ total: 2, succeeded: 2, failed: 0 });
      const [eng, sales] = res.body.data;
      expect(eng.status).toBe('succeeded');
      expect(eng.id).toMatch(/^[0-9a-z]+$/);
      expect(eng.result).toEqual({
        type: 'groups',
        id: eng.id,
        attributes: {
          name: 'Engineering',
          rule_email_domains: ['example.com', 'corp.example.com'],
          send_course_enrollment_email: true,
          category_id: cat.id,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      });
      expect(sales.result.attributes).toMatchObject({ name: 'Sales', rule_email_domains: [], send_course_enrollment_email: null, category_id: null });
      const got = await t.get(`/v2/groups/${eng.id}`, { token: readOnly });
      expect(got.status).toBe(200);
      expect(got.body.data).toEqual(eng.result);
      const stored = await row((await t.ds.query(`SELECT id FROM groups WHERE name = 'Engineering'`))[0].id);
      expect(stored.organization_id).toBe(orgUuid(org));
      expect(stored.category_id).toBe(cat.uuid);
    });

    it('duplicate names inside one batch: first wins, case-insensitively and trimmed', async () => {
      const res = await t.post('/v2/groups/', { data: [item({ name: 'Dup Team' }), item({ name: 'dup team' }), item({ name: ' DUP TEAM ' }), item({ name: 'Other Team' })] }, { token });
      expect(res.status).toBe(207);
      expect(res.body.data[0].status).toBe('succeeded');
      for (const i of [1, 2]) {
        expect(res.body.data[i]).toEqual({
          status: 'failed',
          id: null,
          error: { code: 'duplicate_in_batch', detail: expect.any(String), source: { pointer: `/data/${i}/attributes/name` } },
        });
      }
      expect(res.body.data[3].status).toBe('succeeded');
      expect(res.body.summary).toEqual({ total: 4, succeeded: 2, failed: 2 });
      const rows = await t.ds.query(`SELECT name FROM groups WHERE lower(name) = 'dup team'`);
      expect(rows).toEqual([{ name: 'Dup Team' }]);
    });

    it('validates each item: name required, domains an array of bare domains, boolean flag, category of the org', async () => {
      const otherCat = await insertGroupCategory(t, other);
      const res = await t.post(
        '/v2/groups/',
        {
          data: [
            item({}),
            item({ name: '' }),
            item({ name: '   ' }),
            item({ name: 42 }),
            item({ name: 'n'.repeat(101) }),
            item({ name: 'V domains string', rule_email_domains: 'example.com' }),
            item({ name: 'V domains bad', rule_email_domains: ['example.com', 'not a domain'] }),
            item({ name: 'V domains at', rule_email_domains: ['@example.com'] }),
            item({ name: 'V domains num', rule_email_domains: [42] }),
            item({ name: 'V send', send_course_enrollment_email: 'yes' }),
            item({ name: 'V cat other org', category_id: otherCat.id }),
            item({ name: 'V cat undecodable', category_id: 'nope' }),
            item({ name: 'V cat too long', category_id: 'x'.repeat(65) }),
            item({ name: 'V cat number', category_id: 7 }),
            { type: 'students', attributes: { name: 'V wrong type' } },
            'not an object',
            { type: 'groups', attributes: 'nope' },
            { type: 'groups' },
            item({ name: ['V list'] }), // (a NUL refuses the whole batch before any item: test/platform/nul-characters)
            item({ name: 'V ok', send_course_enrollment_email: null, category_id: null, rule_email_domains: null }),
          ],
        },
        { token },
      );
      expect(res.status).toBe(207);
      const e = (i: number) => res.body.data[i].error;
      expect(e(0)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/0/attributes/name' } });
      expect(e(1)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/1/attributes/name' } });
      expect(e(2)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/2/attributes/name' } });
      expect(e(3)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/3/attributes/name' } });
      expect(e(4)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/4/attributes/name' } });
      // the pointer names the offending element when one element is wrong
      expect(e(5)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/5/attributes/rule_email_domains' } });
      expect(e(6)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/6/attributes/rule_email_domains/1' } });
      for (const i of [7, 8]) expect(e(i)).toMatchObject({ code: 'validation_error', source: { pointer: `/data/${i}/attributes/rule_email_domains/0` } });
      expect(e(9)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/9/attributes/send_course_enrollment_email' } });
      expect(e(10)).toMatchObject({ code: 'not_found', source: { pointer: '/data/10/attributes/category_id' } });
      expect(e(11)).toMatchObject({ code: 'not_found', source: { pointer: '/data/11/attributes/category_id' } });
      expect(e(12)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/12/attributes/category_id' } });
      expect(e(13)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/13/attributes/category_id' } });
      expect(e(14)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/14/type' } });
      expect(e(15)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/15' } });
      expect(e(16)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/16/attributes' } });
      expect(e(17)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/17/attributes' } });
      expect(e(18)).toMatchObject({ code: 'validation_error', source: { pointer: '/data/18/attributes/name' } });
      expect(res.body.data[19].status).toBe('succeeded');
      expect(res.body.data[19].result.attributes).toMatchObject({ rule_email_domains: [], send_course_enrollment_email: null, category_id: null });
      expect(res.body.summary).toEqual({ total: 20, succeeded: 1, failed: 19 });
      const created = await t.ds.query(`SELECT name FROM groups WHERE name LIKE 'V %'`);
      expect(created).toEqual([{ name: 'V ok' }]);
    });

    it('envelope: empty, over the cap, not an array, not an object, malformed JSON → 400', async () => {
      expect((await t.post('/v2/groups/', { data: [] }, { token })).status).toBe(400);
      const over = await t.post('/v2/groups/', { data: Array.from({ length: 101 }, (_, i) => item({ name: `over ${i}` })) }, { token });
      expect(over.status).toBe(400);
      expect(over.body.errors[0].code).toBe('invalid_request');
      expect((await t.post('/v2/groups/', { data: item({ name: 'x' }) }, { token })).status).toBe(400);
      expect((await t.post('/v2/groups/', [item({ name: 'x' })], { token })).status).toBe(400);
      expect((await t.request('POST', '/v2/groups/', { token, raw: { contentType: 'application/json', data: '{"data": [' } })).status).toBe(400);
      expect((await t.request('POST', '/v2/groups/', { token })).status).toBe(400);
      expect(await t.ds.query(`SELECT 1 FROM groups WHERE name LIKE 'over %'`)).toHaveLength(0);
    });

    it('accepts application/vnd.api+json', async () => {
      const res = await t.request('POST', '/v2/groups/', { token, raw: { contentType: 'application/vnd.api+json', data: JSON.stringify({ data: [item({ name: 'Vnd group' })] }) } });
      expect(res.status).toBe(200);
    });
  });

  describe('read and list', () => {
    let listOrg: CreatedOrg;
    let tok: string;
    let catA: { id: string };
    let made: any[];

    beforeAll(async () => {
      listOrg = await t.newOrg();
      tok = await t.tokenFor(listOrg, ['student-groups:read', 'student-groups:write']);
      catA = await insertGroupCategory(t, listOrg);
      made = await createGroups(tok, [
        { name: 'Alpha Squad', category_id: catA.id },
        { name: 'alphabet soup' },
        { name: 'Beta 100% sure' },
        { name: 'Gamma_ray', category_id: catA.id },
        { name: 'GammaXray' },
        { name: 'Delta' },
        { name: 'Back\\slash' },
      ]);
      // another organization's lookalikes never show up
      await createGroups(otherToken, [{ name: 'Alpha Squad (other org)' }, { name: 'Gamma_ray other' }]);
    });

    it('lists the organization’s groups in creation order with cursor pagination', async () => {
      const seen: string[] = [];
      let url: string | null = '/v2/groups/?page[size]=3';
      let pages = 0;
      while (url) {
        const res: any = await t.get(url.replace(t.baseUrl, ''), { token: tok });
        expect(res.status).toBe(200);
        expect(res.body.meta.page_size).toBe(3);
        seen.push(...res.body.data.map((g: any) => g.id));
        expect(res.body.has_more).toBe(res.body.links.next !== null);
        url = res.body.links.next;
        pages++;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual(made.map((g) => g.id));
      const all = await t.get('/v2/groups/', { token: tok });
      expect(all.body.data).toHaveLength(7);
      expect(all.body.meta.page_size).toBe(25);
      expect(all.body.has_more).toBe(false);
      expect(all.body.next_cursor).toBeNull();
    });

    it('filter[name] is a case-insensitive substring with % and _ taken literally', async () => {
      const names = async (q: string) => (await t.get(`/v2/groups/?filter[name]=${encodeURIComponent(q)}`, { token: tok })).body.data.map((g: any) => g.attributes.name);
      expect(await names('ALPHA')).toEqual(['Alpha Squad', 'alphabet soup']);
      expect(await names('squad')).toEqual(['Alpha Squad']);
      expect(await names('100%')).toEqual(['Beta 100% sure']);
      expect(await names('%')).toEqual(['Beta 100% sure']);
      expect(await names('a_r')).toEqual(['Gamma_ray']);
      expect(await names('_')).toEqual(['Gamma_ray']);
      expect(await names('\\')).toEqual(['Back\\slash']);
      expect(await names('nothing here')).toEqual([]);
    });

    it('filter[category_id]: the category’s groups; undecodable, other-org or over-long (65 chars) ids give an empty page (CONVENTIONS §16)', async () => {
      const res = await t.get(`/v2/groups/?filter[category_id]=${catA.id}`, { token: tok });
      expect(res.body.data.map((g: any) => g.attributes.name)).toEqual(['Alpha Squad', 'Gamma_ray']);
      const otherCat = await insertGroupCategory(t, other);
      await createGroups(otherToken, [{ name: 'in other cat', category_id: otherCat.id }]);
      for (const v of [otherCat.id, 'garbage', encodeId('group', newUuid()), encodeId('groupCategory', newUuid()), '']) {
        const r = await t.get(`/v2/groups/?filter[category_id]=${encodeURIComponent(v)}`, { token: tok });
        expect(r.status).toBe(200);
        expect(r.body.data).toEqual([]);
      }
      const long = await t.get(`/v2/groups/?filter[category_id]=${'x'.repeat(65)}`, { token: tok });
      expect(long.status).toBe(200);
      expect(long.body).toMatchObject({ data: [], has_more: false, next_cursor: null });
      const both = await t.get(`/v2/groups/?filter[category_id]=${catA.id}&filter[name]=ray`, { token: tok });
      expect(both.body.data.map((g: any) => g.attributes.name)).toEqual(['Gamma_ray']);
    });

    it('bad query input is 4xx, never 500', async () => {
      for (const [q, status] of [
        ['page[size]=0', 422],
        ['page[size]=101', 422],
        ['page[size]=99999999999999999999', 422],
        ['page[size]=abc', 422],
        ['page[cursor]=tampered', 400],
        ['filter[name]=a&filter[name]=b', 422],
        ['filter[category_id]=a&filter[category_id]=b', 422],
        ['filter[name]=a%00b', 422],
        ['filter[category_id]=%00', 422], // a NUL in a /v2 query parameter: refused before the database (issue 25 item 15d)
      ] as const) {
        const res = await t.get(`/v2/groups/?${q}`, { token: tok });
        expect(res.status).toBe(status);
        if ((status as number) === 200) continue;
        expect(res.body.errors[0].status).toBe(String(status));
      }
    });

    it('a cursor of another list is rejected', async () => {
      const first = await t.get('/v2/groups/?page[size]=1', { token: tok });
      const cursor = first.body.next_cursor;
      const g = made[0].id;
      const res = await t.get(`/v2/groups/${g}/relationships/published-course-visibility/?page[cursor]=${encodeURIComponent(cursor)}`, { token: tok });
      expect(res.status).toBe(400);
    });

    it('another organization’s groups are invisible in list and read', async () => {
      const theirs = await t.get('/v2/groups/', { token: otherToken });
      const ids = new Set(theirs.body.data.map((g: any) => g.id));
      for (const g of made) expect(ids.has(g.id)).toBe(false);
      const res = await t.get(`/v2/groups/${made[0].id}`, { token: otherToken });
      expect(res.status).toBe(404);
      expect(res.body.errors[0].code).toBe('not_found');
    });

    it('GET unknown, undecodable or wrong-type ids → 404', async () => {
      for (const id of [encodeId('group', newUuid()), 'nope', encodeId('student', newUuid()), 'x'.repeat(90), `${encodeId('group', newUuid())}x`]) {
        const res = await t.get(`/v2/groups/${id}`, { token: tok });
        expect(res.status).toBe(404);
      }
    });
  });

  describe('unique names within the organization', () => {
    it('create: a name another group of the organization holds is a per-item validation_error at /attributes/name; the others succeed', async () => {
      await createGroups(token, [{ name: 'Taken Name' }]);
      const res = await t.post('/v2/groups/', { data: [item({ name: 'Taken Name' }), item({ name: 'Fresh Name' }), item({ name: 'Fresh Name 2' }), item({ name: 'taken name x' })] }, { token });
      expect(res.status).toBe(207); // mixed outcomes
      expect(res.body.data[0]).toMatchObject({ status: 'failed', error: { code: 'validation_error', detail: expect.any(String), source: { pointer: '/data/0/attributes/name' } } });
      expect(res.body.data[1]).toMatchObject({ status: 'succeeded', result: { attributes: { name: 'Fresh Name' } } });
      expect(res.body.data[2]).toMatchObject({ status: 'succeeded' });
      expect(res.body.data[3]).toMatchObject({ status: 'succeeded' });
      // names are trimmed before the comparison
      const trimmed = await t.post('/v2/groups/', { data: [item({ name: ' Taken Name ' })] }, { token });
      expect(trimmed.body.data[0]).toMatchObject({ status: 'failed', error: { code: 'validation_error', source: { pointer: '/data/0/attributes/name' } } });
      expect(await t.ds.query(`SELECT count(*)::int AS n FROM groups WHERE organization_id = $1 AND name = 'Taken Name'`, [orgUuid(org)])).toEqual([{ n: 1 }]);
      // case-sensitive: another case is another name; another organization may use the same name
      expect((await createGroups(token, [{ name: 'TAKEN NAME' }]))[0].attributes.name).toBe('TAKEN NAME');
      expect((await createGroups(otherToken, [{ name: 'Taken Name' }]))[0].attributes.name).toBe('Taken Name');
    });

    it('update: renaming to a name held by another group (or claimed earlier in the batch) is validation_error; the rest of the batch applies', async () => {
      const [a, b, c, d] = await createGroups(token, [{ name: 'Ren A' }, { name: 'Ren B' }, { name: 'Ren C' }, { name: 'Ren D' }]);
      const res = await t.patch(
        '/v2/groups/',
        {
          data: [
            { type: 'groups', id: a.id, attributes: { name: 'Ren B' } },
            { type: 'groups', id: c.id, attributes: { name: 'Ren New' } },
            { type: 'groups', id: d.id, attributes: { name: 'Ren New' } },
            { type: 'groups', id: b.id, attributes: { name: 'Ren B', rule_email_domains: ['b.example'] } },
          ],
        },
        { token },
      );
      expect(res.status).toBe(207); // mixed outcomes
      const [ra, rc, rd, rb] = res.body.data;
      expect(ra).toMatchObject({ status: 'failed', error: { code: 'validation_error', source: { pointer: '/data/0/attributes/name' } } });
      expect(rc).toMatchObject({ status: 'succeeded', result: { attributes: { name: 'Ren New' } } });
      expect(rd).toMatchObject({ status: 'failed', error: { code: 'validation_error', source: { pointer: '/data/2/attributes/name' } } });
      // keeping its own name is not a conflict
      expect(rb).toMatchObject({ status: 'succeeded', result: { attributes: { name: 'Ren B', rule_email_domains: ['b.example'] } } });
      expect((await row((await t.ds.query(`SELECT id FROM groups WHERE organization_id = $1 AND name = 'Ren A'`, [orgUuid(org)]))[0].id)).name).toBe('Ren A');
      expect(await t.ds.query(`SELECT name FROM groups WHERE organization_id = $1 AND name LIKE 'Ren %' ORDER BY name`, [orgUuid(org)])).toEqual([
        { name: 'Ren A' },
        { name: 'Ren B' },
        { name: 'Ren D' },
        { name: 'Ren New' },
      ]);
      // a name held in another organization is free here
      await createGroups(otherToken, [{ name: 'Ren Other Org' }]);
      const free = await t.patch('/v2/groups/', { data: [{ type: 'groups', id: a.id, attributes: { name: 'Ren Other Org' } }] }, { token });
      expect(free.body.data[0]).toMatchObject({ status: 'succeeded' });
    });

    it('update: a name taken concurrently after the check fails the renames only; the other items are applied (never a 500)', async () => {
      const [a, b] = await createGroups(token, [{ name: 'Race A' }, { name: 'Race B' }]);
      // a trigger plays the concurrent writer: it takes the new name inside the UPDATE itself
      await t.ownerQuery(`CREATE FUNCTION test_race_fn() RETURNS trigger AS $$
        BEGIN
          IF NEW.name = 'Race Name' AND OLD.name <> NEW.name THEN
            INSERT INTO groups (organization_id, name) VALUES (NEW.organization_id, NEW.name) ON CONFLICT DO NOTHING;
          END IF;
          RETURN NEW;
        END $$ LANGUAGE plpgsql`);
      await t.ownerQuery(`CREATE TRIGGER test_race BEFORE UPDATE ON groups FOR EACH ROW EXECUTE FUNCTION test_race_fn()`);
      try {
        const res = await t.patch(
          '/v2/groups/',
          {
            data: [
              { type: 'groups', id: a.id, attributes: { name: 'Race Name' } },
              { type: 'groups', id: b.id, attributes: { rule_email_domains: ['race.example'] } },
            ],
          },
          { token },
        );
        expect(res.status).toBe(207);
        expect(res.body.data[0]).toMatchObject({ status: 'failed', error: { code: 'validation_error', source: { pointer: '/data/0/attributes/name' } } });
        expect(res.body.data[1]).toMatchObject({ status: 'succeeded', result: { attributes: { rule_email_domains: ['race.example'] } } });
      } finally {
        await t.ownerQuery(`DROP TRIGGER test_race ON groups`);
        await t.ownerQuery(`DROP FUNCTION test_race_fn()`);
      }
      expect((await row((await t.ds.query(`SELECT id FROM groups WHERE organization_id = $1 AND name = 'Race A'`, [orgUuid(org)]))[0].id)).name).toBe('Race A');
    });
  });

  describe('update', () => {
    it('changes only the members sent; category_id null clears, omitted leaves unchanged', async () => {
      const cat = await insertGroupCategory(t, org);
      const cat2 = await insertGroupCategory(t, org);
      const [a, b, c] = await createGroups(token, [
        { name: 'Upd A', category_id: cat.id, rule_email_domains: ['a.example'], send_course_enrollment_email: true },
        { name: 'Upd B', category_id: cat.id, rule_email_domains: ['b.example'] },
        { name: 'Upd C', category_id: cat.id },
      ]);
      const res = await t.patch(
        '/v2/groups/',
        {
          data: [
            { type: 'groups', id: a.id, attributes: { name: 'Upd A2' } },
            { type: 'groups', id: b.id, attributes: { category_id: null, rule_email_domains: ['B.example', 'c.example'], send_course_enrollment_email: false } },
            { type: 'groups', id: c.id, attributes: { category_id: cat2.id, rule_email_domains: null } },
          ],
        },
        { token },
      );
      expect(res.status).toBe(200);
      const [ra, rb, rc] = res.body.data;
      expect(ra).toMatchObject({ status: 'succeeded', id: a.id });
      expect(ra.result.attributes).toMatchObject({ name: 'Upd A2', category_id: cat.id, rule_email_domains: ['a.example'], send_course_enrollment_email: true });
      expect(rb.result.attributes).toMatchObject({ name: 'Upd B', category_id: null, rule_email_domains: ['b.example', 'c.example'], send_course_enrollment_email: false });
      expect(rc.result.attributes).toMatchObject({ name: 'Upd C', category_id: cat2.id, rule_email_domains: [] });
      expect(new Date(ra.result.attributes.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(a.attributes.updated_at).getTime());
      expect(ra.result.attributes.created_at).toBe(a.attributes.created_at);
      // persisted
      const got = await t.get(`/v2/groups/${b.id}`, { token });
      expect(got.body.data).toEqual(rb.result);
      // send_course_enrollment_email null is a value, not an omission
      const r2 = await t.patch('/v2/groups/', { data: [{ type: 'groups', id: a.id, attributes: { send_course_enrollment_email: null } }] }, { token });
      expect(r2.body.data[0].result.attributes).toMatchObject({ name: 'Upd A2', send_course_enrollment_email: null, category_id: cat.id });
    });

    it('needs an id and at least one updatable member; duplicate ids are duplicate_in_batch (first wins)', async () => {
      const [g] = await createGroups(token, [{ name: 'Upd D' }]);
      const res = await t.patch(
        '/v2/groups/',
        {
          data: [
            { type: 'groups', id: g.id, attributes: { name: 'Upd D first' } },
            { type: 'groups', id: g.id, attributes: { name: 'Upd D second' } },
            { type: 'groups', id: g.id, attributes: {} },
            { type: 'groups', attributes: { name: 'no id' } },
            { type: 'groups', id: encodeId('group', newUuid()), attributes: {} },
            { type: 'groups', id: encodeId('group', newUuid()), attributes: { unknown_member: 1 } },
            { type: 'groups', id: encodeId('group', newUuid()) },
            { type: 'groups', id: 12, attributes: { name: 'x' } },
            { type: 'groups', id: 'x'.repeat(65), attributes: { name: 'x' } },
          ],
        },
        { token },
      );
      expect(res.status).toBe(207);
      const d = res.body.data;
      expect(d[0]).toMatchObject({ status: 'succeeded', id: g.id });
      expect(d[1].error).toMatchObject({ code: 'duplicate_in_batch', source: { pointer: '/data/1/id' } });
      expect(d[2].error).toMatchObject({ code: 'duplicate_in_batch', source: { pointer: '/data/2/id' } });
      expect(d[3].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/3/id' } });
      expect(d[4].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/4/attributes' } });
      expect(d[5].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/5/attributes' } });
      expect(d[6].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/6/attributes' } });
      expect(d[7].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/7/id' } });
      // an id too long to be ours names no group: that item's not_found (v2-api.md rule 4)
      expect(d[8].error).toMatchObject({ code: 'not_found', source: { pointer: '/data/8/id' } });
      expect((await t.get(`/v2/groups/${g.id}`, { token })).body.data.attributes.name).toBe('Upd D first');
    });

    it('validates members: null name, bad domains, a string for the domains, a bad flag, a foreign or unknown category', async () => {
      const [g] = await createGroups(token, [{ name: 'Upd E', rule_email_domains: ['e.example'] }]);
      const otherCat = await insertGroupCategory(t, other);
      const mk = (attributes: Record<string, unknown>) => ({ type: 'groups', id: g.id, attributes });
      const cases: [Record<string, unknown>, string, string][] = [
        [{ name: null }, 'validation_error', '/attributes/name'],
        [{ name: '' }, 'validation_error', '/attributes/name'],
        [{ rule_email_domains: 'e.example' }, 'validation_error', '/attributes/rule_email_domains'],
        [{ rule_email_domains: ['http://e.example/'] }, 'validation_error', '/attributes/rule_email_domains/0'],
        [{ rule_email_domains: { a: 1 } }, 'validation_error', '/attributes/rule_email_domains'],
        [{ send_course_enrollment_email: 'true' }, 'validation_error', '/attributes/send_course_enrollment_email'],
        [{ category_id: otherCat.id }, 'not_found', '/attributes/category_id'],
        [{ category_id: encodeId('groupCategory', newUuid()) }, 'not_found', '/attributes/category_id'],
        [{ category_id: 'garbage' }, 'not_found', '/attributes/category_id'],
        [{ category_id: ['x'] }, 'validation_error', '/attributes/category_id'],
      ];
      // one item per request (duplicate ids in one batch would be duplicate_in_batch)
      for (const [attrs, code, pointer] of cases) {
        const res = await t.patch('/v2/groups/', { data: [mk(attrs)] }, { token });
        expect(res.status).toBe(207);
        expect(res.body.data[0].error).toMatchObject({ code, source: { pointer: `/data/0${pointer}` } });
      }
      const stored = await t.get(`/v2/groups/${g.id}`, { token });
      expect(stored.body.data.attributes).toMatchObject({ name: 'Upd E', rule_email_domains: ['e.example'], category_id: null });
    });

    it('unknown, undecodable and other-organization ids are not_found and leave the other org’s group unchanged', async () => {
      const [mine] = await createGroups(token, [{ name: 'Upd F' }]);
      const [theirs] = await createGroups(otherToken, [{ name: 'Their group', rule_email_domains: ['their.example'] }]);
      const before = await row((await t.ds.query(`SELECT id FROM groups WHERE name = 'Their group'`))[0].id);
      const res = await t.patch(
        '/v2/groups/',
        {
          data: [
            { type: 'groups', id: theirs.id, attributes: { name: 'hijacked', category_id: null, rule_email_domains: [] } },
            { type: 'groups', id: encodeId('group', newUuid()), attributes: { name: 'ghost' } },
            { type: 'groups', id: 'grp_garbage', attributes: { name: 'ghost' } },
            { type: 'groups', id: encodeId('student', newUuid()), attributes: { name: 'ghost' } },
            { type: 'groups', id: mine.id, attributes: { name: 'Upd F2' } },
          ],
        },
        { token },
      );
      expect(res.status).toBe(207);
      for (const i of [0, 1, 2, 3]) expect(res.body.data[i].error).toMatchObject({ code: 'not_found', source: { pointer: `/data/${i}/id` } });
      expect(res.body.data[4].status).toBe('succeeded');
      const after = await row(before.id);
      expect(after).toEqual(before);
    });

    it('envelope errors are 400', async () => {
      expect((await t.patch('/v2/groups/', { data: [] }, { token })).status).toBe(400);
      expect((await t.patch('/v2/groups/', { nope: 1 }, { token })).status).toBe(400);
    });
  });

  describe('delete', () => {
    it('hard-deletes groups with their memberships and visibility overrides', async () => {
      const [a, b] = await createGroups(token, [{ name: 'Del A' }, { name: 'Del B' }]);
      const aUuid = (await t.ds.query(`SELECT id FROM groups WHERE name = 'Del A'`))[0].id;
      const bUuid = (await t.ds.query(`SELECT id FROM groups WHERE name = 'Del B'`))[0].id;
      const s = await insertStudent(t, org);
      const course = await insertCourse(t, org);
      const pc = await publishCourse(t, org, course.uuid);
      for (const g of [aUuid, bUuid]) {
        await t.ds.query(`INSERT INTO group_memberships (group_id, user_id, organization_id) VALUES ($1, $2, $3)`, [g, s.uuid, orgUuid(org)]);
        await t.ds.query(`INSERT INTO visibility_overrides (organization_id, group_id, published_course_id, is_visible) VALUES ($1, $2, $3, true)`, [orgUuid(org), g, pc.uuid]);
      }
      const res = await t.request('DELETE', '/v2/groups/', { token, body: { data: [{ type: 'groups', id: a.id }] } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [{ status: 'deleted', id: a.id }], summary: { total: 1, succeeded: 1, failed: 0 } });
      expect(await t.ds.query(`SELECT 1 FROM groups WHERE id = $1`, [aUuid])).toHaveLength(0);
      expect(await t.ds.query(`SELECT 1 FROM group_memberships WHERE group_id = $1`, [aUuid])).toHaveLength(0);
      expect(await t.ds.query(`SELECT 1 FROM visibility_overrides WHERE group_id = $1`, [aUuid])).toHaveLength(0);
      // the other group, the student and the published course stay
      expect(await t.ds.query(`SELECT 1 FROM group_memberships WHERE group_id = $1`, [bUuid])).toHaveLength(1);
      expect(await t.ds.query(`SELECT 1 FROM visibility_overrides WHERE group_id = $1`, [bUuid])).toHaveLength(1);
      expect(await t.ds.query(`SELECT 1 FROM users WHERE id = $1`, [s.uuid])).toHaveLength(1);
      expect((await t.get(`/v2/groups/${a.id}`, { token })).status).toBe(404);
      expect((await t.get(`/v2/groups/${b.id}`, { token })).status).toBe(200);
      // deleting again: not_found
      const again = await t.request('DELETE', '/v2/groups/', { token, body: { data: [{ type: 'groups', id: a.id }] } });
      expect(again.status).toBe(207);
      expect(again.body.data[0].error).toMatchObject({ code: 'not_found', source: { pointer: '/data/0/id' } });
    });

    it('duplicate ids are duplicate_in_batch at /data/{i}/id; unknown, undecodable and other-org ids are not_found', async () => {
      const [a] = await createGroups(token, [{ name: 'Del C' }]);
      const [theirs] = await createGroups(otherToken, [{ name: 'Their undeletable' }]);
      const res = await t.request('DELETE', '/v2/groups/', {
        token,
        body: {
          data: [
            { type: 'groups', id: a.id },
            { type: 'groups', id: a.id },
            { type: 'groups', id: theirs.id },
            { type: 'groups', id: encodeId('group', newUuid()) },
            { type: 'groups', id: 'rubbish' },
            { type: 'groups' },
            { type: 'groups', id: ['x'] },
            { type: 'students', id: a.id },
            null,
          ],
        },
      });
      expect(res.status).toBe(207);
      const d = res.body.data;
      expect(d[0]).toEqual({ status: 'deleted', id: a.id });
      expect(d[1].error).toMatchObject({ code: 'duplicate_in_batch', source: { pointer: '/data/1/id' } });
      for (const i of [2, 3, 4]) expect(d[i].error).toMatchObject({ code: 'not_found', source: { pointer: `/data/${i}/id` } });
      expect(d[5].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/5/id' } });
      expect(d[6].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/6/id' } });
      expect(d[7].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/7/type' } });
      expect(d[8].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/8' } });
      expect(res.body.summary).toEqual({ total: 9, succeeded: 1, failed: 8 });
      expect((await t.get(`/v2/groups/${theirs.id}`, { token: otherToken })).status).toBe(200);
    });

    it('reads the DELETE body sent as application/vnd.api+json too', async () => {
      const [g] = await createGroups(token, [{ name: 'Del vnd' }]);
      const res = await t.request('DELETE', '/v2/groups/', {
        token,
        raw: { contentType: 'application/vnd.api+json', data: JSON.stringify({ data: [{ type: 'groups', id: g.id }] }) },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([{ status: 'deleted', id: g.id }]);
      expect((await t.get(`/v2/groups/${g.id}`, { token })).status).toBe(404);
    });

    it('envelope errors are 400 (empty, over the cap, no body)', async () => {
      expect((await t.request('DELETE', '/v2/groups/', { token, body: { data: [] } })).status).toBe(400);
      const over = { data: Array.from({ length: 101 }, () => ({ type: 'groups', id: encodeId('group', newUuid()) })) };
      expect((await t.request('DELETE', '/v2/groups/', { token, body: over })).status).toBe(400);
      expect((await t.request('DELETE', '/v2/groups/', { token })).status).toBe(400);
    });
  });

  describe('set-wise SQL', () => {
    it('create, update and delete of 100 groups take at most 10 statements each', async () => {
      const cat = await insertGroupCategory(t, org);
      const batchOrg = await t.newOrg();
      const tok = await t.tokenFor(batchOrg, ['student-groups:read', 'student-groups:write']);
      const bcat = await insertGroupCategory(t, batchOrg);
      void cat;
      const created = await countQueries(() =>
        t.post('/v2/groups/', { data: Array.from({ length: 100 }, (_, i) => item({ name: `Bulk ${i}`, rule_email_domains: [`d${i}.example`], category_id: bcat.id })) }, { token: tok }),
      );
      expect(created.result.status).toBe(200);
      expect(created.result.body.summary.succeeded).toBe(100);
      expect(created.count).toBeLessThanOrEqual(10);
      const ids: string[] = created.result.body.data.map((d: any) => d.id);

      const updated = await countQueries(() =>
        t.patch('/v2/groups/', { data: ids.map((id, i) => ({ type: 'groups', id, attributes: { name: `Bulk renamed ${i}`, category_id: i % 2 ? null : bcat.id } })) }, { token: tok }),
      );
      expect(updated.result.status).toBe(200);
      expect(updated.count).toBeLessThanOrEqual(10);
      expect(updated.result.body.data[1].result.attributes).toMatchObject({ name: 'Bulk renamed 1', category_id: null });
      expect(updated.result.body.data[2].result.attributes).toMatchObject({ name: 'Bulk renamed 2', category_id: bcat.id });

      const deleted = await countQueries(() => t.request('DELETE', '/v2/groups/', { token: tok, body: { data: ids.map((id) => ({ type: 'groups', id })) } }));
      expect(deleted.result.status).toBe(200);
      expect(deleted.result.body.data.every((d: any) => d.status === 'deleted')).toBe(true);
      expect(deleted.count).toBeLessThanOrEqual(10);
      expect(await t.ds.query(`SELECT 1 FROM groups WHERE organization_id = $1`, [orgUuid(batchOrg)])).toHaveLength(0);
      // for the report
      console.log(`SQL statements per 100-item batch: create ${created.count}, update ${updated.count}, delete ${deleted.count}`);
    });
  });
});
