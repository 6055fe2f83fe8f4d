import { randomUUID } from 'node:crypto';
import * as jwt from 'jsonwebtoken';
import { KeysService } from '../../src/core/auth/keys.service';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { authorizeCode, decodeJwt, pkce, REDIRECT, registerClient } from './oauth-helpers';

/** Issue 8, security review: operations on other clients, revocation, insufficient_scope, aud. */

const PASSWORD = 'correct horse battery';

describe('client operations: the target client must hold no scope the calling token lacks', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let admin: string;
  let limited: string;
  const LIMITED = ['clients:read', 'clients:write', 'students:read'];

  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 0 });
    org = await t.newOrg();
    admin = await t.tokenFor(org);
    limited = await t.tokenFor(org, LIMITED);
  });
  afterAll(() => t.close());

  /** A client made by the full-access token, holding students:write, which `limited` lacks. */
  async function stronger() {
    const res = await t.post('/v2/clients/', { name: 'stronger', scope_codenames: ['students:read', 'students:write'] }, { token: admin });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; attributes: { client_id: string; client_secret: string } };
  }
  const tokenOf = (a: { client_id: string; client_secret: string }) => t.post('/v2/auth/token', { client_id: a.client_id, client_secret: a.client_secret });

  function expectScopeDenied(res: { status: number; headers: Headers; body: any }) {
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
    expect(res.body.errors[0]).toMatchObject({ status: '403', code: 'forbidden' });
    expect(res.body.errors[0].detail).toContain('students:write');
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="students:write"');
  }

  async function unchanged(id: string, secretHolder: { client_id: string; client_secret: string }) {
    const read = await t.get(`/v2/clients/${id}`, { token: admin });
    expect(read.body.data.attributes).toMatchObject({ name: 'stronger', scopes: ['students:read', 'students:write'], is_active: true, ip_allowlist: [] });
    const tok = await tokenOf(secretHolder);
    expect(tok.status).toBe(200);
    expect(tok.body.scope).toBe('students:read students:write');
  }

  it('update (any member, ip_allowlist included) of a stronger client is 403 and changes nothing', async () => {
    const target = await stronger();
    for (const body of [{ name: 'renamed' }, { ip_allowlist: ['10.9.9.9'] }, { scope_codenames: ['students:read'] }, { description: 'x' }]) {
      expectScopeDenied(await t.patch(`/v2/clients/${target.id}`, body, { token: limited }));
    }
    await unchanged(target.id, target.attributes);
  });

  it('rotate-secret of a stronger client is 403: no new secret, the old one still works', async () => {
    const target = await stronger();
    const res = await t.post(`/v2/clients/${target.id}/rotate-secret`, undefined, { token: limited });
    expectScopeDenied(res);
    expect(res.text).not.toContain('client_secret');
    await unchanged(target.id, target.attributes);
  });

  it('deactivating a stronger client is 403: it stays active and its tokens keep working', async () => {
    const target = await stronger();
    const tok = await tokenOf(target.attributes);
    expectScopeDenied(await t.delete(`/v2/clients/${target.id}`, { token: limited }));
    await unchanged(target.id, target.attributes);
    expect((await t.get('/v2/students/', { token: tok.body.access_token })).status).toBe(200);
  });

  it("the caller's own (bootstrap, all-scope) client is out of reach of a narrowed token too", async () => {
    const list = await t.get('/v2/clients/?page[size]=100', { token: admin });
    const bootstrap = list.body.data.find((c: any) => c.attributes.client_id === org.client_id);
    expect(bootstrap).toBeDefined();
    expect((await t.post(`/v2/clients/${bootstrap.id}/rotate-secret`, undefined, { token: limited })).status).toBe(403);
    expect((await t.patch(`/v2/clients/${bootstrap.id}`, { ip_allowlist: ['10.0.0.1'] }, { token: limited })).status).toBe(403);
    expect((await t.delete(`/v2/clients/${bootstrap.id}`, { token: limited })).status).toBe(403);
    expect((await t.post('/v2/auth/token', { client_id: org.client_id, client_secret: org.client_secret })).status).toBe(200);
  });

  it('a client whose scopes the token holds can be updated, rotated and deactivated (the control)', async () => {
    const made = await t.post('/v2/clients/', { name: 'weaker', scope_codenames: ['students:read'] }, { token: admin });
    const id = made.body.data.id;
    expect((await t.patch(`/v2/clients/${id}`, { name: 'weaker 2', ip_allowlist: ['127.0.0.1'] }, { token: limited })).status).toBe(200);
    const rotated = await t.post(`/v2/clients/${id}/rotate-secret`, undefined, { token: limited });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.attributes.client_secret).toEqual(expect.any(String));
    expect((await t.delete(`/v2/clients/${id}`, { token: limited })).status).toBe(204);
    // a client with no scopes at all is a subset of anything
    const empty = await t.post('/v2/clients/', { name: 'empty' }, { token: admin });
    expect((await t.post(`/v2/clients/${empty.body.data.id}/rotate-secret`, undefined, { token: limited })).status).toBe(200);
  });

  it('the scope check comes after the 404: an unknown id is still 404', async () => {
    expect((await t.post('/v2/clients/garbage/rotate-secret', undefined, { token: limited })).status).toBe(404);
    expect((await t.delete('/v2/clients/garbage', { token: limited })).status).toBe(404);
  });
});

describe('POST /v2/auth/revoke authenticates the client (RFC 7009 2.1)', () => {
  let t: TestApp;
  const admin = { email: 'revoke-admin@example.test', password: PASSWORD };

  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 0 });
    await t.newOrg('Revoke org', { adminEmail: admin.email, adminPassword: admin.password });
  });
  afterAll(() => t.close());

  /** Register a client and take it through the code flow: its access and refresh tokens. */
  async function clientWithTokens(extra: Record<string, unknown> = {}) {
    const reg = await registerClient(t, { scope: 'clients:read', ...extra });
    const { verifier, challenge } = pkce();
    const code = await authorizeCode(t, { clientId: reg.client_id, challenge, ...admin });
    const body: Record<string, string> = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: reg.client_id };
    if (reg.client_secret) body.client_secret = reg.client_secret;
    const tok = await t.post('/v2/auth/token', body);
    expect(tok.status).toBe(200);
    return { reg, access: tok.body.access_token as string, refresh: tok.body.refresh_token as string };
  }
  const works = async (access: string) => (await t.get('/v2/scopes/', { token: access })).status === 200;
  const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}` });

  it('a wrong secret (body or Basic) or no client authentication is 401 invalid_client, and the token keeps working', async () => {
    const c = await clientWithTokens();
    const wrong = await t.post('/v2/auth/revoke', { token: c.refresh, client_id: c.reg.client_id, client_secret: 'wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    const wrongBasic = await t.post('/v2/auth/revoke', { token: c.refresh }, { headers: basic(c.reg.client_id, 'wrong') });
    expect(wrongBasic.status).toBe(401);
    expect(wrongBasic.body.error).toBe('invalid_client');
    expect(wrongBasic.headers.get('www-authenticate')).toMatch(/^Basic /);
    const noSecret = await t.post('/v2/auth/revoke', { token: c.refresh, client_id: c.reg.client_id });
    expect(noSecret.status).toBe(401);
    // a secret without a client_id is credentials sent, and they do not authenticate anyone
    const secretAlone = await t.post('/v2/auth/revoke', { token: c.refresh, client_secret: c.reg.client_secret });
    expect(secretAlone.status).toBe(401);
    expect(secretAlone.body.error).toBe('invalid_client');
    const unknownClient = await t.post('/v2/auth/revoke', { token: c.refresh, client_id: 'cp_nope', client_secret: 'x' });
    expect(unknownClient.status).toBe(401);
    for (const token of [c.access]) {
      expect((await t.post('/v2/auth/revoke', { token, client_id: c.reg.client_id, client_secret: 'wrong' })).status).toBe(401);
    }
    expect(await works(c.access)).toBe(true);
    const refreshed = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.reg.client_id, client_secret: c.reg.client_secret });
    expect(refreshed.status).toBe(200);
  });

  it("another client's valid credentials: 200, but neither its refresh nor its access token is revoked", async () => {
    const victim = await clientWithTokens();
    const other = await clientWithTokens();
    for (const token of [victim.refresh, victim.access]) {
      const res = await t.post('/v2/auth/revoke', { token, client_id: other.reg.client_id, client_secret: other.reg.client_secret });
      expect(res.status).toBe(200);
      const viaBasic = await t.post('/v2/auth/revoke', { token }, { headers: basic(other.reg.client_id, other.reg.client_secret!) });
      expect(viaBasic.status).toBe(200);
    }
    expect(await works(victim.access)).toBe(true);
    const refreshed = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: victim.refresh, client_id: victim.reg.client_id, client_secret: victim.reg.client_secret });
    expect(refreshed.status).toBe(200);
    // and the other client's own tokens are untouched as well
    expect(await works(other.access)).toBe(true);
  });

  it('the right credentials revoke the family: the refresh token is refused and so is the access token', async () => {
    const c = await clientWithTokens();
    const res = await t.post('/v2/auth/revoke', { token: c.refresh, token_type_hint: 'refresh_token', client_id: c.reg.client_id, client_secret: c.reg.client_secret });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const refreshed = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.reg.client_id, client_secret: c.reg.client_secret });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
    expect(await works(c.access)).toBe(false);

    // an access token, with Basic credentials
    const d = await clientWithTokens();
    const byAccess = await t.post('/v2/auth/revoke', { token: d.access, token_type_hint: 'access_token' }, { headers: basic(d.reg.client_id, d.reg.client_secret!) });
    expect(byAccess.status).toBe(200);
    expect(await works(d.access)).toBe(false);
    const again = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: d.refresh, client_id: d.reg.client_id, client_secret: d.reg.client_secret });
    expect(again.status).toBe(400);
  });

  it('a public client identifies itself with client_id alone; it cannot revoke another public client’s token', async () => {
    const mine = await clientWithTokens({ token_endpoint_auth_method: 'none' });
    const theirs = await clientWithTokens({ token_endpoint_auth_method: 'none' });
    const cross = await t.post('/v2/auth/revoke', { token: theirs.refresh, client_id: mine.reg.client_id });
    expect(cross.status).toBe(200);
    expect(await works(theirs.access)).toBe(true);
    // a public client sending a secret fails authentication
    expect((await t.post('/v2/auth/revoke', { token: mine.refresh, client_id: mine.reg.client_id, client_secret: 'x' })).status).toBe(401);
    expect(await works(mine.access)).toBe(true);
    const own = await t.request('POST', '/v2/auth/revoke', { form: { token: mine.refresh, client_id: mine.reg.client_id } });
    expect(own.status).toBe(200);
    expect(await works(mine.access)).toBe(false);
    expect((await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: mine.refresh })).status).toBe(400);
  });

  // issue 25 item 3, CONVENTIONS §3: the published body alone revokes the token it names
  it('the published body alone ({token, token_type_hint}, no client credentials) revokes a refresh token: its family is gone', async () => {
    const c = await clientWithTokens();
    const res = await t.post('/v2/auth/revoke', { token: c.refresh, token_type_hint: 'refresh_token' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const refreshed = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.reg.client_id, client_secret: c.reg.client_secret });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
    expect(await works(c.access)).toBe(false);
  });

  it('the published body alone revokes an access token (form-encoded too), and a public client’s token as well', async () => {
    const c = await clientWithTokens();
    const res = await t.request('POST', '/v2/auth/revoke', { form: { token: c.access, token_type_hint: 'access_token' } });
    expect(res.status).toBe(200);
    expect(await works(c.access)).toBe(false);
    expect((await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.reg.client_id, client_secret: c.reg.client_secret })).status).toBe(400);
    const pub = await clientWithTokens({ token_endpoint_auth_method: 'none' });
    expect((await t.post('/v2/auth/revoke', { token: pub.refresh })).status).toBe(200);
    expect(await works(pub.access)).toBe(false);
  });

  it('the published body alone: 200 for unknown or malformed tokens; a client-credentials access token is revoked (issue 25 item 3)', async () => {
    for (const token of ['not-a-token', 'cpr_unknown', 'a.b.c']) {
      const res = await t.post('/v2/auth/revoke', { token, token_type_hint: 'refresh_token' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
    }
    const org = await t.newOrg('Revoke cc');
    const cc = await t.tokenFor(org);
    expect(await works(cc)).toBe(true);
    expect((await t.post('/v2/auth/revoke', { token: cc, token_type_hint: 'access_token' })).status).toBe(200);
    expect(await works(cc)).toBe(false);
  });

  it('unknown tokens are 200 for an authenticated client; bad input is 400 and never a 500', async () => {
    const c = await clientWithTokens({ token_endpoint_auth_method: 'none' });
    expect((await t.post('/v2/auth/revoke', { token: 'not-a-token', client_id: c.reg.client_id })).status).toBe(200);
    expect((await t.post('/v2/auth/revoke', { token: 'x', client_id: 5 })).status).toBe(400);
    expect((await t.post('/v2/auth/revoke', { client_id: c.reg.client_id })).status).toBe(400);
    expect((await t.post('/v2/auth/revoke', [1])).status).toBe(400);
  });
});

describe('insufficient_scope challenges and the aud claim', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 0 });
    org = await t.newOrg();
    token = await t.tokenFor(org, ['clients:read']);
  });
  afterAll(() => t.close());

  function forge(claims: Record<string, unknown>) {
    const { payload } = decodeJwt(token);
    const real = t.app.get(KeysService).signingKey();
    const merged: Record<string, unknown> = { ...payload, jti: randomUUID(), ...claims };
    for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
    return jwt.sign(merged, real.privatePem, { algorithm: 'ES256', keyid: real.kid }); // iat: as given, else now
  }

  it('403 for a missing scope carries WWW-Authenticate: Bearer error="insufficient_scope" with the scopes, on /v2 and /v1', async () => {
    const v2 = await t.get('/v2/students/', { token });
    expect(v2.status).toBe(403);
    expect(v2.body.errors[0].code).toBe('forbidden');
    const challenge = v2.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer error="insufficient_scope", scope="[^"]+"$/);
    expect(challenge).toContain('students:read');
    const v1 = await t.get('/v1/courses', { token });
    expect(v1.status).toBe(403);
    expect(v1.body.detail).toEqual(expect.any(String));
    expect(v1.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="[^"]*courses:read[^"]*"$/);
  });

  it('401 carries a Bearer challenge on both interfaces', async () => {
    for (const path of ['/v2/scopes/', '/v1/courses']) {
      const res = await t.get(path, { headers: { authorization: 'Bearer nope' } });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      const none = await t.get(path);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  /** The API base URL: the issuer (PUBLIC_URL, else http://localhost:PORT). */
  const base = () => decodeJwt(token).payload.iss as string;

  it('tokens carry aud = the API base URL (the issuer)', async () => {
    const { payload } = decodeJwt(token);
    expect(payload.aud).toEqual(expect.any(String));
    expect(payload.aud).toMatch(/^https?:\/\//);
    expect(payload.aud).toBe(payload.iss);
  });

  it('a token signed by our key for another audience is 401; one whose aud list includes ours passes', async () => {
    expect((await t.get('/v2/scopes/', { token: forge({}) })).status).toBe(200); // control
    for (const aud of ['https://other.example', ['https://other.example'], `${base()}/`, '']) {
      const res = await t.get('/v2/scopes/', { token: forge({ aud }) });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
    expect((await t.get('/v2/scopes/', { token: forge({ aud: ['https://other.example', base()] }) })).status).toBe(200);
  });

  it('a token without aud passes only if issued before this process started (older versions issued those)', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await t.get('/v2/scopes/', { token: forge({ aud: undefined, iat: now - 3600, exp: now + 600 }) })).status).toBe(200);
    const fresh = await t.get('/v2/scopes/', { token: forge({ aud: undefined, iat: now + 2, exp: now + 600 }) });
    expect(fresh.status).toBe(401);
  });
});
