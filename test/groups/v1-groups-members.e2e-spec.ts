import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, domainOf, insertStudent, joinDomain, orgUuid } from '../support/fixtures';
import { drfFlat } from '../support/drf';

describe('/v1 group users, group access code pools and /v1/users/{user_id}/groups', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  const basic = () => ({ basic: org.api_key });
  const bearer = () => ({ token });
  const both = () => [basic(), bearer()];

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  let seq = 0;
  const group = async (o: CreatedOrg = org) => {
    const r = await t.post('/v1/groups', { name: `Members ${++seq}` }, { basic: o.api_key });
    expect(r.status).toBe(201);
    return r.body as { id: string; name: string };
  };
  const pool = async (o: CreatedOrg = org, name = `Pool ${++seq}`) => {
    const d = await domainOf(t, o);
    const [r] = await t.ds.query(`INSERT INTO access_code_pools (organization_id, domain_id, name) VALUES ($1, $2, $3) RETURNING id`, [orgUuid(o), d.uuid, name]);
    return { uuid: r.id as string, id: encodeId('accessCodePool', r.id), name };
  };
  /** a student registered on the org's domain: a /v1 user, whose /v1/users/{id}/groups answers (a student on no domain is 404 there) */
  const registeredStudent = async () => {
    const s = await insertStudent(t, org);
    await joinDomain(t, org, (await domainOf(t, org)).uuid, s.uuid);
    return s;
  };
  const members = async (groupId: string) => (await t.get(`/v1/groups/${groupId}/users?page_size=1000`, basic())).body.results.map((r: any) => r.user.id);

  it('401 without credentials and 403 without student-groups scopes on every operation', async () => {
    const g = await group();
    const s = await registeredStudent();
    const p = await pool();
    const ops: [string, string, unknown?][] = [
      ['GET', `/v1/groups/${g.id}/users`],
      ['POST', `/v1/groups/${g.id}/users`, { user: { id: s.id } }],
      ['GET', `/v1/groups/${g.id}/users/${s.id}`],
      ['DELETE', `/v1/groups/${g.id}/users/${s.id}`],
      ['GET', `/v1/groups/${g.id}/access-code-pools`],
      ['POST', `/v1/groups/${g.id}/access-code-pools`, { access_code_pool: { id: p.id } }],
      ['GET', `/v1/groups/${g.id}/access-code-pools/${p.id}`],
      ['DELETE', `/v1/groups/${g.id}/access-code-pools/${p.id}`],
      ['GET', `/v1/users/${s.id}/groups`],
    ];
    const none = await t.tokenFor(org, ['courses:read', 'courses:write']);
    const readOnly = await t.tokenFor(org, ['student-groups:read']);
    for (const [method, path, body] of ops) {
      expect([method, path, (await t.request(method, path, { body })).status]).toEqual([method, path, 401]);
      const forbidden = await t.request(method, path, { body, token: none });
      expect([method, path, forbidden.status]).toEqual([method, path, 403]);
      expect(forbidden.body).toEqual({ detail: expect.any(String) });
      const ro = await t.request(method, path, { body, token: readOnly });
      if (method !== 'GET') expect([method, path, ro.status]).toEqual([method, path, 403]);
    }
    expect(await t.ds.query(`SELECT 1 FROM group_memberships WHERE user_id = $1`, [s.uuid])).toEqual([]);
    // the users family scope also reads a user's groups
    const studentsRead = await t.tokenFor(org, ['students:read']);
    expect((await t.get(`/v1/users/${s.id}/groups`, { token: studentsRead })).status).toBe(200);
    expect((await t.get(`/v1/groups/${g.id}/users`, { token: studentsRead })).status).toBe(403);
  });

  describe('group users', () => {
    it('adds (201, then 200 idempotently), lists, reads and removes members with both credentials', async () => {
      for (const auth of both()) {
        const g = await group();
        const s = await insertStudent(t, org, { email: `m${++seq}@example.test`, first_name: 'Ada', last_name: 'Lovelace' });
        const r = await t.post(`/v1/groups/${g.id}/users`, { user: { id: s.id, email: 'ignored@example.test' } }, auth);
        expect(r.status).toBe(201);
        expect(r.body).toEqual({ user: { id: s.id, email: `m${seq}@example.test`, first_name: 'Ada', last_name: 'Lovelace', full_name: 'Ada Lovelace' }, created_at: expect.any(String) });
        const again = await t.post(`/v1/groups/${g.id}/users`, { user: { id: s.id } }, auth);
        expect(again.status).toBe(200);
        expect(again.body).toEqual(r.body);
        expect(await t.ds.query(`SELECT count(*)::int AS n FROM group_memberships WHERE group_id = (SELECT id FROM groups WHERE name = $1)`, [g.name])).toEqual([{ n: 1 }]);
        const list = await t.get(`/v1/groups/${g.id}/users`, auth);
        expect(list.body).toEqual({ count: 1, next: null, previous: null, results: [r.body] });
        expect((await t.get(`/v1/groups/${g.id}`, auth)).body.user_count).toBe(1);
        expect((await t.get(`/v1/groups/${g.id}/users/${s.id}`, auth)).body).toEqual(r.body);
        expect((await t.delete(`/v1/groups/${g.id}/users/${s.id}`, auth)).status).toBe(204);
        expect((await t.get(`/v1/groups/${g.id}/users/${s.id}`, auth)).status).toBe(404);
        expect((await t.delete(`/v1/groups/${g.id}/users/${s.id}`, auth)).status).toBe(404);
        expect((await t.get(`/v1/groups/${g.id}`, auth)).body.user_count).toBe(0);
        expect(await t.ds.query(`SELECT 1 FROM users WHERE id = $1`, [s.uuid])).toHaveLength(1);
      }
    });

    it('lists in joining order, paginated (1000 per page at most), one statement per page for the users', async () => {
      const g = await group();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const s = await insertStudent(t, org);
        ids.push(s.id);
        expect((await t.post(`/v1/groups/${g.id}/users`, { user: { id: s.id } }, basic())).status).toBe(201);
      }
      expect(await members(g.id)).toEqual(ids);
      const p2 = await t.get(`/v1/groups/${g.id}/users?page_size=2&page=2`, bearer());
      expect(p2.body.count).toBe(3);
      expect(p2.body.results.map((r: any) => r.user.id)).toEqual([ids[2]]);
      expect((await t.get(`/v1/groups/${g.id}/users?page=3&page_size=2`, bearer())).status).toBe(404);
      expect((await t.get(`/v1/groups/${g.id}/users?page_size=x`, bearer())).status).toBe(400);
      const small = await countQueries(() => t.get(`/v1/groups/${g.id}/users`, basic()));
      const big = await group();
      await t.ds.query(`INSERT INTO users (organization_id, email) SELECT $1, 'bulk' || i || '-' || $2 || '@example.test' FROM generate_series(1, 1001) i`, [orgUuid(org), seq]);
      await t.ds.query(`INSERT INTO group_memberships (group_id, user_id, organization_id) SELECT (SELECT id FROM groups WHERE name = $1), id, organization_id FROM users WHERE email LIKE $2`, [
        big.name,
        `bulk%-${seq}@example.test`,
      ]);
      const many = await countQueries(() => t.get(`/v1/groups/${big.id}/users?page_size=5000`, basic()));
      expect(many.result.body.count).toBe(1001);
      expect(many.result.body.results).toHaveLength(1000);
      expect(many.count).toBe(small.count);
      expect((await t.get(`/v1/groups/${big.id}`, basic())).body.user_count).toBe(1001);
      expect((await t.get(`/v1/groups?name=${encodeURIComponent(big.name)}`, basic())).body.results[0].user_count).toBe(1001);
    });

    it('400 for a missing, malformed, unknown or other-organization user; nothing is added', async () => {
      const g = await group();
      const theirs = await insertStudent(t, other);
      const cases: [unknown, string][] = [
        [{}, 'user'],
        [{ user: null }, 'user'],
        [{ user: 'abc' }, 'user'],
        [{ user: [] }, 'user'],
        [{ user: {} }, 'user.id'],
        [{ user: { id: 5 } }, 'user.id'],
        [{ user: { id: '' } }, 'user.id'],
        [{ user: { id: 'nope' } }, 'user'],
        [{ user: { id: encodeId('student', newUuid()) } }, 'user'],
        [{ user: { id: encodeId('group', newUuid()) } }, 'user'],
        [{ user: { id: theirs.id } }, 'user'],
        [{ user: { id: 'x'.repeat(5000) } }, 'user'],
      ];
      for (const [body, field] of cases) {
        const r = await t.post(`/v1/groups/${g.id}/users`, body, basic());
        expect([JSON.stringify(body).slice(0, 60), r.status]).toEqual([JSON.stringify(body).slice(0, 60), 400]);
        expect(drfFlat(r.body)[field]).toEqual([expect.any(String)]);
      }
      expect(await members(g.id)).toEqual([]);
      expect(await t.ds.query(`SELECT 1 FROM group_memberships WHERE user_id = $1`, [theirs.uuid])).toEqual([]);
    });

    it("cross-organization: another org's group is 404 for every member operation, and its members are unchanged", async () => {
      const theirGroup = await group(other);
      const theirUser = await insertStudent(t, other);
      await t.post(`/v1/groups/${theirGroup.id}/users`, { user: { id: theirUser.id } }, { basic: other.api_key });
      const mine = await insertStudent(t, org);
      for (const auth of both()) {
        expect((await t.get(`/v1/groups/${theirGroup.id}/users`, auth)).status).toBe(404);
        expect((await t.post(`/v1/groups/${theirGroup.id}/users`, { user: { id: mine.id } }, auth)).status).toBe(404);
        expect((await t.post(`/v1/groups/${theirGroup.id}/users`, { user: { id: theirUser.id } }, auth)).status).toBe(404);
        expect((await t.get(`/v1/groups/${theirGroup.id}/users/${theirUser.id}`, auth)).status).toBe(404);
        expect((await t.delete(`/v1/groups/${theirGroup.id}/users/${theirUser.id}`, auth)).status).toBe(404);
        expect((await t.get(`/v1/users/${theirUser.id}/groups`, auth)).status).toBe(404);
      }
      const theirs = await t.get(`/v1/groups/${theirGroup.id}/users`, { basic: other.api_key });
      expect(theirs.body.results.map((r: any) => r.user.id)).toEqual([theirUser.id]);
      // a member id that is not in the group, undecodable or unknown: 404
      const g = await group();
      for (const id of [mine.id, 'nope', encodeId('student', newUuid())]) {
        expect((await t.get(`/v1/groups/${g.id}/users/${id}`, basic())).status).toBe(404);
        expect((await t.delete(`/v1/groups/${g.id}/users/${id}`, basic())).status).toBe(404);
      }
      expect((await t.get(`/v1/groups/nope/users`, basic())).status).toBe(404);
    });

    it('memberships added on /v1 are the memberships of the group on /v2 (deleting the group on /v2 removes them)', async () => {
      const g = await group();
      const s = await registeredStudent();
      await t.post(`/v1/groups/${g.id}/users`, { user: { id: s.id } }, basic());
      const v2token = await t.tokenFor(org, ['student-groups:write', 'student-groups:read']);
      const del = await t.request('DELETE', '/v2/groups/', { token: v2token, body: { data: [{ type: 'groups', id: g.id }] } });
      expect(del.status).toBe(200);
      expect(await t.ds.query(`SELECT 1 FROM group_memberships WHERE user_id = $1`, [s.uuid])).toEqual([]);
      expect((await t.get(`/v1/users/${s.id}/groups`, basic())).body.count).toBe(0);
    });
  });

  describe('/v1/users/{user_id}/groups', () => {
    it('lists the groups of a user of the organization, in joining order, with both credentials', async () => {
      const s = await registeredStudent();
      const a = await group();
      const b = await group();
      await group();
      await t.post(`/v1/groups/${b.id}/users`, { user: { id: s.id } }, basic());
      await t.post(`/v1/groups/${a.id}/users`, { user: { id: s.id } }, basic());
      for (const auth of both()) {
        const r = await t.get(`/v1/users/${s.id}/groups`, auth);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({
          count: 2,
          next: null,
          previous: null,
          results: [
            { id: b.id, group: { id: b.id, name: b.name }, joined_at: expect.any(String) },
            { id: a.id, group: { id: a.id, name: a.name }, joined_at: expect.any(String) },
          ],
        });
      }
      expect((await t.get(`/v1/users/${s.id}/groups?page=2&page_size=1`, basic())).body.results.map((x: any) => x.id)).toEqual([a.id]);
      for (const id of ['nope', encodeId('student', newUuid()), encodeId('group', newUuid())]) {
        expect((await t.get(`/v1/users/${id}/groups`, basic())).status).toBe(404);
      }
      expect((await t.get(`/v1/users/${s.id}/groups?page=0`, basic())).status).toBe(400);
    });
  });

  describe('group access code pools', () => {
    it('assigns (201, then 200), lists, reads and removes pools with both credentials; the pool itself stays', async () => {
      for (const auth of both()) {
        const g = await group();
        const p = await pool(org, `Spring ${++seq}`);
        const r = await t.post(`/v1/groups/${g.id}/access-code-pools`, { access_code_pool: { id: p.id, name: 'ignored' } }, auth);
        expect(r.status).toBe(201);
        expect(r.body).toEqual({ access_code_pool: { id: p.id, name: p.name }, created_at: expect.any(String) });
        const again = await t.post(`/v1/groups/${g.id}/access-code-pools`, { access_code_pool: { id: p.id } }, auth);
        expect(again.status).toBe(200);
        expect(again.body).toEqual(r.body);
        expect((await t.get(`/v1/groups/${g.id}/access-code-pools`, auth)).body).toEqual({ count: 1, next: null, previous: null, results: [r.body] });
        expect((await t.get(`/v1/groups/${g.id}/access-code-pools/${p.id}`, auth)).body).toEqual(r.body);
        expect((await t.delete(`/v1/groups/${g.id}/access-code-pools/${p.id}`, auth)).status).toBe(204);
        expect((await t.get(`/v1/groups/${g.id}/access-code-pools/${p.id}`, auth)).status).toBe(404);
        expect((await t.delete(`/v1/groups/${g.id}/access-code-pools/${p.id}`, auth)).status).toBe(404);
        expect(await t.ds.query(`SELECT 1 FROM access_code_pools WHERE id = $1`, [p.uuid])).toHaveLength(1);
      }
    });

    it('lists in assignment order, paginated; links go with a deleted group or pool', async () => {
      const g = await group();
      const pools = [await pool(), await pool(), await pool()];
      for (const p of pools) await t.post(`/v1/groups/${g.id}/access-code-pools`, { access_code_pool: { id: p.id } }, basic());
      const all = await t.get(`/v1/groups/${g.id}/access-code-pools`, bearer());
      expect(all.body.results.map((r: any) => r.access_code_pool.id)).toEqual(pools.map((p) => p.id));
      const p2 = await t.get(`/v1/groups/${g.id}/access-code-pools?page_size=2&page=2`, bearer());
      expect(p2.body.results.map((r: any) => r.access_code_pool.id)).toEqual([pools[2].id]);
      expect(p2.body.previous).not.toBeNull();
      await t.ds.query(`DELETE FROM access_code_pools WHERE id = $1`, [pools[0].uuid]);
      expect((await t.get(`/v1/groups/${g.id}/access-code-pools`, bearer())).body.count).toBe(2);
      expect((await t.delete(`/v1/groups/${g.id}`, basic())).status).toBe(204);
      expect(await t.ds.query(`SELECT 1 FROM group_access_code_pools WHERE access_code_pool_id = ANY($1::uuid[])`, [pools.map((p) => p.uuid)])).toEqual([]);
    });

    it('400 for a missing, malformed, unknown or other-organization pool; nothing is assigned', async () => {
      const g = await group();
      const theirs = await pool(other);
      const cases: [unknown, string][] = [
        [{}, 'access_code_pool'],
        [{ access_code_pool: null }, 'access_code_pool'],
        [{ access_code_pool: 'x' }, 'access_code_pool'],
        [{ access_code_pool: {} }, 'access_code_pool.id'],
        [{ access_code_pool: { id: 1 } }, 'access_code_pool.id'],
        [{ access_code_pool: { id: 'nope' } }, 'access_code_pool'],
        [{ access_code_pool: { id: encodeId('accessCodePool', newUuid()) } }, 'access_code_pool'],
        [{ access_code_pool: { id: theirs.id } }, 'access_code_pool'],
      ];
      for (const [body, field] of cases) {
        const r = await t.post(`/v1/groups/${g.id}/access-code-pools`, body, bearer());
        expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 400]);
        expect(drfFlat(r.body)[field]).toEqual([expect.any(String)]);
      }
      expect(await t.ds.query(`SELECT count(*)::int AS n FROM group_access_code_pools WHERE organization_id = $1`, [orgUuid(org)])).toEqual([{ n: 0 }]);
    });

    it("cross-organization: another org's group is 404 on every pool operation, and its links are unchanged", async () => {
      const theirGroup = await group(other);
      const theirPool = await pool(other);
      await t.post(`/v1/groups/${theirGroup.id}/access-code-pools`, { access_code_pool: { id: theirPool.id } }, { basic: other.api_key });
      const mine = await pool();
      for (const auth of both()) {
        expect((await t.get(`/v1/groups/${theirGroup.id}/access-code-pools`, auth)).status).toBe(404);
        expect((await t.post(`/v1/groups/${theirGroup.id}/access-code-pools`, { access_code_pool: { id: mine.id } }, auth)).status).toBe(404);
        expect((await t.get(`/v1/groups/${theirGroup.id}/access-code-pools/${theirPool.id}`, auth)).status).toBe(404);
        expect((await t.delete(`/v1/groups/${theirGroup.id}/access-code-pools/${theirPool.id}`, auth)).status).toBe(404);
      }
      const theirs = await t.get(`/v1/groups/${theirGroup.id}/access-code-pools`, { basic: other.api_key });
      expect(theirs.body.results.map((r: any) => r.access_code_pool.id)).toEqual([theirPool.id]);
      const g = await group();
      for (const id of [mine.id, theirPool.id, 'nope']) {
        expect((await t.get(`/v1/groups/${g.id}/access-code-pools/${id}`, basic())).status).toBe(404);
      }
    });
  });
});
