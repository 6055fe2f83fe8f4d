import { startTestApp, TestApp } from '../support/app';
import { domainOf, insertDomain, insertSignupField, insertStudent, orgUuid } from '../support/fixtures';
import { verifyPayload } from '../../src/core/crypto/crypto';
import { encodeId } from '../../src/core/ids/ids';
import { LOGIN_TOKEN_PURPOSE } from '../../src/modules/domain-users/domain-users.service';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { drfFlat } from '../support/drf';

/** /v1/domains/{d}/users, invites, signup fields and signup-field values. */
describe('/v1 domain users', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  const modes = () =>
    [
      ['api key', { basic: org.api_key }],
      ['bearer', { token }],
    ] as const;
  const users = (o: CreatedOrg = org, d = o.domain_name) => `/v1/domains/${d}/users`;
  const events = (type: string, o: CreatedOrg = org) => t.ds.query(`SELECT payload FROM outbox_events WHERE organization_id = $1 AND event_type = $2 ORDER BY created_at`, [orgUuid(o), type]);
  let seq = 0;
  /** a signup field of a domain (default: the organization's first), through POST /v1/domains/{domain_name}/signup-fields */
  const signupField = (o: CreatedOrg, attrs: { label?: string; options?: string[]; order?: number; domain?: string } = {}) =>
    insertSignupField(t, o, attrs.domain ?? o.domain_name, { label: attrs.label ?? `Field ${++seq}`, options: attrs.options, order: attrs.order ?? seq });
  const accessCode = async (o: CreatedOrg, code: string, poolName = 'Pool', domainUuid?: string) => {
    const dom = domainUuid ?? (await domainOf(t, o)).uuid;
    const [pool] = await t.ds.query(`INSERT INTO access_code_pools (organization_id, domain_id, name) VALUES ($1, $2, $3) RETURNING id`, [orgUuid(o), dom, poolName]);
    const [ac] = await t.ds.query(`INSERT INTO access_codes (organization_id, domain_id, pool_id, code) VALUES ($1, $2, $3, $4) RETURNING id`, [orgUuid(o), dom, pool.id, code]);
    return { uuid: ac.id as string, id: encodeId('accessCode', ac.id), poolUuid: pool.id as string, poolId: encodeId('accessCodePool', pool.id) };
  };

  beforeAll(async () => {
    t = await startTestApp();
    // The access-code tables belong to another module; create a minimal stand-in when its migration has not landed.
    await t.ownerQuery(`CREATE TABLE IF NOT EXISTS access_code_pools (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), organization_id uuid NOT NULL, domain_id uuid NOT NULL, name text NOT NULL)`);
    await t.ownerQuery(
      `CREATE TABLE IF NOT EXISTS access_codes (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), organization_id uuid NOT NULL, domain_id uuid NOT NULL, pool_id uuid, code text NOT NULL)`,
    );
    org = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  it('create: a new email creates the user and joins the domain (201, login_token, DOMAIN_ENROLLMENT)', async () => {
    for (const [label, auth] of modes()) {
      const email = `New.${label.replace(' ', '')}@Example.test`;
      const before = (await events('DOMAIN_ENROLLMENT')).length;
      const res = await t.post(users(), { user: { email, first_name: 'Grace', last_name: 'Hopper' }, marketing_optin: true }, auth);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        user: { id: expect.stringMatching(/^[0-9a-z]+$/), email: email.toLowerCase(), first_name: 'Grace', last_name: 'Hopper', full_name: 'Grace Hopper' },
        active: true,
        marketing_optin: true,
        enrolled_at: expect.stringMatching(/^\d{4}-/),
        expires_at: null,
        signup_fields: [],
        login_token: expect.any(String),
      });
      const payload = verifyPayload<any>(t.config.APP_SECRET, LOGIN_TOKEN_PURPOSE, res.body.login_token);
      expect(payload).toMatchObject({ sub: expect.any(String), exp: expect.any(Number) });
      expect(encodeId('student', payload.sub)).toBe(res.body.user.id);
      expect(payload.exp).toBeGreaterThan(Date.now() / 1000);
      expect(verifyPayload(t.config.APP_SECRET, LOGIN_TOKEN_PURPOSE, res.body.login_token + 'x')).toBeNull();
      const ev = await events('DOMAIN_ENROLLMENT');
      expect(ev.length).toBe(before + 1);
      // event bodies carry the §6 user members; full_name is an API read member only
      const { full_name: _fullName, ...eventUser } = res.body.user;
      expect(ev[ev.length - 1].payload.user).toEqual(eventUser);
      expect(ev[ev.length - 1].payload).toMatchObject({ user: eventUser, domain: { name: org.domain_name, id: expect.stringMatching(/^[0-9a-z]+$/) } });
    }
  });

  it('create: an existing email (any case) answers the existing user; a member again is 200 without an event', async () => {
    const s = await insertStudent(t, org, { email: 'existing@example.test', first_name: 'Old', last_name: 'Name' });
    const before = (await events('DOMAIN_ENROLLMENT')).length;
    const res = await t.post(users(), { user: { email: 'EXISTING@example.test', first_name: 'New', last_name: 'Other' } }, { token });
    expect(res.status).toBe(201);
    expect(res.body.user).toEqual({ id: s.id, email: 'existing@example.test', first_name: 'Old', last_name: 'Name', full_name: 'Old Name' });
    const again = await t.post(users(), { user: { email: 'existing@EXAMPLE.test' }, active: false }, { basic: org.api_key });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ user: { id: s.id }, active: true, login_token: expect.any(String) });
    expect((await events('DOMAIN_ENROLLMENT')).length).toBe(before + 1);
    const [n] = await t.ds.query(`SELECT count(*)::int AS n FROM users WHERE organization_id = $1 AND lower(email) = 'existing@example.test'`, [orgUuid(org)]);
    expect(n.n).toBe(1);
  });

  it('create: expires_at is ignored on public domains and kept on private ones', async () => {
    const pub = await t.post(users(), { user: { email: 'pub-exp@example.test' }, expires_at: '2030-01-01T00:00:00Z' }, { token });
    expect(pub.status).toBe(201);
    expect(pub.body.expires_at).toBeNull();
    const priv = await insertDomain(t, org, undefined, 'PRIVATE');
    const res = await t.post(users(org, priv.name), { user: { email: 'pub-exp@example.test' }, expires_at: '2030-01-01T00:00:00Z', active: false }, { token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ expires_at: '2030-01-01T00:00:00.000Z', active: false, user: { id: pub.body.user.id } });
  });

  it('create: bad input is 400 with field errors; nothing is written', async () => {
    const before = (await events('DOMAIN_ENROLLMENT')).length;
    const cases: [unknown, string][] = [
      [{}, 'user'],
      [{ user: null }, 'user'],
      [{ user: 'a@b.c' }, 'user'],
      [{ user: {} }, 'user.email'],
      [{ user: { email: 'not-an-email' } }, 'user.email'],
      [{ user: { email: 'ok@example.test', first_name: 'x'.repeat(51) } }, 'user.first_name'],
      [{ user: { email: 'ok@example.test' }, active: 'yes' }, 'active'],
      [{ user: { email: 'ok@example.test', last_name: 'a\u0000b' } }, 'user.last_name'],
      [{ user: { email: 'ok@example.test' }, marketing_optin: 'no' }, 'marketing_optin'],
      [{ user: { email: 'ok@example.test' }, expires_at: 'never' }, 'expires_at'],
    ];
    for (const [body, field] of cases) {
      const res = await t.post(users(), body, { basic: org.api_key });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(drfFlat(res.body)[field]).toEqual(expect.any(Array));
    }
    expect((await events('DOMAIN_ENROLLMENT')).length).toBe(before);
    const [n] = await t.ds.query(`SELECT count(*)::int AS n FROM users WHERE lower(email) = 'ok@example.test'`);
    expect(n.n).toBe(0);
  });

  it('list: every filter of section 4, case-sensitive where the spec says so', async () => {
    const d = await insertDomain(t, org);
    const base = users(org, d.name);
    const mk = async (email: string, first: string, last: string, extra: Record<string, unknown> = {}) =>
      (await t.post(base, { user: { email, first_name: first, last_name: last }, ...extra }, { token })).body;
    const a = await mk('alice@example.test', 'Alice', 'Smith');
    const b = await mk('bob@example.test', 'Bob', 'smith');
    const c = await mk('carol@example.test', 'carol', 'Jones', { active: false });
    const codeA = await accessCode(org, 'CODE-A', 'Spring', d.uuid);
    const codeB = await accessCode(org, 'code-b', 'Autumn', d.uuid);
    await t.patch(`${base}/${a.user.id}`, { access_code: { id: codeA.id } }, { token });
    await t.patch(`${base}/${b.user.id}`, { access_code: { id: codeB.id } }, { token });
    const dept = await signupField(org, { label: 'Department', domain: d.name });
    const team = await signupField(org, { label: 'Team', domain: d.name });
    await t.post(`${base}/${a.user.id}/signup-fields`, { signup_field: { id: dept.id }, value: 'Sales' }, { token });
    await t.post(`${base}/${b.user.id}/signup-fields`, { signup_field: { id: dept.id }, value: 'sales' }, { token });
    await t.post(`${base}/${c.user.id}/signup-fields`, { signup_field: { id: team.id }, value: 'Sales' }, { token });
    const ids = async (q: string, auth: object = { token }) => {
      const res = await t.get(`${base}?${q}`, auth);
      expect(res.status).toBe(200);
      return res.body.results.map((r: any) => r.user.email);
    };
    for (const [, auth] of modes()) expect(await ids('', auth)).toEqual(['alice@example.test', 'bob@example.test', 'carol@example.test']);
    expect(await ids('user__email=ALICE@example.test')).toEqual(['alice@example.test']);
    expect(await ids('user__first_name=Alice')).toEqual(['alice@example.test']);
    expect(await ids('user__first_name=alice')).toEqual([]);
    expect(await ids('user__last_name=Smith')).toEqual(['alice@example.test']);
    expect(await ids('user__last_name=smith')).toEqual(['bob@example.test']);
    expect(await ids('active=false')).toEqual(['carol@example.test']);
    expect(await ids('active=true')).toEqual(['alice@example.test', 'bob@example.test']);
    expect(await ids('access_code__code=CODE-A')).toEqual(['alice@example.test']);
    expect(await ids('access_code__code=code-a')).toEqual([]);
    expect(await ids(`access_code__id=${codeB.id}`)).toEqual(['bob@example.test']);
    expect(await ids(`access_code__pool__id=${codeA.poolId}`)).toEqual(['alice@example.test']);
    expect(await ids('access_code=null')).toEqual(['carol@example.test']);
    expect(await ids(`signup_field_id=${team.id}`)).toEqual(['carol@example.test']);
    expect(await ids('signup_field_label=Department')).toEqual(['alice@example.test', 'bob@example.test']);
    expect(await ids('signup_field_label=department')).toEqual([]);
    expect(await ids('signup_field_value=Sales')).toEqual(['alice@example.test', 'carol@example.test']);
    expect(await ids('signup_field_value=sales')).toEqual(['bob@example.test']);
    expect(await ids('signup_field_label=Department&signup_field_value=Sales')).toEqual(['alice@example.test']);
    expect(await ids('user__last_name=Smith&active=true&access_code__code=CODE-A')).toEqual(['alice@example.test']);
    expect(await ids('access_code__id=garbage')).toEqual([]);
    const withData = await t.get(`${base}?include_signup_field_data=true&user__email=alice@example.test`, { token });
    expect(withData.body.results[0]).toMatchObject({
      access_code: { id: codeA.id, code: 'CODE-A', pool: { id: codeA.poolId, name: 'Spring' } },
      signup_fields: [{ signup_field: { id: dept.id, label: 'Department' }, value: 'Sales' }],
    });
    const without = await t.get(`${base}?user__email=alice@example.test`, { token });
    expect(without.body.results[0].signup_fields).toBeUndefined();
    // a list filter never fails on an odd value: it matches nothing (issue 25 item 7)
    for (const q of ['user__first_name=a%00b', 'signup_field_value=%00', `user__email=${'x'.repeat(300)}`]) {
      expect({ q, body: (await t.get(`${base}?${q}`, { token })).body }).toMatchObject({ q, body: { count: 0, results: [] } });
    }
    for (const q of ['active=maybe', 'access_code=abc', 'include_signup_field_data=2x', 'page=0', 'page_size=-1']) {
      const res = await t.get(`${base}?${q}`, { token });
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
    }
    const paged = await t.get(`${base}?page_size=2`, { token });
    expect(paged.body).toMatchObject({ count: 3, next: expect.stringContaining('page=2'), previous: null });
  });

  it('read, update and partial update: only active, expires_at, access_code (null removes it)', async () => {
    const priv = await insertDomain(t, org, undefined, 'PRIVATE');
    const pub = await insertDomain(t, org);
    const code = await accessCode(org, 'UPD-1', 'Pool', priv.uuid);
    const otherDomainCode = await accessCode(org, 'UPD-2', 'Pool', pub.uuid);
    const created = await t.post(users(org, priv.name), { user: { email: 'upd@example.test' } }, { token });
    const uid = created.body.user.id;
    await t.post(users(org, pub.name), { user: { email: 'upd@example.test' } }, { token });
    for (const [, auth] of modes()) {
      const read = await t.get(`${users(org, priv.name)}/${uid}`, auth);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ user: { id: uid, email: 'upd@example.test' }, active: true, signup_fields: [] });
      expect(read.body).not.toHaveProperty('access_code');
      expect(read.body.login_token).toBeUndefined();
      const patch = await t.patch(
        `${users(org, priv.name)}/${uid}`,
        { active: false, expires_at: '2031-01-01T00:00:00Z', access_code: { id: code.id }, marketing_optin: true, user: { email: 'hijack@example.test' } },
        auth,
      );
      expect(patch.status).toBe(200);
      expect(patch.body).toMatchObject({
        active: false,
        expires_at: '2031-01-01T00:00:00.000Z',
        access_code: { id: code.id, code: 'UPD-1' },
        marketing_optin: null,
        user: { email: 'upd@example.test' },
      });
      const put = await t.request('PUT', `${users(org, priv.name)}/${uid}`, { ...auth, body: { access_code: null, active: true, expires_at: null } });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ active: true, expires_at: null });
      expect(put.body).not.toHaveProperty('access_code');
    }
    const pubPatch = await t.patch(`${users(org, pub.name)}/${uid}`, { expires_at: '2031-01-01T00:00:00Z' }, { token });
    expect(pubPatch.body.expires_at).toBeNull();
    for (const body of [{ access_code: { id: otherDomainCode.id } }, { access_code: { id: 'acc_nope' } }, { access_code: 'x' }, { active: null }, { active: 'no' }, { expires_at: 'x' }]) {
      const res = await t.patch(`${users(org, priv.name)}/${uid}`, body, { token });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const otherOrg = await t.newOrg();
    const theirCode = await accessCode(otherOrg, 'THEIRS');
    const foreignCode = await t.patch(`${users(org, priv.name)}/${uid}`, { access_code: { id: theirCode.id } }, { token });
    expect(foreignCode.status).toBe(400);
    expect(foreignCode.body.access_code).toEqual(expect.any(Array));
    const s = await insertStudent(t, org);
    expect((await t.get(`${users(org, priv.name)}/${s.id}`, { token })).status).toBe(404);
    expect((await t.get(`${users(org, priv.name)}/stu_garbage`, { token })).status).toBe(404);
  });

  it('invites: list, create (send_email default true), read; the user must be on the domain', async () => {
    const created = await t.post(users(), { user: { email: 'invitee@example.test' } }, { token });
    const uid = created.body.user.id;
    for (const [, auth] of modes()) {
      const res = await t.post(`${users()}/${uid}/invites`, {}, auth);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-z]+$/),
        token: expect.any(String),
        sent_at: null,
        used_at: null,
        invite_url: `https://${org.domain_name}/auth/invite/${res.body.token}`,
      });
      const read = await t.get(`${users()}/${uid}/invites/${res.body.id}`, auth);
      // the token is kept only as a hash: shown on create, empty on reads
      expect(read.body).toEqual({ ...res.body, token: '', invite_url: '' });
    }
    const quiet = await t.post(`${users()}/${uid}/invites`, { send_email: false }, { token });
    expect(quiet.status).toBe(201);
    const rows = await t.ds.query(`SELECT send_email FROM domain_user_invites ORDER BY created_at`);
    expect(rows.map((r: any) => r.send_email)).toEqual([true, true, false]);
    for (const [, auth] of modes()) {
      const list = await t.get(`${users()}/${uid}/invites`, auth);
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(3);
    }
    const outsider = await insertStudent(t, org);
    const notMember = await t.post(`${users()}/${outsider.id}/invites`, {}, { token });
    expect(notMember.status).toBe(400);
    expect((await t.post(`${users()}/${uid}/invites`, { send_email: 'yes' }, { token })).status).toBe(400);
    expect((await t.post(`${users()}/stu_nope/invites`, {}, { token })).status).toBe(404);
    expect((await t.get(`${users()}/${uid}/invites/dui_nope`, { token })).status).toBe(404);
  });

  it('signup fields: list; values: list, create (creates or updates), read, bulk (201 + Location, only changes)', async () => {
    const d = await insertDomain(t, org);
    const other = await insertDomain(t, org);
    const f1 = await signupField(org, { label: 'Company', order: 1, domain: d.name });
    const f2 = await signupField(org, { label: 'Size', options: ['S', 'L'], order: 2, domain: d.name });
    const f3 = await signupField(org, { label: 'Elsewhere', domain: other.name });
    const f4 = await signupField(org, { label: 'Role', order: 4, domain: d.name });
    for (const [, auth] of modes()) {
      const list = await t.get(`/v1/domains/${d.name}/signup-fields`, auth);
      expect(list.status).toBe(200);
      const labels = list.body.results.map((r: any) => r.label);
      expect(labels).toEqual(expect.arrayContaining(['Company', 'Size', 'Role']));
      expect(labels).not.toContain('Elsewhere');
      expect(list.body.results.find((r: any) => r.label === 'Size')).toEqual({
        id: f2.id,
        type: 'PICKLIST',
        label: 'Size',
        help_text: '',
        regex_validator: '',
        regex_validator_error_text: '',
        required: false,
        active: true,
        order: 2,
        options: [
          { id: f2.options[0].id, value: 'S' },
          { id: f2.options[1].id, value: 'L' },
        ],
      });
    }
    const u = (await t.post(users(org, d.name), { user: { email: 'fields@example.test' } }, { token })).body.user.id;
    const vals = `${users(org, d.name)}/${u}/signup-fields`;
    const c1 = await t.post(vals, { signup_field: { id: f1.id }, value: 'Acme' }, { basic: org.api_key });
    expect(c1.status).toBe(201);
    expect(c1.body).toEqual({ signup_field: { id: f1.id, label: 'Company' }, value: 'Acme' });
    const c2 = await t.post(vals, { signup_field: { id: f1.id }, value: 'Acme Corp' }, { token });
    expect(c2.status).toBe(201);
    expect(c2.body.value).toBe('Acme Corp');
    for (const [, auth] of modes()) {
      const read = await t.get(`${vals}/${f1.id}`, auth);
      expect(read.body).toEqual({ signup_field: { id: f1.id, label: 'Company' }, value: 'Acme Corp' });
      const listed = await t.get(vals, auth);
      expect(listed.status).toBe(200);
      expect(listed.body.results).toEqual([{ signup_field: { id: f1.id, label: 'Company' }, value: 'Acme Corp' }]);
    }
    expect((await t.get(`${vals}/${f4.id}`, { token })).status).toBe(404);
    const nul = await t.post(vals, { signup_field: { id: f1.id }, value: 'a\u0000' }, { token });
    expect(nul.status).toBe(400);
    for (const body of [
      { signup_field: { id: f3.id }, value: 'x' },
      { signup_field: { id: 'sfd_nope' }, value: 'x' },
      { signup_field: { id: f2.id }, value: 'XL' },
      { signup_field: { id: f1.id }, value: '' },
      { signup_field: { id: f1.id } },
      { value: 'x' },
    ]) {
      const res = await t.post(vals, body, { token });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const bulk = await t.post(
      `${users(org, d.name)}/${u}/signup-fields-bulk`,
      {
        signup_fields: [
          { id: f1.id, value: 'Acme Corp' },
          { id: f2.id, value: 'L' },
          { id: f4.id, value: 'Dev' },
        ],
      },
      { token },
    );
    expect(bulk.status).toBe(201);
    expect(bulk.headers.get('location')).toBe(`${t.baseUrl}/v1/domains/${d.name}/users/${u}/signup-fields`);
    expect(bulk.body.signup_fields).toEqual(
      expect.arrayContaining([
        { signup_field: { id: f2.id, label: 'Size' }, value: 'L' },
        { signup_field: { id: f4.id, label: 'Role' }, value: 'Dev' },
      ]),
    );
    expect(bulk.body.signup_fields).toHaveLength(2);
    const bulk2 = await t.post(
      `${users(org, d.name)}/${u}/signup-fields-bulk`,
      {
        signup_fields: [
          { id: f2.id, value: 'S' },
          { id: f4.id, value: 'Dev' },
        ],
      },
      { basic: org.api_key },
    );
    expect(bulk2.status).toBe(201);
    expect(bulk2.body.signup_fields).toEqual([{ signup_field: { id: f2.id, label: 'Size' }, value: 'S' }]);
    const all = await t.get(vals, { token });
    expect(all.body.results).toEqual([
      { signup_field: { id: f1.id, label: 'Company' }, value: 'Acme Corp' },
      { signup_field: { id: f2.id, label: 'Size' }, value: 'S' },
      { signup_field: { id: f4.id, label: 'Role' }, value: 'Dev' },
    ]);
    const bulkUrl = `${users(org, d.name)}/${u}/signup-fields-bulk`;
    for (const body of [
      {},
      { signup_fields: 'x' },
      { signup_fields: [{ id: f1.id }] },
      {
        signup_fields: [
          { id: f1.id, value: 'a' },
          { id: f1.id, value: 'b' },
        ],
      },
      { signup_fields: [{ id: f3.id, value: 'a' }] },
    ]) {
      const res = await t.post(bulkUrl, body, { token });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const outsider = await insertStudent(t, org);
    expect((await t.get(`${users(org, d.name)}/${outsider.id}/signup-fields`, { token })).status).toBe(404);
  });

  it('bulk-create (OpenAPI-only): all-or-nothing validation, 200 (the published status), new members get DOMAIN_ENROLLMENT', async () => {
    const d = await insertDomain(t, org, undefined, 'PRIVATE');
    const url = `${users(org, d.name)}/bulk-create`;
    await t.post(users(org, d.name), { user: { email: 'bulk-existing@example.test', first_name: 'Keep' } }, { token });
    const before = (await events('DOMAIN_ENROLLMENT')).length;
    for (const body of [
      {},
      { users: [] },
      { users: 'x' },
      { users: [{ email: 'ok1@example.test' }, { email: 'bad' }] },
      { users: [{ email: 'dup@example.test' }, { email: 'DUP@example.test' }] },
      { users: [{ email: 'ok2@example.test', expires_at: 'x' }] },
      { users: Array.from({ length: 1001 }, (_, i) => ({ email: `many${i}@example.test` })) },
    ]) {
      const res = await t.post(url, body, { token });
      expect({ status: res.status }).toEqual({ status: 400 });
    }
    const [none] = await t.ds.query(`SELECT count(*)::int AS n FROM users WHERE email IN ('ok1@example.test', 'ok2@example.test', 'dup@example.test')`);
    expect(none.n).toBe(0);
    for (const [label, auth] of modes()) {
      const tag = label.replace(' ', '');
      const res = await t.post(
        url,
        {
          users: [
            { email: `Bulk-A-${tag}@example.test`, first_name: 'A', expires_at: '2030-01-01T00:00:00Z' },
            { email: `bulk-b-${tag}@example.test`, active: false },
            { email: 'BULK-existing@example.test', first_name: 'Changed' },
          ],
        },
        auth,
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ joined: 2, already_members: 1 });
      const list = await t.get(`${users(org, d.name)}?user__email=bulk-a-${tag}@example.test`, auth);
      expect(list.body.results[0]).toMatchObject({ user: { email: `bulk-a-${tag}@example.test`, first_name: 'A' }, active: true, expires_at: '2030-01-01T00:00:00.000Z' });
    }
    expect((await events('DOMAIN_ENROLLMENT')).length).toBe(before + 4);
    const keep = await t.get(`${users(org, d.name)}?user__email=bulk-existing@example.test`, { token });
    expect(keep.body.results[0].user.first_name).toBe('Keep');
    expect((await t.post(url, { users: [{ email: 'x@example.test' }] }, { token: await t.tokenFor(org, ['students:read']) })).status).toBe(403);
  });

  it('401, 403 without the family scope', async () => {
    const uid = (await t.post(users(), { user: { email: 'scoped@example.test' } }, { token })).body.user.id;
    expect((await t.get(users())).status).toBe(401);
    expect((await t.get(`/v1/domains/${org.domain_name}/signup-fields`)).status).toBe(401);
    const none = await t.tokenFor(org, ['domains:read', 'enrollments:read']);
    const studentsRo = await t.tokenFor(org, ['students:read']);
    const fieldsRo = await t.tokenFor(org, ['signup-fields:read']);
    expect((await t.get(users(), { token: none })).status).toBe(403);
    expect((await t.get(users(), { token: studentsRo })).status).toBe(200);
    expect((await t.get(`${users()}/${uid}`, { token: none })).status).toBe(403);
    expect((await t.post(users(), { user: { email: 'x@example.test' } }, { token: studentsRo })).status).toBe(403);
    expect((await t.patch(`${users()}/${uid}`, { active: false }, { token: studentsRo })).status).toBe(403);
    expect((await t.request('PUT', `${users()}/${uid}`, { token: studentsRo, body: { active: false } })).status).toBe(403);
    expect((await t.get(`${users()}/${uid}/invites`, { token: none })).status).toBe(403);
    expect((await t.post(`${users()}/${uid}/invites`, {}, { token: studentsRo })).status).toBe(403);
    expect((await t.get(`/v1/domains/${org.domain_name}/signup-fields`, { token: studentsRo })).status).toBe(403);
    expect((await t.get(`/v1/domains/${org.domain_name}/signup-fields`, { token: fieldsRo })).status).toBe(200);
    expect((await t.get(`${users()}/${uid}/signup-fields`, { token: fieldsRo })).status).toBe(200);
    expect((await t.post(`${users()}/${uid}/signup-fields`, { signup_field: { id: 'x' }, value: 'v' }, { token: fieldsRo })).status).toBe(403);
    expect((await t.post(`${users()}/${uid}/signup-fields-bulk`, { signup_fields: [] }, { token: fieldsRo })).status).toBe(403);
  });

  it('cross-organization: domains, users, invites and signup fields of another org are 404 or 400, and unchanged', async () => {
    const other = await t.newOrg();
    const theirs = await t.post(users(other), { user: { email: 'shared@example.test' } }, { basic: other.api_key });
    const theirField = await signupField(other, { label: 'Theirs' });
    // same email in my org is a different user
    const mine = await t.post(users(), { user: { email: 'shared@example.test' } }, { token });
    expect(mine.status).toBe(201);
    expect(mine.body.user.id).not.toBe(theirs.body.user.id);
    expect((await t.get(users(other), { token })).status).toBe(404);
    expect((await t.post(users(other), { user: { email: 'sneak@example.test' } }, { token })).status).toBe(404);
    expect((await t.get(`/v1/domains/${other.domain_name}/signup-fields`, { token })).status).toBe(404);
    expect((await t.get(`${users()}/${theirs.body.user.id}`, { token })).status).toBe(404);
    expect((await t.patch(`${users()}/${theirs.body.user.id}`, { active: false }, { token })).status).toBe(404);
    expect((await t.post(`${users()}/${theirs.body.user.id}/invites`, {}, { token })).status).toBe(404);
    expect((await t.get(`${users()}/${theirs.body.user.id}/signup-fields`, { token })).status).toBe(404);
    const list = await t.get(`${users()}?user__email=shared@example.test`, { token });
    expect(list.body.results.map((r: any) => r.user.id)).toEqual([mine.body.user.id]);
    const fields = await t.get(`/v1/domains/${org.domain_name}/signup-fields`, { token });
    expect(fields.body.results.map((r: any) => r.id)).not.toContain(theirField.id);
    const useTheirField = await t.post(`${users()}/${mine.body.user.id}/signup-fields`, { signup_field: { id: theirField.id }, value: 'x' }, { token });
    expect(useTheirField.status).toBe(400);
    const [row] = await t.ds.query(`SELECT active FROM domain_users WHERE user_id = $1`, [
      (await t.ds.query(`SELECT id FROM users WHERE organization_id = $1 AND email = 'shared@example.test'`, [orgUuid(other)]))[0].id,
    ]);
    expect(row.active).toBe(true);
    expect((await t.get(`/v1/domains/${other.domain_name}/users/${theirs.body.user.id}`, { basic: other.api_key })).status).toBe(200);
  });
});
