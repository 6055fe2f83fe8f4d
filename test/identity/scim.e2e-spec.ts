import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, domainOf, orgUuid } from '../support/fixtures';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCHOP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** Okta's documented SCIM 2.0 request bodies (developer.okta.com, "SCIM 2.0 protocol reference"). */
const okta = {
  user: (i: number) => ({
    schemas: [USER],
    userName: `okta.user${i}@okta.local`,
    name: { givenName: 'Test', familyName: `User${i}` },
    emails: [{ primary: true, value: `okta.user${i}@okta.local`, type: 'work' }],
    displayName: `Test User${i}`,
    locale: 'en-US',
    externalId: `00ujl29u0le5T6Aj10h${i}`,
    groups: [],
    password: '1mz050nq',
    active: true,
  }),
  deactivate: { schemas: [PATCHOP], Operations: [{ op: 'replace', value: { active: false } }] },
  reactivate: { schemas: [PATCHOP], Operations: [{ op: 'replace', value: { active: true } }] },
  group: (name: string) => ({ schemas: [GROUP], displayName: name, members: [] }),
  addMembers: (ids: string[]) => ({ schemas: [PATCHOP], Operations: [{ op: 'add', path: 'members', value: ids.map((value) => ({ value, display: value })) }] }),
  removeMember: (id: string) => ({ schemas: [PATCHOP], Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }] }),
  rename: (id: string, name: string) => ({ schemas: [PATCHOP], Operations: [{ op: 'replace', value: { id, displayName: name } }] }),
};

/** Microsoft Entra's documented provisioning requests (learn.microsoft.com, "Tutorial: Develop and plan provisioning for a SCIM endpoint"). */
const entra = {
  user: (i: number) => ({
    schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
    externalId: `0a21f0f2-8d2a-4f8e-bf98-7363c4ae${String(i).padStart(4, '0')}`,
    userName: `Test_User_${i}@testuser.com`,
    active: true,
    emails: [{ primary: true, type: 'work', value: `Test_User_${i}@testuser.com` }],
    meta: { resourceType: 'User' },
    name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
    roles: [],
  }),
  disable: { schemas: [PATCHOP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] },
  enable: { schemas: [PATCHOP], Operations: [{ op: 'Replace', path: 'active', value: 'True' }] },
  update: (email: string) => ({
    schemas: [PATCHOP],
    Operations: [
      { op: 'Replace', path: 'emails[type eq "work"].value', value: email },
      { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
    ],
  }),
  group: (name: string) => ({ schemas: [GROUP], externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', displayName: name, meta: { resourceType: 'Group' } }),
  add: (ids: string[]) => ({ schemas: [PATCHOP], Operations: [{ op: 'Add', path: 'members', value: ids.map((value) => ({ $ref: null, value })) }] }),
  remove: (ids: string[]) => ({ schemas: [PATCHOP], Operations: [{ op: 'Remove', path: 'members', value: ids.map((value) => ({ $ref: null, value })) }] }),
  renameGroup: (name: string) => ({ schemas: [PATCHOP], Operations: [{ op: 'Replace', path: 'displayName', value: name }] }),
};

async function inChunks<T, R>(items: T[], size: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map((x, j) => fn(x, i + j)))));
  return out;
}

describe('SCIM 2.0 provisioning', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let scim: string;
  let foreignScim: string;

  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 0 });
    org = await t.newOrg('Provisioned');
    other = await t.newOrg('Other');
    // a client for the identity provider, made as any other (POST /v2/clients/), its token obtained as any other
    const admin = await t.tokenFor(org);
    const client = await t.post('/v2/clients/', { name: 'Okta', scope_codenames: ['scim:write'] }, { token: admin });
    expect(client.status).toBe(201);
    const tok = await t.post('/v2/auth/token', { client_id: client.body.data.attributes.client_id, client_secret: client.body.data.attributes.client_secret });
    expect(tok.status).toBe(200);
    scim = tok.body.access_token;
    foreignScim = await t.tokenFor(other, ['scim:write']);
  });
  afterAll(() => t.close());

  const call = (method: string, path: string, body?: unknown, token = scim) =>
    t.request(method, `/scim/v2${path}`, { token, ...(body !== undefined ? { raw: { contentType: 'application/scim+json', data: JSON.stringify(body) } } : {}) });

  it('serves discovery', async () => {
    const spc = await call('GET', '/ServiceProviderConfig');
    expect(spc.status).toBe(200);
    expect(spc.headers.get('content-type')).toContain('application/scim+json');
    expect(spc.body).toMatchObject({ patch: { supported: true }, filter: { supported: true }, bulk: { supported: false } });
    const types = await call('GET', '/ResourceTypes');
    expect(types.body.Resources.map((r: any) => r.id)).toEqual(['User', 'Group']);
    const schemas = await call('GET', '/Schemas');
    expect(schemas.body.Resources.map((r: any) => r.id)).toEqual([USER, GROUP]);
    expect((await call('GET', `/Schemas/${USER}`)).body.name).toBe('User');
  });

  it('provisions 200 users and 10 groups in the Okta and Entra shapes, deactivates and reactivates some, and the same people read on /v1 and /v2', async () => {
    const created = await inChunks(
      Array.from({ length: 200 }, (_, i) => i),
      10,
      async (i) => {
        const res = await call('POST', '/Users', i % 2 === 0 ? okta.user(i) : entra.user(i));
        expect(res.status).toBe(201);
        return res.body;
      },
    );
    expect(created[0]).toMatchObject({ schemas: [USER], userName: 'okta.user0@okta.local', externalId: '00ujl29u0le5T6Aj10h0', active: true, name: { givenName: 'Test', familyName: 'User0' } });
    expect(created[1]).toMatchObject({ userName: 'test_user_1@testuser.com', externalId: entra.user(1).externalId, active: true });
    expect(JSON.stringify(created[0])).not.toContain('1mz050nq'); // the password Okta sends is not taken
    const ids = created.map((u) => u.id as string);

    // Okta and Entra look a user up by userName / externalId before creating it
    const byName = await call('GET', `/Users?filter=${encodeURIComponent('userName eq "OKTA.USER4@okta.local"')}&startIndex=1&count=100`);
    expect(byName.body).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expect(byName.body.Resources[0].id).toBe(ids[4]);
    const byExternal = await call('GET', `/Users?filter=${encodeURIComponent(`externalId eq "${entra.user(7).externalId}"`)}`);
    expect(byExternal.body.Resources.map((u: any) => u.id)).toEqual([ids[7]]);
    // a duplicate is a 409 uniqueness
    const dup = await call('POST', '/Users', okta.user(0));
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ schemas: [ERROR], status: '409', scimType: 'uniqueness' });

    // 10 groups, 20 members each, half made as Okta makes them, half as Entra
    const groups: string[] = [];
    for (let g = 0; g < 10; g++) {
      const res = await call('POST', '/Groups', g < 5 ? okta.group(`Okta group ${g}`) : entra.group(`Entra group ${g}`));
      expect(res.status).toBe(201);
      groups.push(res.body.id);
      const members = ids.slice(g * 20, g * 20 + 20);
      const patched = await call('PATCH', `/Groups/${res.body.id}`, g < 5 ? okta.addMembers(members) : entra.add(members));
      expect(patched.status).toBe(204);
    }
    const g0 = await call('GET', `/Groups/${groups[0]}`);
    expect(g0.body.members).toHaveLength(20);
    expect((await call('PATCH', `/Groups/${groups[0]}`, okta.removeMember(ids[0]))).status).toBe(204);
    expect((await call('PATCH', `/Groups/${groups[9]}`, entra.remove([ids[180], ids[181]]))).status).toBe(204);
    expect((await call('PATCH', `/Groups/${groups[1]}`, okta.rename(groups[1], 'Renamed by Okta'))).status).toBe(204);
    expect((await call('PATCH', `/Groups/${groups[8]}`, entra.renameGroup('Renamed by Entra'))).status).toBe(204);
    const filtered = await call('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Renamed by Entra"')}&excludedAttributes=members`);
    expect(filtered.body.Resources).toHaveLength(1);
    expect(filtered.body.Resources[0].members).toBeUndefined();
    const withMember = await call('GET', `/Groups?filter=${encodeURIComponent(`members.value eq "${ids[185]}"`)}`);
    expect(withMember.body.Resources.map((g: any) => g.id)).toEqual([groups[9]]);

    // deactivate 20 (Okta PATCH, Entra PATCH, DELETE), reactivate 5; nothing is erased
    const off = ids.slice(0, 20);
    await inChunks(off, 10, async (id, i) => {
      const res = i % 3 === 0 ? await call('DELETE', `/Users/${id}`) : await call('PATCH', `/Users/${id}`, i % 3 === 1 ? okta.deactivate : entra.disable);
      expect([200, 204]).toContain(res.status);
    });
    for (const id of off.slice(0, 5)) {
      const res = await call('PATCH', `/Users/${id}`, id === off[0] ? okta.reactivate : entra.enable);
      expect(res.status).toBe(200);
      expect(res.body.active).toBe(true);
    }
    const inactive = await call('GET', `/Users?filter=${encodeURIComponent('active eq false')}`);
    expect(inactive.body.totalResults).toBe(15);
    const updated = await call('PATCH', `/Users/${ids[21]}`, entra.update('new.address@testuser.com'));
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ userName: 'new.address@testuser.com', name: { familyName: 'updatedFamilyName' } });

    // the same people on /v2 and /v1: the whole list in few statements (no statement per person)
    const v2 = await countQueries(async () => {
      const all: any[] = [];
      let next = '/v2/students/?page[size]=100';
      const token = await t.tokenFor(org, ['students:read']);
      while (next) {
        const res = await t.get(next, { token });
        expect(res.status).toBe(200);
        all.push(...res.body.data);
        next = res.body.links.next ? res.body.links.next.replace(/^https?:\/\/[^/]+/, '') : '';
      }
      return all;
    });
    expect(v2.result).toHaveLength(200);
    expect(v2.count).toBeLessThan(15);
    const v2ById = new Map(v2.result.map((s: any) => [s.id, s]));
    expect(v2ById.get(ids[10])!.attributes.is_inactive).toBe(true);
    expect(v2ById.get(ids[2])!.attributes.is_inactive).toBe(false); // reactivated
    expect(v2ById.get(ids[21])!.attributes.email).toBe('new.address@testuser.com');
    // /v1 users are the students registered on a domain (CONVENTIONS §10): registering the provisioned one finds the same row
    const domain = await domainOf(t, org);
    const reg = await t.post(`/v1/domains/${domain.name}/users`, { user: { email: 'okta.user10@okta.local' } }, { basic: org.api_key });
    expect([200, 201]).toContain(reg.status);
    const v1 = await t.get(`/v1/users/${ids[10]}`, { basic: org.api_key });
    expect(v1.status).toBe(200);
    expect(v1.body.user).toMatchObject({ id: ids[10], email: 'okta.user10@okta.local', first_name: 'Test', last_name: 'User10', full_name: 'Test User10' });
    expect(v1.body.inactive_at).toEqual(expect.any(String)); // deactivated through SCIM, still there
    const scimPages = await countQueries(async () => {
      for (let start = 1; start <= 200; start += 100) {
        const res = await call('GET', `/Users?startIndex=${start}&count=100`);
        expect(res.body.Resources).toHaveLength(100);
      }
      const gl = await call('GET', '/Groups?count=10');
      expect(gl.body.Resources.reduce((n: number, g: any) => n + g.members.length, 0)).toBe(197);
    });
    expect(scimPages.count).toBeLessThan(20);
  });

  it('answers errors in the SCIM shape and keeps organizations apart', async () => {
    const list = await call('GET', '/Users?count=1');
    const someone = list.body.Resources[0].id;
    const noToken = await t.request('GET', '/scim/v2/Users');
    expect(noToken.status).toBe(401);
    expect(noToken.body).toMatchObject({ schemas: [ERROR], status: '401' });
    const readOnly = await t.tokenFor(org, ['students:read']);
    const forbidden = await call('GET', '/Users', undefined, readOnly);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.status).toBe('403');
    const badFilter = await call('GET', `/Users?filter=${encodeURIComponent('userName xx "a"')}`);
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.scimType).toBe('invalidFilter');
    const unknownAttr = await call('GET', `/Users?filter=${encodeURIComponent('nickName eq "a"')}`);
    expect(unknownAttr.body.scimType).toBe('invalidFilter');
    const noName = await call('POST', '/Users', { schemas: [USER], name: { givenName: 'x' } });
    expect(noName.status).toBe(400);
    expect(noName.body.scimType).toBe('invalidValue');
    const badPatch = await call('PATCH', `/Users/${someone}`, { schemas: [PATCHOP], Operations: [{ op: 'move', path: 'active' }] });
    expect(badPatch.status).toBe(400);
    expect((await call('GET', '/Users/stu0000000000000000000000000')).status).toBe(404);

    // the other organization sees none of it, and cannot change it
    expect((await call('GET', `/Users/${someone}`, undefined, foreignScim)).status).toBe(404);
    expect((await call('PATCH', `/Users/${someone}`, okta.deactivate, foreignScim)).status).toBe(404);
    expect((await call('DELETE', `/Users/${someone}`, undefined, foreignScim)).status).toBe(404);
    const theirs = await call('GET', '/Users', undefined, foreignScim);
    expect(theirs.body.totalResults).toBe(0);
    const g = await call('POST', '/Groups', okta.group('Theirs'), foreignScim);
    expect((await call('PATCH', `/Groups/${g.body.id}`, okta.addMembers([someone]), foreignScim)).status).toBe(204);
    expect((await call('GET', `/Groups/${g.body.id}`, undefined, foreignScim)).body.members).toEqual([]);
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM group_memberships WHERE organization_id = $1`, [orgUuid(other)]);
    expect(n).toBe(0);
  });

  it('records the provisioning writes in the audit log with the client as actor', async () => {
    const reader = await t.tokenFor(org, ['audit:read']);
    const res = await t.get('/v2/audit-events/?page[size]=100', { token: reader });
    expect(res.status).toBe(200);
    const provisioning = res.body.data.filter((e: any) => e.attributes.operation === 'POST /scim/v2/Users');
    expect(provisioning.length).toBeGreaterThan(90);
    expect(provisioning[0].attributes).toMatchObject({ actor: { type: 'client' }, status: 201 });
    expect(provisioning[0].attributes.resource_ids.result[0]).toMatch(/^stu/);
    const stored = JSON.stringify(await t.ds.query(`SELECT * FROM audit_events WHERE organization_id = $1`, [orgUuid(org)]));
    expect(stored).not.toContain('okta.local');
  });
});
