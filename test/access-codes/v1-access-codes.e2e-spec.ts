import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, domainOf, insertDomain, insertStudent, orgUuid, useAccessCode } from '../support/fixtures';
import { drfFlat } from '../support/drf';

describe('/v1 access code pools and access codes', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let dn: string;
  let pools: string;
  const basic = () => ({ basic: org.api_key });
  const bearer = () => ({ token });

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org);
    dn = (await domainOf(t, org)).name;
    pools = `/v1/domains/${dn}/access-code-pools`;
  });
  afterAll(() => t.close());

  const count = async (table: string) => Number((await t.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1`, [orgUuid(org)]))[0].n);
  const newPool = async (name = 'Pool', base = pools) => {
    const r = await t.post(base, { name }, basic());
    expect(r.status).toBe(201);
    return r.body;
  };

  it('401 without credentials, 403 without the access-codes scope', async () => {
    expect((await t.get(pools)).status).toBe(401);
    const narrow = await t.tokenFor(org, ['domains:read', 'domains:write']);
    const r = await t.get(pools, { token: narrow });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ detail: expect.any(String) });
    const readOnly = await t.tokenFor(org, ['access-codes:read']);
    expect((await t.get(pools, { token: readOnly })).status).toBe(200);
    expect((await t.post(pools, { name: 'x' }, { token: readOnly })).status).toBe(403);
  });

  describe('pools', () => {
    it('creates with defaults (Basic and Bearer), reads, updates and partially updates', async () => {
      const r = await t.post(pools, { name: 'Spring cohort' }, basic());
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        id: expect.stringMatching(/^[0-9a-z]+$/),
        name: 'Spring cohort',
        active: true,
        start_date: null,
        end_date: null,
        expire_linked_to_domain_membership: false,
        channel: 'api',
        code_count: 0,
      });
      const full = { name: 'Dated', active: false, start_date: '2026-01-01T00:00:00Z', end_date: '2026-06-30T23:59:59Z', expire_linked_to_domain_membership: true };
      const r2 = await t.post(pools, full, bearer());
      expect(r2.status).toBe(201);
      expect(r2.body).toMatchObject({ ...full, start_date: '2026-01-01T00:00:00.000Z', end_date: '2026-06-30T23:59:59.000Z' });

      expect((await t.get(`${pools}/${r.body.id}`, bearer())).body).toEqual(r.body);
      const put = await t.request('PUT', `${pools}/${r.body.id}`, { body: { active: false }, ...basic() });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ name: 'Spring cohort', active: false });
      const patch = await t.patch(`${pools}/${r.body.id}`, { name: 'Renamed', end_date: '2027-01-01T00:00:00Z' }, bearer());
      expect(patch.body).toMatchObject({ name: 'Renamed', active: false, end_date: '2027-01-01T00:00:00.000Z' });
      const cleared = await t.patch(`${pools}/${r.body.id}`, { end_date: null }, basic());
      expect(cleared.body.end_date).toBeNull();
      expect((await t.patch(`${pools}/${r.body.id}`, { channel: 'import' }, basic())).body.channel).toBe('api'); // read-only
    });

    it('validates: name required and at most 255, booleans, dates and their order', async () => {
      const before = await count('access_code_pools');
      const bad = async (body: unknown, field: string, url = pools, method = 'POST') => {
        const r = await t.request(method, url, { body, ...basic() });
        expect(r.status).toBe(400);
        expect(drfFlat(r.body)[field]).toEqual([expect.any(String)]);
      };
      await bad({}, 'name');
      await bad({ name: '' }, 'name');
      await bad({ name: 'x'.repeat(256) }, 'name');
      await bad({ name: 7 }, 'name');
      await bad({ name: 'a\u0000b' }, 'name');
      expect((await t.get(`${pools}?name=a%00b`, basic())).body).toEqual({ count: 0, next: null, previous: null, results: [] }); // a filter matches nothing, never fails (issue 25 item 7)
      await bad({ name: 'ok', active: 'yes' }, 'active');
      await bad({ name: 'ok', start_date: 'tomorrow' }, 'start_date');
      await bad({ name: 'ok', start_date: '2026-05-01T00:00:00Z', end_date: '2026-04-01T00:00:00Z' }, 'end_date');
      expect(await count('access_code_pools')).toBe(before);
      const p = await newPool('dates');
      await t.patch(`${pools}/${p.id}`, { start_date: '2026-05-01T00:00:00Z' }, basic());
      await bad({ end_date: '2026-04-01T00:00:00Z' }, 'end_date', `${pools}/${p.id}`, 'PATCH');
      await bad({ name: '' }, 'name', `${pools}/${p.id}`, 'PUT');
      expect((await t.get(`${pools}/${p.id}`, basic())).body.end_date).toBeNull();
    });

    it('lists with code_count and the exact name filter, 100 per page', async () => {
      const d = await insertDomain(t, org);
      const base = `/v1/domains/${d.name}/access-code-pools`;
      const a = await newPool('Alpha', base);
      await newPool('Beta', base);
      for (const code of ['A1', 'A2', 'A3']) expect((await t.post(`${base}/${a.id}/access-codes`, { code }, basic())).status).toBe(201);
      const list = await t.get(base, bearer());
      expect(list.body.count).toBe(2);
      expect(list.body.results.map((r: any) => [r.name, r.code_count])).toEqual([
        ['Alpha', 3],
        ['Beta', 0],
      ]);
      expect((await t.get(`${base}/${a.id}`, basic())).body.code_count).toBe(3);
      const byName = await t.get(`${base}?name=Beta`, basic());
      expect(byName.body.results.map((r: any) => r.name)).toEqual(['Beta']);
      expect((await t.get(`${base}?name=bet`, basic())).body.count).toBe(0);

      await t.ds.query(`INSERT INTO access_code_pools (organization_id, domain_id, name) SELECT $1, $2, 'bulk' || g FROM generate_series(1, 100) g`, [orgUuid(org), d.uuid]);
      const p1 = await t.get(`${base}?page_size=1000`, basic());
      expect(p1.body.count).toBe(102);
      expect(p1.body.results).toHaveLength(100);
      expect((await t.get(`${base}?page=2`, basic())).body.results).toHaveLength(2);
      expect((await t.get(`${base}?page=3`, basic())).status).toBe(404);
      expect((await t.get(`${base}?page=two`, basic())).status).toBe(400);
    });

    it('the pool list runs the same number of statements for 1 pool and for many (code_count set-wise)', async () => {
      const measure = async (url: string) => {
        await t.get(url, basic());
        const { result, count: n } = await countQueries(() => t.get(url, basic()));
        expect(result.status).toBe(200);
        expect(n).toBeGreaterThan(0);
        return n;
      };
      const small = await insertDomain(t, org);
      const big = await insertDomain(t, org);
      const p = await newPool('one', `/v1/domains/${small.name}/access-code-pools`);
      await t.post(`/v1/domains/${small.name}/access-code-pools/${p.id}/access-codes`, {}, basic());
      for (let i = 0; i < 10; i++) {
        const q = await newPool(`many ${i}`, `/v1/domains/${big.name}/access-code-pools`);
        await t.post(`/v1/domains/${big.name}/access-code-pools/${q.id}/access-codes`, {}, basic());
      }
      expect(await measure(`/v1/domains/${big.name}/access-code-pools`)).toBe(await measure(`/v1/domains/${small.name}/access-code-pools`));
      const bigPool = (await t.get(`/v1/domains/${big.name}/access-code-pools`, basic())).body.results[0];
      for (let i = 0; i < 10; i++) await t.post(`/v1/domains/${big.name}/access-code-pools/${bigPool.id}/access-codes`, {}, basic());
      expect(await measure(`/v1/domains/${big.name}/access-code-pools/${bigPool.id}/access-codes`)).toBe(await measure(`/v1/domains/${small.name}/access-code-pools/${p.id}/access-codes`));
    });

    it('deletes a pool with its codes', async () => {
      const p = await newPool('Doomed');
      const c = (await t.post(`${pools}/${p.id}/access-codes`, { code: 'DOOMED-1' }, basic())).body;
      expect((await t.delete(`${pools}/${p.id}`, basic())).status).toBe(204);
      expect((await t.get(`${pools}/${p.id}`, basic())).status).toBe(404);
      expect((await t.ds.query(`SELECT 1 FROM access_codes WHERE id = $1`, [decodeId('accessCode', c.id)])).length).toBe(0);
    });
  });

  describe('codes', () => {
    it('creates (generating a code when none is given), lists, reads with users and use_count, updates', async () => {
      const p = await newPool('Codes');
      const url = `${pools}/${p.id}/access-codes`;
      const c1 = await t.post(url, { code: 'WELCOME2026', max_uses: 50, duration: 6, duration_unit: 'MONTHS' }, basic());
      expect(c1.status).toBe(201);
      expect(c1.body).toEqual({ id: expect.stringMatching(/^[0-9a-z]+$/), code: 'WELCOME2026', active: true, max_uses: 50, use_count: 0, duration: 6, duration_unit: 'MONTHS', users: [] });
      const c2 = await t.post(url, {}, bearer());
      expect(c2.status).toBe(201);
      expect(c2.body).toMatchObject({ code: expect.stringMatching(/^[A-Z0-9]{10}$/), active: true, max_uses: 1, duration: null, duration_unit: 'MONTHS' });
      const c3 = await t.post(url, { code: 'DAYS-CODE', duration: 30, duration_unit: 'DAYS', active: false }, basic());
      expect(c3.body).toMatchObject({ duration_unit: 'DAYS', active: false });

      const s1 = await insertStudent(t, org, { email: 'code-user-1@example.test', first_name: 'A', last_name: 'One' });
      const s2 = await insertStudent(t, org, { email: 'code-user-2@example.test', first_name: 'B', last_name: 'Two' });
      await useAccessCode(t, org, decodeId('accessCode', c1.body.id)!, s1.uuid);
      await useAccessCode(t, org, decodeId('accessCode', c1.body.id)!, s2.uuid);

      const read = await t.get(`${url}/${c1.body.id}`, bearer());
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ use_count: 2 });
      expect(read.body.users).toEqual([
        { id: s1.id, email: 'code-user-1@example.test', first_name: 'A', last_name: 'One', full_name: 'A One' },
        { id: s2.id, email: 'code-user-2@example.test', first_name: 'B', last_name: 'Two', full_name: 'B Two' },
      ]);

      const list = await t.get(url, basic());
      expect(list.body.count).toBe(3);
      expect(list.body.results.map((r: any) => r.id)).toEqual([c1.body.id, c2.body.id, c3.body.id]);
      expect(list.body.results[0]).toEqual({ id: c1.body.id, code: 'WELCOME2026', active: true, max_uses: 50, use_count: 2, duration: 6, duration_unit: 'MONTHS' });
      const paged = await t.get(`${url}?page_size=2`, basic());
      expect(paged.body.results).toHaveLength(2);
      expect(paged.body.next).toContain('page=2');

      const put = await t.request('PUT', `${url}/${c1.body.id}`, { body: { active: false, max_uses: 0 }, ...basic() });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ code: 'WELCOME2026', active: false, max_uses: 0, use_count: 2 });
      expect(put.body.users).toHaveLength(2);
      const patch = await t.patch(`${url}/${c1.body.id}`, { code: 'WELCOME2027', duration: null }, bearer());
      expect(patch.body).toMatchObject({ code: 'WELCOME2027', duration: null });
      expect((await t.patch(`${url}/${c1.body.id}`, { use_count: 99 }, basic())).body.use_count).toBe(2); // read-only

      expect((await t.delete(`${url}/${c3.body.id}`, basic())).status).toBe(204);
      expect((await t.get(`${url}/${c3.body.id}`, basic())).status).toBe(404);
      expect((await t.get(`${pools}/${p.id}`, basic())).body.code_count).toBe(2);
    });

    it('domain members who joined with a code count as its users (domain_users.access_code_id)', async () => {
      const d = await insertDomain(t, org);
      const base = `/v1/domains/${d.name}/access-code-pools`;
      const p = await newPool('Members', base);
      const code = (await t.post(`${base}/${p.id}/access-codes`, { code: 'JOINED' }, basic())).body;
      const spare = (await t.post(`${base}/${p.id}/access-codes`, { code: 'SPARE' }, basic())).body;
      const m1 = await insertStudent(t, org, { email: 'joined-1@example.test' });
      const m2 = await insertStudent(t, org, { email: 'joined-2@example.test' });
      const codeUuid = decodeId('accessCode', code.id)!;
      await t.ds.query(`INSERT INTO domain_users (organization_id, domain_id, user_id, access_code_id, enrolled_at) VALUES ($1, $2, $3, $4, now() - interval '1 day'), ($1, $2, $5, $4, now())`, [
        orgUuid(org),
        d.uuid,
        m1.uuid,
        codeUuid,
        m2.uuid,
      ]);
      // a redemption by a user who is also a member with the code counts once
      await useAccessCode(t, org, codeUuid, m1.uuid);
      const read = await t.get(`${base}/${p.id}/access-codes/${code.id}`, basic());
      expect(read.body.use_count).toBe(2);
      expect(read.body.users.map((u: any) => u.email)).toEqual(['joined-1@example.test', 'joined-2@example.test']);
      const list = await t.get(`${base}/${p.id}/access-codes`, bearer());
      expect(list.body.results.map((r: any) => [r.code, r.use_count])).toEqual([
        ['JOINED', 2],
        ['SPARE', 0],
      ]);
      expect((await t.get(`${base}/${p.id}/access-codes/${spare.id}`, basic())).body.users).toEqual([]);
      // deleting the code keeps the memberships and clears their code
      expect((await t.delete(`${base}/${p.id}/access-codes/${code.id}`, basic())).status).toBe(204);
      const left = await t.ds.query(`SELECT access_code_id FROM domain_users WHERE domain_id = $1 ORDER BY enrolled_at`, [d.uuid]);
      expect(left).toEqual([{ access_code_id: null }, { access_code_id: null }]);
    });

    it('codes are unique per domain, not only per pool', async () => {
      const p1 = await newPool('U1');
      const p2 = await newPool('U2');
      expect((await t.post(`${pools}/${p1.id}/access-codes`, { code: 'UNIQUE-1' }, basic())).status).toBe(201);
      const dupSamePool = await t.post(`${pools}/${p1.id}/access-codes`, { code: 'UNIQUE-1' }, basic());
      expect(dupSamePool.status).toBe(400);
      expect(dupSamePool.body.code).toEqual([expect.any(String)]);
      expect((await t.post(`${pools}/${p2.id}/access-codes`, { code: 'UNIQUE-1' }, basic())).status).toBe(400);
      const other2 = (await t.post(`${pools}/${p2.id}/access-codes`, { code: 'UNIQUE-2' }, basic())).body;
      expect((await t.patch(`${pools}/${p2.id}/access-codes/${other2.id}`, { code: 'UNIQUE-1' }, basic())).status).toBe(400);
      expect((await t.patch(`${pools}/${p2.id}/access-codes/${other2.id}`, { code: 'UNIQUE-2' }, basic())).status).toBe(200);
      // another domain may reuse it
      const d = await insertDomain(t, org);
      const p3 = await newPool('U3', `/v1/domains/${d.name}/access-code-pools`);
      expect((await t.post(`/v1/domains/${d.name}/access-code-pools/${p3.id}/access-codes`, { code: 'UNIQUE-1' }, basic())).status).toBe(201);
    });

    it('validates the body: 400 field errors, never a 500', async () => {
      const p = await newPool('Validation');
      const url = `${pools}/${p.id}/access-codes`;
      const before = await count('access_codes');
      const bad = async (body: unknown, field: string) => {
        const r = await t.post(url, body, basic());
        expect(r.status).toBe(400);
        expect(drfFlat(r.body)[field]).toEqual([expect.any(String)]);
      };
      await bad({ code: '' }, 'code');
      await bad({ code: 'x'.repeat(41) }, 'code');
      await bad({ code: 'has space' }, 'code');
      await bad({ code: 'NUL\u0000' }, 'code');
      await bad({ max_uses: -1 }, 'max_uses');
      await bad({ max_uses: 1.5 }, 'max_uses');
      await bad({ max_uses: '5' }, 'max_uses');
      await bad({ duration: 0 }, 'duration');
      await bad({ duration_unit: 'YEARS' }, 'duration_unit');
      await bad({ active: 1 }, 'active');
      await bad({ max_uses: 1e12 }, 'max_uses');
      expect(await count('access_codes')).toBe(before);
      const ok = await t.post(url, { code: 'x'.repeat(40), max_uses: 0 }, basic());
      expect(ok.status).toBe(201);
      expect((await t.get(`${url}/garbage`, basic())).status).toBe(404);
      expect((await t.get(`${pools}/garbage/access-codes`, basic())).status).toBe(404);
      // a code id under another pool of the same domain is not found
      const p2 = await newPool('Validation 2');
      expect((await t.get(`${pools}/${p2.id}/access-codes/${ok.body.id}`, basic())).status).toBe(404);
    });
  });

  it('every operation works with the API key (Basic) and with a Bearer token', async () => {
    for (const [i, cred] of [basic(), bearer()].entries()) {
      const ok = (r: { status: number; text: string }, status = 200) => expect([r.status, r.text]).toEqual([status, expect.anything()]);
      const pool = await t.post(pools, { name: `Both ${i}` }, cred);
      ok(pool, 201);
      const b = `${pools}/${pool.body.id}`;
      ok(await t.get(pools, cred));
      ok(await t.get(b, cred));
      ok(await t.request('PUT', b, { body: { active: false }, ...cred }));
      ok(await t.patch(b, { name: `Both ${i} patched` }, cred));
      const code = await t.post(`${b}/access-codes`, { code: `BOTH-${i}` }, cred);
      ok(code, 201);
      ok(await t.get(`${b}/access-codes`, cred));
      ok(await t.get(`${b}/access-codes/${code.body.id}`, cred));
      ok(await t.request('PUT', `${b}/access-codes/${code.body.id}`, { body: { max_uses: 5 }, ...cred }));
      ok(await t.patch(`${b}/access-codes/${code.body.id}`, { active: false }, cred));
      ok(await t.delete(`${b}/access-codes/${code.body.id}`, cred), 204);
      ok(await t.delete(b, cred), 204);
    }
  });

  it('cross-organization: another organization neither sees nor changes pools and codes', async () => {
    const p = await newPool('Secret pool');
    const c = (await t.post(`${pools}/${p.id}/access-codes`, { code: 'SECRET-1' }, basic())).body;
    const ob = { basic: other.api_key };
    const ot = { token: await t.tokenFor(other) };
    expect((await t.get(pools, ob)).status).toBe(404);
    expect((await t.post(pools, { name: 'Injected' }, ot)).status).toBe(404);
    expect((await t.get(`${pools}/${p.id}`, ob)).status).toBe(404);
    expect((await t.patch(`${pools}/${p.id}`, { name: 'Hijacked' }, ot)).status).toBe(404);
    expect((await t.delete(`${pools}/${p.id}`, ob)).status).toBe(404);
    expect((await t.get(`${pools}/${p.id}/access-codes`, ob)).status).toBe(404);
    expect((await t.patch(`${pools}/${p.id}/access-codes/${c.id}`, { active: false }, ob)).status).toBe(404);
    const theirs = `/v1/domains/${(await domainOf(t, other)).name}/access-code-pools`;
    expect((await t.get(theirs, ob)).body.results.map((r: any) => r.id)).not.toContain(p.id);
    expect((await t.get(`${theirs}/${p.id}`, ob)).status).toBe(404);
    expect((await t.request('PUT', `${theirs}/${p.id}`, { body: { name: 'x' }, ...ob })).status).toBe(404);
    expect((await t.get(`${theirs}/${p.id}/access-codes/${c.id}`, ob)).status).toBe(404);
    expect((await t.delete(`${theirs}/${p.id}/access-codes/${c.id}`, ob)).status).toBe(404);
    // their pool may hold the same code text: codes are unique per domain
    const theirPool = (await t.post(theirs, { name: 'Theirs' }, ob)).body;
    expect((await t.post(`${theirs}/${theirPool.id}/access-codes`, { code: 'SECRET-1' }, ob)).status).toBe(201);
    // nothing changed
    expect((await t.get(`${pools}/${p.id}`, basic())).body).toMatchObject({ name: 'Secret pool', code_count: 1 });
    expect((await t.get(`${pools}/${p.id}/access-codes/${c.id}`, basic())).body).toMatchObject({ code: 'SECRET-1', active: true });
  });
});
