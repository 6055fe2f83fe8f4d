import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { BUILTIN_ROLE_SCOPES } from '../../src/modules/organizations/admin-roles';
import { AdminRolesService } from '../../src/modules/organizations/admin-roles.service';
import { decodeId } from '../../src/core/ids/ids';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { authorizeCode, pkce, REDIRECT, registerClient, submitAuthorize } from '../auth/oauth-helpers';
import { spawn } from 'node:child_process';

jest.setTimeout(180_000);

/** The real command (`npm run --silent cli -- ...`) against the test app's database: its one JSON line. */
function cli(databaseUrl: string, args: string[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'cli', '--', ...args], {
      cwd: `${__dirname}/../..`,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`cli ${args[0]} exited ${code}: ${err}`))));
  });
}

const PASSWORD = 'correct horse battery';

/** Administrator roles (CONVENTIONS §19): /v1/admins, /v1/admin-roles, the CLI, and the code-flow tokens they bound. */
describe('administrator roles', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  const owner = { email: 'owner@roles.test', password: PASSWORD };

  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 0 });
    org = await t.newOrg('Roles', { adminEmail: owner.email, adminPassword: owner.password });
    other = await t.newOrg('Other', { adminEmail: 'owner@other.test', adminPassword: PASSWORD });
  });
  afterAll(() => t.close());

  const apiKey = () => ({ basic: org.api_key });

  async function codeFlow(email: string, scope: string) {
    const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope });
    const { verifier, challenge } = pkce();
    const code = await authorizeCode(t, { clientId: reg.client_id, challenge, scope, email, password: PASSWORD });
    const res = await t.post('/v2/auth/token', { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: reg.client_id });
    expect(res.status).toBe(200);
    return { ...(res.body as { access_token: string; scope: string; refresh_token: string }), clientId: reg.client_id };
  }

  const newStudent = (token: string, email: string) => t.post('/v2/students/', { data: [{ type: 'students', attributes: { email, first_name: 'A', last_name: 'B' } }] }, { token });

  it('lists the built-in roles, creates administrators with a role, and refuses what is not a role', async () => {
    const roles = await t.get('/v1/admin-roles', apiKey());
    expect(roles.status).toBe(200);
    expect(roles.body.results.map((r: any) => r.name)).toEqual(['owner', 'admin', 'content-editor', 'reporter']);
    expect(roles.body.results[3].scopes.every((s: string) => s.endsWith(':read'))).toBe(true);

    const created = await t.post('/v1/admins', { email: 'Reporter@Roles.test', role: 'reporter', password: PASSWORD }, apiKey());
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^adm[0-9a-z]+$/), email: 'reporter@roles.test', role: 'reporter', created_at: expect.any(String), last_sign_in_at: null });
    expect(JSON.stringify(created.body)).not.toContain('password');

    const bad = await t.post('/v1/admins', { email: 'x@roles.test', role: 'emperor' }, apiKey());
    expect(bad.status).toBe(400);
    expect(bad.body.role).toBeDefined();
    const dup = await t.post('/v1/admins', { email: 'reporter@roles.test', role: 'reporter' }, apiKey());
    expect(dup.status).toBe(400);
    expect(dup.body.email).toBeDefined();

    const list = await t.get('/v1/admins', apiKey());
    expect(list.body.count).toBe(2);
    // another organization sees none of them
    const foreign = await t.get(`/v1/admins/${created.body.id}`, { basic: other.api_key });
    expect(foreign.status).toBe(404);
  });

  it('a reporter who approves an app gives it read scopes only: a write gets 403', async () => {
    const tok = await codeFlow('reporter@roles.test', 'students:read students:write');
    expect(tok.scope).toBe('students:read');
    expect((await t.get('/v2/students/', { token: tok.access_token })).status).toBe(200);
    const write = await newStudent(tok.access_token, 'w1@roles.test');
    expect(write.status).toBe(403);

    // the owner approving the same request gives both
    const ownerTok = await codeFlow(owner.email, 'students:read students:write');
    expect(ownerTok.scope).toBe('students:read students:write');
    expect((await newStudent(ownerTok.access_token, 'w2@roles.test')).status).toBe(200);

    const me = await t.get('/v1/admins', apiKey());
    expect(me.body.results.find((a: any) => a.email === 'reporter@roles.test').last_sign_in_at).toEqual(expect.any(String));
  });

  it('a role that grants none of the scopes asked for is refused on the consent page', async () => {
    const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'students:write' });
    const { challenge } = pkce();
    const res = await submitAuthorize(t, { clientId: reg.client_id, challenge, scope: 'students:write', email: 'reporter@roles.test', password: PASSWORD });
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get('location')!);
    expect(loc.searchParams.get('error')).toBe('access_denied');
    expect(loc.searchParams.get('code')).toBeNull();
  });

  it('custom roles: a shrunken role narrows at the next refresh; a removed administrator stops working', async () => {
    const role = await t.post('/v1/admin-roles', { name: 'support', scopes: ['students:read', 'students:write'] }, apiKey());
    expect(role.status).toBe(201);
    expect(role.body).toMatchObject({ name: 'support', scopes: ['students:read', 'students:write'], builtin: false });
    expect((await t.post('/v1/admin-roles', { name: 'owner', scopes: [] }, apiKey())).status).toBe(400);
    expect((await t.post('/v1/admin-roles', { name: 'x', scopes: ['nope:read'] }, apiKey())).status).toBe(400);

    const adm = await t.post('/v1/admins', { email: 'support@roles.test', role: 'support', password: PASSWORD }, apiKey());
    expect(adm.status).toBe(201);
    const tok = await codeFlow('support@roles.test', 'students:read students:write');
    expect(tok.scope).toBe('students:read students:write');

    // the helper other code calls (the MCP server): the administrator's allowed scopes now
    const svc = t.app.get(AdminRolesService);
    expect(await svc.adminAllowedScopes(orgUuid(org), decodeId('admin', adm.body.id)!)).toEqual(['students:read', 'students:write']);

    expect((await t.patch('/v1/admin-roles/support', { scopes: ['students:read'] }, apiKey())).status).toBe(200);
    expect((await t.delete('/v1/admin-roles/support', apiKey())).status).toBe(409); // held by an administrator
    const refreshed = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: tok.refresh_token, client_id: tok.clientId });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.scope).toBe('students:read');
    expect((await newStudent(refreshed.body.access_token, 'w3@roles.test')).status).toBe(403);

    // removing the administrator: their refresh is refused and their live access tokens stop working
    expect((await t.delete(`/v1/admins/${adm.body.id}`, apiKey())).status).toBe(204);
    expect((await t.get('/v2/students/', { token: refreshed.body.access_token })).status).toBe(401);
    const again = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: tok.clientId });
    expect(again.status).toBe(400);
    expect((await t.delete('/v1/admin-roles/support', apiKey())).status).toBe(204);
  });

  it('the last owner cannot be removed or demoted; a caller cannot grant more than it holds', async () => {
    const list = await t.get('/v1/admins', apiKey());
    const ownerId = list.body.results.find((a: any) => a.email === owner.email).id;
    const demote = await t.patch(`/v1/admins/${ownerId}`, { role: 'admin' }, apiKey());
    expect(demote.status).toBe(409);
    expect((await t.delete(`/v1/admins/${ownerId}`, apiKey())).status).toBe(409);
    expect((await t.get(`/v1/admins/${ownerId}`, apiKey())).body.role).toBe('owner');

    const limited = await t.tokenFor(org, ['admin-users:read', 'admin-users:write', 'students:read']);
    const res = await t.post('/v1/admins', { email: 'boss@roles.test', role: 'owner', password: PASSWORD }, { token: limited });
    expect(res.status).toBe(403);
    const reporterOnly = await t.tokenFor(org, ['admin-users:read']);
    expect((await t.post('/v1/admins', { email: 'r2@roles.test', role: 'reporter' }, { token: reporterOnly })).status).toBe(403);
    expect(BUILTIN_ROLE_SCOPES['content-editor']).toContain('courses:write');
    expect(BUILTIN_ROLE_SCOPES['content-editor']).not.toContain('students:write');
  });

  it('the CLI has the same commands', async () => {
    const db = t.config.DATABASE_URL;
    const runCli = (args: string[]) => cli(db, args);
    const orgId = org.organization_id;
    const created = (await runCli(['create-role', '--org', orgId, '--name', 'auditor', '--scope', 'audit:read'])) as any;
    expect(created.role).toMatchObject({ name: 'auditor', scopes: ['audit:read'] });
    const adm = (await runCli(['create-admin', '--org', orgId, '--email', 'cli@roles.test', '--password', PASSWORD, '--role', 'auditor'])) as any;
    expect(adm.role).toBe('auditor');
    const changed = (await runCli(['set-admin-role', '--org', orgId, '--email', 'cli@roles.test', '--role', 'reporter'])) as any;
    expect(changed.admin.role).toBe('reporter');
    const listed = (await runCli(['list-admins', '--org', orgId])) as any;
    expect(listed.admins.map((a: any) => a.email)).toContain('cli@roles.test');
    await runCli(['remove-admin', '--org', orgId, '--email', 'cli@roles.test']);
    await runCli(['delete-role', '--org', orgId, '--name', 'auditor']);
    const roles = (await runCli(['list-roles', '--org', orgId])) as any;
    expect(roles.roles.map((r: any) => r.name)).toEqual(['owner', 'admin', 'content-editor', 'reporter']);
  });
});
