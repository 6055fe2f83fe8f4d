import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { authorizeCode, pkce, REDIRECT, registerClient } from '../auth/oauth-helpers';

const PASSWORD = 'correct horse battery';

/** The audit log (CONVENTIONS §19): every administrative write with its actor, operation, ids, time and address; nothing secret or personal. */
describe('audit log', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;

  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 0 });
    org = await t.newOrg('Audited', { adminEmail: 'owner@audit.test', adminPassword: PASSWORD });
    other = await t.newOrg('Elsewhere');
  });
  afterAll(() => t.close());

  const events = async (token: string, query = '') => {
    const res = await t.get(`/v2/audit-events/${query}`, { token });
    expect(res.status).toBe(200);
    return res.body;
  };

  it('records writes by a client, an API key and an administrator, and nothing for a refused write', async () => {
    const client = await t.tokenFor(org);
    const created = await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: 'learner@audit.test', first_name: 'Lea', last_name: 'Rner' } }] }, { token: client });
    expect(created.status).toBe(200);
    const studentId = created.body.data[0].id;
    const bad = await t.post('/v2/students/', { data: 'nope' }, { token: client });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    const cat = await t.post('/v1/group-categories', { name: 'Cat' }, { basic: org.api_key });
    expect(cat.status).toBe(201);
    const secretClient = await t.post('/v2/clients/', { name: 'Reporting', scope_codenames: ['students:read'] }, { token: client });
    expect(secretClient.status).toBe(201);

    // an administrator's write through an app they approved
    const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'student-groups:write' });
    const { verifier, challenge } = pkce();
    const code = await authorizeCode(t, { clientId: reg.client_id, challenge, scope: 'student-groups:write', email: 'owner@audit.test', password: PASSWORD });
    const tok = await t.post('/v2/auth/token', { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: reg.client_id });
    const group = await t.post('/v2/groups/', { data: [{ type: 'groups', attributes: { name: 'Admins group' } }] }, { token: tok.body.access_token });
    expect(group.status).toBe(200);

    const reader = await t.tokenFor(org, ['audit:read']);
    const page = await events(reader, '?page[size]=100');
    const ops = page.data.map((e: any) => e.attributes.operation);
    expect(ops).toEqual(['POST /v2/students', 'POST /v1/group-categories', 'POST /v2/clients', 'POST /v2/groups']);
    const [student, category, clientEvent, groupEvent] = page.data;
    expect(student.id).toMatch(/^audt[0-9a-z]+$/);
    expect(student.attributes).toMatchObject({ method: 'POST', status: 200, actor: { type: 'client', id: expect.stringMatching(/^cli/) }, ip_address: '127.0.0.1' });
    expect(student.attributes.resource_ids.result).toEqual([studentId]);
    expect(new Date(student.attributes.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(category.attributes.actor).toEqual({ type: 'api_key', id: null });
    expect(category.attributes.resource_ids.result).toEqual([cat.body.id]);
    expect(groupEvent.attributes.actor).toEqual({ type: 'administrator', id: expect.stringMatching(/^adm/) });
    expect(groupEvent.attributes.client_id).toMatch(/^cli/);

    // no secrets and no personal data: the whole log's rows as stored
    const rows = await t.ds.query(`SELECT * FROM audit_events WHERE organization_id = $1`, [orgUuid(org)]);
    const stored = JSON.stringify(rows);
    const secret = secretClient.body.data.attributes.client_secret;
    expect(secret).toBeTruthy();
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain('learner@audit.test');
    expect(stored).not.toContain('Lea');
    expect(stored).not.toContain(client);
    expect(JSON.stringify(clientEvent)).not.toContain(secret);

    // read one; another organization sees none of it; without audit:read, 403
    const one = await t.get(`/v2/audit-events/${student.id}`, { token: reader });
    expect(one.status).toBe(200);
    expect(one.body.data.id).toBe(student.id);
    const foreign = await t.tokenFor(other, ['audit:read']);
    expect((await events(foreign)).data).toEqual([]);
    expect((await t.get(`/v2/audit-events/${student.id}`, { token: foreign })).status).toBe(404);
    expect((await t.get('/v2/audit-events/', { token: await t.tokenFor(org, ['students:read']) })).status).toBe(403);
  });

  it('a dry run (nothing written) records nothing', async () => {
    const o = await t.newOrg('Dry');
    const client = await t.tokenFor(o);
    const dry = await t.post('/v2/students/?dry_run=true', { data: [{ type: 'students', attributes: { email: 'dry@audit.test', first_name: 'D', last_name: 'R' } }] }, { token: client });
    expect(dry.status).toBe(200);
    expect(dry.headers.get('dry-run')).toBe('true');
    expect((await events(client)).data).toEqual([]);
    const real = await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: 'dry@audit.test', first_name: 'D', last_name: 'R' } }] }, { token: client });
    expect(real.status).toBe(200);
    expect((await events(client)).data).toHaveLength(1);
  });

  it('pages by cursor, filters by actor and time, and is served by its index', async () => {
    const reader = await t.tokenFor(org, ['audit:read']);
    const first = await events(reader, '?page[size]=2');
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const second = await t.get(first.links.next.replace(t.baseUrl, '').replace(/^http:\/\/[^/]+/, ''), { token: reader });
    expect(second.status).toBe(200);
    expect(second.body.data[0].id).not.toBe(first.data[1].id);
    const tampered = await t.get(`/v2/audit-events/?page[cursor]=${first.next_cursor}x`, { token: reader });
    expect(tampered.status).toBe(400);

    const all = await events(reader, '?page[size]=100');
    const adminId = all.data.find((e: any) => e.attributes.actor.type === 'administrator').attributes.actor.id;
    const byAdmin = await events(reader, `?filter[actor.id]=${adminId}`);
    expect(byAdmin.data.map((e: any) => e.attributes.operation)).toEqual(['POST /v2/groups']);
    const future = await events(reader, `?filter[created_gte]=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`);
    expect(future.data).toEqual([]);
    expect((await t.get('/v2/audit-events/?filter[created_gte]=yesterday', { token: reader })).status).toBe(422);

    await t.ownerQuery('SET enable_seqscan = off');
    const plan = await t.ownerQuery(`EXPLAIN SELECT id FROM audit_events WHERE organization_id = $1 ORDER BY created_at, id LIMIT 26`, [orgUuid(org)]);
    expect(JSON.stringify(plan)).toContain('audit_events_org_created_idx');
  });
});
