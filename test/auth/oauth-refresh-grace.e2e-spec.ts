import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.factory';
import { sha256 } from '../../src/core/crypto/crypto';
import { CleanupService } from '../../src/modules/maintenance/cleanup.service';
import { startTestApp, TestApp } from '../support/app';
import { authorizeCode, pkce, REDIRECT, registerClient } from './oauth-helpers';

/**
 * Refresh-token grace window (REFRESH_TOKEN_GRACE_SECONDS): a repeat of the just-rotated refresh
 * token gets the same new refresh token instead of revoking the family; after the window it is
 * reuse, as before.
 */

const PASSWORD = 'correct horse battery';
const admin = { email: 'grace-admin@example.test', password: PASSWORD };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function codeFlow(t: TestApp, extra: Record<string, unknown> = { token_endpoint_auth_method: 'none' }) {
  const reg = await registerClient(t, { scope: 'clients:read', ...extra });
  const { verifier, challenge } = pkce();
  const code = await authorizeCode(t, { clientId: reg.client_id, challenge, ...admin });
  const body: Record<string, string> = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: reg.client_id };
  if (reg.client_secret) body.client_secret = reg.client_secret;
  const tok = await t.post('/v2/auth/token', body);
  expect(tok.status).toBe(200);
  return { reg, access: tok.body.access_token as string, refresh: tok.body.refresh_token as string };
}

/** The stored row of a refresh token (read only, to check what is kept at rest). */
async function rowOf(t: TestApp, token: string) {
  const [row] = await t.ds.query(`SELECT id, rotated_at, successor_enc FROM refresh_tokens WHERE token_hash = $1`, [sha256(token)]);
  return row as { id: string; rotated_at: Date | null; successor_enc: string | null };
}

describe('within the grace window', () => {
  let t: TestApp;
  let second: NestFastifyApplication;
  let secondBase: string;
  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 0, REFRESH_TOKEN_GRACE_SECONDS: 10 });
    await t.newOrg('Grace org', { adminEmail: admin.email, adminPassword: admin.password });
    // a second API process on the same database (what is shared between processes: the database)
    second = await createApp(t.config);
    await second.listen({ port: 0, host: '127.0.0.1' });
    secondBase = `http://127.0.0.1:${(second.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  const refreshVia = async (base: string, body: Record<string, string>) => {
    const res = await fetch(`${base}/v2/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'refresh_token', ...body }) });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('5 concurrent refreshes with the same token, across two API processes, all get the same new refresh token; the family lives on', async () => {
    const c = await codeFlow(t);
    const results = await Promise.all([0, 1, 2, 3, 4].map((i) => refreshVia(i % 2 ? secondBase : t.baseUrl, { refresh_token: c.refresh })));
    for (const r of results) expect(r.status).toBe(200);
    const next = results[0].body.refresh_token;
    expect(next).not.toBe(c.refresh);
    expect(new Set(results.map((r) => r.body.refresh_token))).toEqual(new Set([next]));
    for (const r of results) {
      expect(r.body.scope).toBe('clients:read');
      expect((await t.get('/v2/scopes/', { token: r.body.access_token })).status).toBe(200);
    }
    expect((await t.get('/v2/scopes/', { token: c.access })).status).toBe(200);
    // one new refresh token in the family, not five
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM refresh_tokens WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)`, [sha256(c.refresh)]);
    expect(n).toBe(2);
    // the kept successor is encrypted, never the token itself
    const row = await rowOf(t, c.refresh);
    expect(row.successor_enc).toEqual(expect.any(String));
    expect(row.successor_enc).not.toContain(next);
    expect(row.successor_enc).not.toContain(next.slice(4, 24));
    // the new token rotates normally
    const after = await refreshVia(t.baseUrl, { refresh_token: next });
    expect(after.status).toBe(200);
    expect(after.body.refresh_token).not.toBe(next);
  });

  it('a sequential retry within the window gets the same pair; once the new token is used, the old one is reuse and revokes the family', async () => {
    const c = await codeFlow(t);
    const a = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh });
    const b = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.refresh_token).toBe(a.body.refresh_token);
    const c2 = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: a.body.refresh_token });
    expect(c2.status).toBe(200);
    const late = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh });
    expect(late.status).toBe(400);
    expect(late.body.error).toBe('invalid_grant');
    expect((await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c2.body.refresh_token })).status).toBe(400);
    expect((await t.get('/v2/scopes/', { token: c2.body.access_token })).status).toBe(401);
  });

  it('a repeat within the window still needs the client authentication: a wrong secret is 401 and changes nothing', async () => {
    const c = await codeFlow(t, {});
    const creds = { client_id: c.reg.client_id, client_secret: c.reg.client_secret! };
    const first = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh, ...creds });
    expect(first.status).toBe(200);
    const wrong = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.reg.client_id, client_secret: 'wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.refresh_token).toBeUndefined();
    const retry = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh, ...creds });
    expect(retry.status).toBe(200);
    expect(retry.body.refresh_token).toBe(first.body.refresh_token);
  });

  it('a revoked family gets nothing from the window', async () => {
    const c = await codeFlow(t);
    const first = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh });
    expect((await t.post('/v2/auth/revoke', { token: first.body.refresh_token, client_id: c.reg.client_id })).status).toBe(200);
    const repeat = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh });
    expect(repeat.status).toBe(400);
    expect(repeat.body.error).toBe('invalid_grant');
  });
});

describe('after the grace window', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 0, REFRESH_TOKEN_GRACE_SECONDS: 0.3 });
    await t.newOrg('Late org', { adminEmail: admin.email, adminPassword: admin.password });
  });
  afterAll(() => t.close());

  it('a repeat after the window is reuse: the family is revoked; the kept successor has been erased', async () => {
    const c = await codeFlow(t);
    const first = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh });
    expect(first.status).toBe(200);
    expect((await rowOf(t, c.refresh)).successor_enc).toEqual(expect.any(String));
    await sleep(1600); // window (0.3 s) + the API's erase delay (1 s) + margin
    expect((await rowOf(t, c.refresh)).successor_enc).toBeNull();
    const repeat = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh });
    expect(repeat.status).toBe(400);
    expect(repeat.body.error).toBe('invalid_grant');
    expect((await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: first.body.refresh_token })).status).toBe(400);
    expect((await t.get('/v2/scopes/', { token: first.body.access_token })).status).toBe(401);
  });

  it('the clean-up sweep erases successors whose window is over (what a stopped API process left)', async () => {
    const c = await codeFlow(t);
    const first = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh });
    expect(first.status).toBe(200);
    const cleanup = new CleanupService(t.ds, t.config);
    await sleep(500); // past the window, before the API's own erase
    expect((await rowOf(t, c.refresh)).successor_enc).toEqual(expect.any(String));
    expect(await cleanup.eraseRefreshSuccessors()).toBeGreaterThanOrEqual(1);
    expect((await rowOf(t, c.refresh)).successor_enc).toBeNull();
    // within the window nothing is erased
    const d = await codeFlow(t);
    await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: d.refresh });
    const longWindow = new CleanupService(t.ds, { ...t.config, REFRESH_TOKEN_GRACE_SECONDS: 60 } as any);
    await longWindow.eraseRefreshSuccessors();
    expect((await rowOf(t, d.refresh)).successor_enc).toEqual(expect.any(String));
  });
});

describe('grace window off (REFRESH_TOKEN_GRACE_SECONDS=0)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 0, REFRESH_TOKEN_GRACE_SECONDS: 0 });
    await t.newOrg('No grace org', { adminEmail: admin.email, adminPassword: admin.password });
  });
  afterAll(() => t.close());

  it('any repeat is reuse and nothing is kept', async () => {
    const c = await codeFlow(t);
    const first = await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh });
    expect(first.status).toBe(200);
    expect((await rowOf(t, c.refresh)).successor_enc).toBeNull();
    expect((await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: c.refresh })).status).toBe(400);
    expect((await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: first.body.refresh_token })).status).toBe(400);
  });
});
