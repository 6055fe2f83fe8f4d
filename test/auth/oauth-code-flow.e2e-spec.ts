import { createPublicKey, verify } from 'node:crypto';
import Redis from 'ioredis';
import { sha256 } from '../../src/core/crypto/crypto';
import { decodeId } from '../../src/core/ids/ids';
import { SCOPE_CODENAMES } from '../../src/core/auth/scopes';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { issuerUrl } from '../../src/core/config/config';
import { SIGNIN_FAILURE_LIMIT } from '../../src/modules/auth/authorize.service';
import { authorizeCode, authorizeQuery, cookieOf, decodeJwt, hiddenFields, pkce, REDIRECT, registerClient, submitAuthorize } from './oauth-helpers';

const PASSWORD = 'correct horse battery';

describe('OAuth authorization code flow with PKCE', () => {
  let t: TestApp;
  let orgA: CreatedOrg;
  let orgB: CreatedOrg;
  const adminA = { email: 'admin-a@example.test', password: PASSWORD };
  const adminB = { email: 'admin-b@example.test', password: PASSWORD };

  beforeAll(async () => {
    // No auth cache, so revocations take effect at once.
    t = await startTestApp({ AUTH_CACHE_SECONDS: 0 });
    orgA = await t.newOrg('Org A', { adminEmail: adminA.email, adminPassword: adminA.password });
    orgB = await t.newOrg('Org B', { adminEmail: adminB.email, adminPassword: adminB.password });
  });
  afterAll(() => t.close());

  const exchange = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}, opts: { basic?: string; form?: boolean } = {}) => {
    const body = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId, ...extra };
    const headers: Record<string, string> = opts.basic ? { authorization: `Basic ${Buffer.from(opts.basic).toString('base64')}` } : {};
    return opts.form ? t.request('POST', '/v2/auth/token', { form: body, headers }) : t.post('/v2/auth/token', body, { headers });
  };

  async function verifyWithJwks(token: string) {
    const jwks = await t.get('/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    const [h, p, s] = token.split('.');
    const { header } = decodeJwt(token);
    const jwk = jwks.body.keys.find((k: any) => k.kid === header.kid);
    expect(jwk).toBeDefined();
    expect(jwk.d).toBeUndefined(); // never the private half
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    return verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  }

  it('public client: register, sign in and consent, exchange the code with the verifier, call the API', async () => {
    const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read students:read' });
    expect(reg.client_secret).toBeUndefined();
    const { verifier, challenge } = pkce();

    const page = await t.get(
      authorizeQuery({ response_type: 'code', client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope: 'clients:read', state: 'xyz' }),
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.text).toContain('Test App');
    expect(page.text).toContain('clients:read');
    expect(page.text).not.toContain('students:read'); // only what was asked
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly/);

    const form = { ...hiddenFields(page.text), email: adminA.email, password: adminA.password, action: 'approve' };
    const approved = await t.request('POST', '/v2/oauth/authorize', { form, headers: { cookie: cookieOf(page) } });
    expect(approved.status).toBe(302);
    expect(approved.headers.get('cache-control')).toBe('no-store');
    const location = new URL(approved.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('xyz');
    const code = location.searchParams.get('code')!;
    expect(code).toBeTruthy();

    // Stored hashed, bound to the admin's organization, expiring within AUTH_CODE_TTL (<= 10 min).
    const [row] = await t.ds.query(`SELECT code_hash, organization_id, scope, EXTRACT(EPOCH FROM expires_at - now()) AS ttl FROM auth_codes WHERE code_hash = $1`, [sha256(code)]);
    expect(row.organization_id).toBe(decodeId('organization', orgA.organization_id));
    expect(row.scope).toBe('clients:read');
    expect(Number(row.ttl)).toBeGreaterThan(t.config.AUTH_CODE_TTL - 5);
    expect(Number(row.ttl)).toBeLessThanOrEqual(600);
    const raw = await t.ds.query(`SELECT count(*)::int AS n FROM auth_codes WHERE encode(code_hash, 'escape') = $1`, [code]);
    expect(raw[0].n).toBe(0);

    const tok = await exchange(reg.client_id, code, verifier);
    expect(tok.status).toBe(200);
    expect(tok.headers.get('cache-control')).toBe('no-store');
    expect(tok.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'clients:read' });
    expect(tok.body.refresh_token).toEqual(expect.any(String));

    const { header, payload } = decodeJwt(tok.body.access_token);
    expect(header.alg).toBe('ES256');
    expect(header.kid).toEqual(expect.any(String));
    expect(payload).toMatchObject({
      iss: issuerUrl(t.config),
      client_id: reg.client_id,
      org: decodeId('organization', orgA.organization_id),
      scope: 'clients:read',
    });
    expect(payload.sub).toMatch(/^[0-9a-z]+$/);
    expect(payload.exp - payload.iat).toBe(3600);
    expect(payload.jti).toEqual(expect.any(String));
    expect(await verifyWithJwks(tok.body.access_token)).toBe(true);
    // tampering breaks the independent verification
    const [h, p, s] = tok.body.access_token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payload, scope: 'clients:write' })).toString('base64url');
    expect(await verifyWithJwks(`${h}.${forged}.${s}`)).toBe(false);
    expect(p).toBeTruthy();

    const scopes = await t.get('/v2/scopes/', { token: tok.body.access_token });
    expect(scopes.status).toBe(200);
    // the token is the organization's: it sees the now-bound client in org A's client list
    const list = await t.get('/v2/clients/', { token: tok.body.access_token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: any) => c.attributes.client_id)).toContain(reg.client_id);
    const listB = await t.get('/v2/clients/', { token: await t.tokenFor(orgB) });
    expect(listB.body.data.map((c: any) => c.attributes.client_id)).not.toContain(reg.client_id);
  });

  it('confidential client: the secret is required at the token endpoint (body or Basic), JSON or form', async () => {
    const reg = await registerClient(t, { token_endpoint_auth_method: 'client_secret_basic', scope: 'clients:read' });
    expect(reg.client_secret).toEqual(expect.any(String));
    const { verifier, challenge } = pkce();
    const code = await authorizeCode(t, { clientId: reg.client_id, challenge, ...adminA });
    const noSecret = await exchange(reg.client_id, code, verifier);
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
    const wrong = await exchange(reg.client_id, code, verifier, {}, { basic: `${reg.client_id}:nope` });
    expect(wrong.status).toBe(401);
    const ok = await exchange(reg.client_id, code, verifier, {}, { basic: `${reg.client_id}:${reg.client_secret}`, form: true });
    expect(ok.status).toBe(200);
    expect((await t.get('/v2/scopes/', { token: ok.body.access_token })).status).toBe(200);

    const second = pkce();
    const code2 = await authorizeCode(t, { clientId: reg.client_id, challenge: second.challenge, ...adminA });
    const inBody = await exchange(reg.client_id, code2, second.verifier, { client_secret: reg.client_secret! });
    expect(inBody.status).toBe(200);
  });

  it('no scope asked: the registered scope, or every scope when none was registered', async () => {
    const narrow = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read courses:read' });
    let p = pkce();
    let code = await authorizeCode(t, { clientId: narrow.client_id, challenge: p.challenge, ...adminA });
    let tok = await exchange(narrow.client_id, code, p.verifier);
    expect(tok.body.scope.split(' ').sort()).toEqual(['clients:read', 'courses:read']);

    const wide = await registerClient(t, { token_endpoint_auth_method: 'none' });
    p = pkce();
    code = await authorizeCode(t, { clientId: wide.client_id, challenge: p.challenge, ...adminA });
    tok = await exchange(wide.client_id, code, p.verifier);
    expect(tok.body.scope.split(' ').sort()).toEqual([...SCOPE_CODENAMES].sort());
  });

  it('refresh rotates the refresh token; reusing a rotated one revokes the whole family', async () => {
    const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read' });
    const { verifier, challenge } = pkce();
    const code = await authorizeCode(t, { clientId: reg.client_id, challenge, ...adminA });
    const first = await exchange(reg.client_id, code, verifier);
    const r1 = first.body.refresh_token;

    const second = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: r1 });
    expect(second.status).toBe(200);
    const r2 = second.body.refresh_token;
    expect(r2).not.toBe(r1);
    expect((await t.get('/v2/scopes/', { token: second.body.access_token })).status).toBe(200);

    // r2 is used, so r1 is no longer "just rotated": presenting it again is reuse, grace window or not
    const third = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: r2 });
    expect(third.status).toBe(200);
    const r3 = third.body.refresh_token;
    const reuse = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: r1 });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    // the newest refresh token and the family's access tokens stop working
    const newest = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: r3 });
    expect(newest.status).toBe(400);
    expect(newest.body.error).toBe('invalid_grant');
    for (const token of [first.body.access_token, second.body.access_token, third.body.access_token]) {
      const res = await t.get('/v2/scopes/', { token });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('invalid_token');
    }
  });

  it('a confidential client must authenticate to refresh; a client registered without refresh_token gets none', async () => {
    const reg = await registerClient(t, { scope: 'clients:read' });
    let p = pkce();
    const code = await authorizeCode(t, { clientId: reg.client_id, challenge: p.challenge, ...adminA });
    const tok = await exchange(reg.client_id, code, p.verifier, { client_secret: reg.client_secret! });
    expect(tok.status).toBe(200);
    const refresh = (extra: Record<string, string>) => t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: tok.body.refresh_token, ...extra });
    const noAuth = await refresh({});
    expect(noAuth.status).toBe(401);
    expect(noAuth.body.error).toBe('invalid_client');
    expect((await refresh({ client_id: reg.client_id, client_secret: 'wrong' })).status).toBe(401);
    expect((await refresh({ client_id: reg.client_id, client_secret: reg.client_secret! })).status).toBe(200);

    const codeOnly = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read', grant_types: ['authorization_code'] });
    p = pkce();
    const code2 = await authorizeCode(t, { clientId: codeOnly.client_id, challenge: p.challenge, ...adminA });
    const tok2 = await exchange(codeOnly.client_id, code2, p.verifier);
    expect(tok2.status).toBe(200);
    expect(tok2.body.refresh_token).toBeUndefined();
    expect((await t.get('/v2/scopes/', { token: tok2.body.access_token })).status).toBe(200);
  });

  // issue 25 item 15c: a public client sends no client_secret; one that does is refused, not let through on the grant alone
  it('a public client that sends a client_secret is 401 invalid_client at refresh and at the code exchange; the tokens stay usable', async () => {
    const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read' });
    let p = pkce();
    let code = await authorizeCode(t, { clientId: reg.client_id, challenge: p.challenge, ...adminA });
    const bogusExchange = await exchange(reg.client_id, code, p.verifier, { client_secret: 'bogus' });
    expect(bogusExchange.status).toBe(401);
    expect(bogusExchange.body.error).toBe('invalid_client');
    p = pkce();
    code = await authorizeCode(t, { clientId: reg.client_id, challenge: p.challenge, ...adminA });
    const tok = await exchange(reg.client_id, code, p.verifier);
    expect(tok.status).toBe(200);
    for (const extra of [{ client_id: reg.client_id, client_secret: 'bogus' }, { client_secret: 'bogus' }]) {
      const bogus = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: tok.body.refresh_token, ...extra });
      expect(bogus.status).toBe(401);
      expect(bogus.body.error).toBe('invalid_client');
    }
    const basic = await t.request('POST', '/v2/auth/token', {
      form: { grant_type: 'refresh_token', refresh_token: tok.body.refresh_token },
      headers: { authorization: `Basic ${Buffer.from(`${reg.client_id}:bogus`).toString('base64')}` },
    });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toMatch(/^Basic /);
    // the refused attempts rotated nothing: the refresh token works, without a secret
    const ok = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: tok.body.refresh_token, client_id: reg.client_id });
    expect(ok.status).toBe(200);
  });

  it('a second use of a code fails and revokes the tokens the first use issued', async () => {
    const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read' });
    const { verifier, challenge } = pkce();
    const code = await authorizeCode(t, { clientId: reg.client_id, challenge, ...adminA });
    const first = await exchange(reg.client_id, code, verifier);
    expect(first.status).toBe(200);
    expect((await t.get('/v2/scopes/', { token: first.body.access_token })).status).toBe(200);
    const again = await exchange(reg.client_id, code, verifier);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expect((await t.get('/v2/scopes/', { token: first.body.access_token })).status).toBe(401);
    const refresh = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    expect(refresh.status).toBe(400);
  });

  it('an expired code, a wrong verifier or another redirect_uri is invalid_grant', async () => {
    const other = 'https://app.example.test/cb';
    const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read', redirect_uris: [REDIRECT, other] });

    let p = pkce();
    let code = await authorizeCode(t, { clientId: reg.client_id, challenge: p.challenge, ...adminA });
    const wrongVerifier = await exchange(reg.client_id, code, pkce().verifier);
    expect(wrongVerifier.status).toBe(400);
    expect(wrongVerifier.body.error).toBe('invalid_grant');
    const wrongRedirect = await exchange(reg.client_id, code, p.verifier, { redirect_uri: other });
    expect(wrongRedirect.status).toBe(400);
    expect(wrongRedirect.body.error).toBe('invalid_grant');
    // neither consumed the code
    expect((await exchange(reg.client_id, code, p.verifier)).status).toBe(200);

    p = pkce();
    code = await authorizeCode(t, { clientId: reg.client_id, challenge: p.challenge, ...adminA });
    await t.ds.query(`UPDATE auth_codes SET expires_at = now() - interval '1 second' WHERE code_hash = $1`, [sha256(code)]);
    const expired = await exchange(reg.client_id, code, p.verifier);
    expect(expired.status).toBe(400);
    expect(expired.body.error).toBe('invalid_grant');

    // a code of another client
    const reg2 = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read' });
    p = pkce();
    code = await authorizeCode(t, { clientId: reg.client_id, challenge: p.challenge, ...adminA });
    const stolen = await exchange(reg2.client_id, code, p.verifier);
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_grant');
  });

  it('revoke (RFC 7009): 200 for unknown tokens; a revoked refresh token is refused afterwards', async () => {
    const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read' });
    const unknown = await t.post('/v2/auth/revoke', { token: 'not-a-token', client_id: reg.client_id });
    expect(unknown.status).toBe(200);
    const { verifier, challenge } = pkce();
    const code = await authorizeCode(t, { clientId: reg.client_id, challenge, ...adminA });
    const tok = await exchange(reg.client_id, code, verifier);
    const revoked = await t.request('POST', '/v2/auth/revoke', { form: { token: tok.body.refresh_token, token_type_hint: 'refresh_token', client_id: reg.client_id } });
    expect(revoked.status).toBe(200);
    const refresh = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: tok.body.refresh_token });
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
    expect((await t.get('/v2/scopes/', { token: tok.body.access_token })).status).toBe(401);
    const missing = await t.post('/v2/auth/revoke', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
  });
});

describe('OAuth authorization endpoint rules', () => {
  let t: TestApp;
  let orgA: CreatedOrg;
  const adminA = { email: 'rules-a@example.test', password: PASSWORD };
  const adminB = { email: 'rules-b@example.test', password: PASSWORD };
  let client: { client_id: string };
  const { challenge } = pkce();

  beforeAll(async () => {
    t = await startTestApp();
    orgA = await t.newOrg('Rules A', { adminEmail: adminA.email, adminPassword: adminA.password });
    await t.newOrg('Rules B', { adminEmail: adminB.email, adminPassword: adminB.password });
    client = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read students:read' });
  });
  afterAll(() => t.close());

  const base = () => ({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'clients:read',
    state: 's1',
  });

  const expectRedirectError = (res: { status: number; headers: Headers }, error: string) => {
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get('location')!);
    expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
    expect(loc.searchParams.get('error')).toBe(error);
    expect(loc.searchParams.get('state')).toBe('s1');
    expect(loc.searchParams.get('code')).toBeNull();
  };

  const expectErrorPage = (res: { status: number; headers: Headers; text: string }) => {
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  };

  it('an unknown client or a redirect_uri that is not registered shows an error page and never redirects', async () => {
    expectErrorPage(await t.get(authorizeQuery({ ...base(), client_id: 'cp_unknown' })));
    expectErrorPage(await t.get(authorizeQuery({ ...base(), client_id: undefined })));
    expectErrorPage(await t.get(authorizeQuery({ ...base(), redirect_uri: 'https://evil.example/cb' })));
    expectErrorPage(await t.get(authorizeQuery({ ...base(), redirect_uri: `${REDIRECT}/more` })));
    expectErrorPage(await t.get(authorizeQuery({ ...base(), redirect_uri: REDIRECT.replace('8765', '8766') })));
    expectErrorPage(await t.get(authorizeQuery({ ...base(), redirect_uri: undefined })));
    // a client made through /v2/clients has no redirect URIs: never a redirect either
    const org = await t.newOrg();
    const made = await t.post('/v2/clients/', { name: 'cc' }, { token: await t.tokenFor(org) });
    expectErrorPage(await t.get(authorizeQuery({ ...base(), client_id: made.body.data.attributes.client_id })));
    // even when the bad request is otherwise invalid too (response_type=token)
    expectErrorPage(await t.get(authorizeQuery({ ...base(), response_type: 'token', redirect_uri: 'https://evil.example/cb' })));
  });

  it('odd requests get an error page or a form error, never a 500', async () => {
    expectErrorPage(await t.get('/v2/oauth/authorize'));
    expectErrorPage(await t.get(`/v2/oauth/authorize?client_id=${client.client_id}&client_id=${client.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}`));
    expectErrorPage(await t.request('POST', '/v2/oauth/authorize', { form: {} }));
    expectErrorPage(await t.post('/v2/oauth/authorize', [1, 2]));
    expectErrorPage(await t.get(authorizeQuery({ ...base(), client_id: 'x'.repeat(5000) })));
    const missingFields = await t.request('POST', '/v2/oauth/authorize', { form: { ...base(), csrf_token: 'x' } });
    expect(missingFields.status).toBe(403);
    expect(missingFields.headers.get('location')).toBeNull();
  });

  it('response_type must be code: token is refused, a missing one is invalid_request', async () => {
    expectRedirectError(await t.get(authorizeQuery({ ...base(), response_type: 'token' })), 'unsupported_response_type');
    expectRedirectError(await t.get(authorizeQuery({ ...base(), response_type: undefined })), 'invalid_request');
  });

  it('PKCE S256 only: plain, a missing challenge or a malformed one are refused', async () => {
    expectRedirectError(await t.get(authorizeQuery({ ...base(), code_challenge_method: 'plain' })), 'invalid_request');
    expectRedirectError(await t.get(authorizeQuery({ ...base(), code_challenge_method: undefined })), 'invalid_request');
    expectRedirectError(await t.get(authorizeQuery({ ...base(), code_challenge: undefined })), 'invalid_request');
    expectRedirectError(await t.get(authorizeQuery({ ...base(), code_challenge: 'short' })), 'invalid_request');
    // and the POST re-checks them
    const res = await t.request('POST', '/v2/oauth/authorize', { form: { ...base(), code_challenge_method: 'plain', email: adminA.email, password: adminA.password } });
    expectRedirectError(res, 'invalid_request');
  });

  it('scopes must be within the registered scope: otherwise invalid_scope', async () => {
    expectRedirectError(await t.get(authorizeQuery({ ...base(), scope: 'clients:read clients:write' })), 'invalid_scope');
    expectRedirectError(await t.get(authorizeQuery({ ...base(), scope: 'no-such:scope' })), 'invalid_scope');
    const ok = await t.get(authorizeQuery({ ...base(), scope: 'clients:read students:read' }));
    expect(ok.status).toBe(200);
  });

  it('a repeated parameter is invalid_request', async () => {
    const res = await t.get(`${authorizeQuery(base())}&scope=students:read`);
    expectRedirectError(res, 'invalid_request');
    // an overlong state is refused too, and not echoed
    const long = await t.get(authorizeQuery({ ...base(), state: 'x'.repeat(1100) }));
    expect(long.status).toBe(302);
    const loc = new URL(long.headers.get('location')!);
    expect(loc.searchParams.get('error')).toBe('invalid_request');
    expect(loc.searchParams.get('state')).toBeNull();
  });

  it('a wrong password or an unknown email re-shows the form with an error, without a redirect or a code', async () => {
    const before = (await t.ds.query(`SELECT count(*)::int AS n FROM auth_codes`))[0].n;
    for (const creds of [
      { email: adminA.email, password: 'wrong password' },
      { email: 'nobody@example.test', password: PASSWORD },
    ]) {
      const res = await submitAuthorize(t, { clientId: client.client_id, challenge, scope: 'clients:read', ...creds, state: 's1' });
      expect(res.status).toBe(200);
      expect(res.headers.get('location')).toBeNull();
      expect(res.text).toContain('The email address or password is incorrect.');
      expect(res.text).toContain('name="password"');
      expect(res.text).toContain('name="csrf_token"');
    }
    const after = (await t.ds.query(`SELECT count(*)::int AS n FROM auth_codes`))[0].n;
    expect(after).toBe(before);
  });

  it('the administrator may deny: access_denied back to the client', async () => {
    const res = await submitAuthorize(t, { clientId: client.client_id, challenge, scope: 'clients:read', ...adminA, state: 's1' }, { action: 'deny' });
    expectRedirectError(res, 'access_denied');
  });

  it('CSRF: the POST needs the signed form token bound to these parameters and the matching cookie', async () => {
    const page = await t.get(authorizeQuery(base()));
    const hidden = hiddenFields(page.text);
    const cookie = cookieOf(page);
    const post = (form: Record<string, string>, headers: Record<string, string>) =>
      t.request('POST', '/v2/oauth/authorize', { form: { ...form, email: adminA.email, password: adminA.password }, headers });

    const noToken = await post({ ...hidden, csrf_token: '' }, { cookie });
    expect(noToken.status).toBe(403);
    expect(noToken.headers.get('location')).toBeNull();
    const forgedToken = await post({ ...hidden, csrf_token: `${hidden.csrf_token}x` }, { cookie });
    expect(forgedToken.status).toBe(403);
    // the token is bound to the parameters: widening the scope after the page was shown fails
    const widened = await post({ ...hidden, scope: 'clients:read students:read' }, { cookie });
    expect(widened.status).toBe(403);
    const otherState = await post({ ...hidden, state: 'other' }, { cookie });
    expect(otherState.status).toBe(403);
    // without the cookie (a cross-site post) it fails
    const noCookie = await post(hidden, {});
    expect(noCookie.status).toBe(403);
    const otherCookie = await post(hidden, { cookie: cookieOf(await t.get(authorizeQuery(base()))) });
    expect(otherCookie.status).toBe(403);
    // the same form with its cookie works
    const ok = await post(hidden, { cookie });
    expect(ok.status).toBe(302);
    expect(new URL(ok.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('escapes everything it echoes into the page', async () => {
    const evil = await registerClient(t, { client_name: '<script>alert(1)</script>', token_endpoint_auth_method: 'none' });
    const page = await t.get(authorizeQuery({ ...base(), client_id: evil.client_id, scope: undefined, state: '"><img src=x onerror=alert(1)>' }));
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>alert(1)</script>');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('&#60;script&#62;');
  });

  it('a dynamic client is bound to the first organization that authorizes it; another organization cannot', async () => {
    const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read' });
    const [before] = await t.ds.query(`SELECT organization_id FROM oauth_clients WHERE client_id = $1`, [reg.client_id]);
    expect(before.organization_id).toBeNull();
    const code = await authorizeCode(t, { clientId: reg.client_id, challenge, ...adminA });
    expect(code).toBeTruthy();
    const [after] = await t.ds.query(`SELECT organization_id FROM oauth_clients WHERE client_id = $1`, [reg.client_id]);
    expect(after.organization_id).toBe(decodeId('organization', orgA.organization_id));

    const res = await submitAuthorize(t, { clientId: reg.client_id, challenge, ...adminB });
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
    expect(res.text).toContain('another organization');
    // still org A's, and org A's admin can go on authorizing it
    const [still] = await t.ds.query(`SELECT organization_id FROM oauth_clients WHERE client_id = $1`, [reg.client_id]);
    expect(still.organization_id).toBe(decodeId('organization', orgA.organization_id));
    expect(await authorizeCode(t, { clientId: reg.client_id, challenge, ...adminA })).toBeTruthy();
  });

  it('a deactivated client can no longer be authorized', async () => {
    const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read' });
    await authorizeCode(t, { clientId: reg.client_id, challenge, ...adminA });
    const token = await t.tokenFor(orgA);
    const list = await t.get('/v2/clients/?page[size]=100', { token });
    const id = list.body.data.find((c: any) => c.attributes.client_id === reg.client_id).id;
    expect((await t.delete(`/v2/clients/${id}`, { token })).status).toBe(204);
    expectErrorPage(await t.get(authorizeQuery({ ...base(), client_id: reg.client_id })));
  });
});

describe('OAuth sign-in attempts are limited per IP', () => {
  let t: TestApp;
  const admin = { email: 'limited@example.test', password: PASSWORD };
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: true });
    await t.newOrg('Limited', { adminEmail: admin.email, adminPassword: admin.password });
  });
  afterAll(() => t.close());

  it(`after ${SIGNIN_FAILURE_LIMIT} failed sign-ins an address gets 429 without a password check; others are unaffected`, async () => {
    const client = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read' });
    const { challenge } = pkce();
    const attempt = async (ip: string, password: string) => {
      const page = await t.get(authorizeQuery({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's' }), {
        headers: { 'x-forwarded-for': ip },
      });
      const form = { ...hiddenFields(page.text), email: admin.email, password };
      return t.request('POST', '/v2/oauth/authorize', { form, headers: { cookie: cookieOf(page), 'x-forwarded-for': ip } });
    };
    for (let i = 0; i < SIGNIN_FAILURE_LIMIT; i++) expect((await attempt('203.0.113.50', 'wrong')).status).toBe(200);
    const blocked = await attempt('203.0.113.50', PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('location')).toBeNull();
    expect(blocked.text).toContain('Too many failed sign-in attempts');
    // issue 25 item 15b: Retry-After names the seconds until the lockout ends (the 15-minute window, less the seconds spent)
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect((await attempt('203.0.113.51', PASSWORD)).status).toBe(302);
  });

  it('Retry-After follows the lockout: the seconds left on its counter', async () => {
    const client = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read' });
    const { challenge } = pkce();
    const ip = '203.0.113.60';
    // the lockout of this address has 42 seconds left
    const redis = new Redis(t.config.REDIS_URL);
    try {
      await redis.set(`${t.config.REDIS_PREFIX}:authorize-failures:${ip}`, String(SIGNIN_FAILURE_LIMIT), 'EX', 42);
    } finally {
      redis.disconnect();
    }
    const page = await t.get(authorizeQuery({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's' }), {
      headers: { 'x-forwarded-for': ip },
    });
    const blocked = await t.request('POST', '/v2/oauth/authorize', {
      form: { ...hiddenFields(page.text), email: admin.email, password: PASSWORD },
      headers: { cookie: cookieOf(page), 'x-forwarded-for': ip },
    });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(40);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(42);
  });
});
