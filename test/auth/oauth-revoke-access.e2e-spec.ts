import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { AuthService } from '../../src/core/auth/auth.service';
import { AuthInvalidationBus } from '../../src/core/auth/invalidation';
import { CleanupService } from '../../src/modules/maintenance/cleanup.service';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { waitFor } from '../support/eventually';
import { authInvalidationReady, decodeJwt } from './oauth-helpers';

/**
 * Revoking an access token (issue 25 item 3, CONVENTIONS §3; docs/decisions/oauth.md "Revoking an
 * access token"): after a 200 from POST /v2/auth/revoke naming a valid access token, that token is
 * 401 invalid_token on every interface (/v2, /v1 Bearer, /mcp, the fast reads) in every API process
 * at once, even where it was cached as valid a moment before; another client's credentials leave it
 * alone; the denylist rows go once the token has expired.
 */
describe('POST /v2/auth/revoke: an access token stops working at once', () => {
  let t: TestApp;
  let org: CreatedOrg;
  beforeAll(async () => {
    // client state cached for a minute, as in production: the hot path answers a cached token without the database
    t = await startTestApp({ AUTH_CACHE_SECONDS: 60 });
    org = await t.newOrg('Revoke access');
    await authInvalidationReady(t);
  });
  afterAll(() => t.close());

  const mcpInitialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const mcpHeaders = { accept: 'application/json, text/event-stream' };

  /** One request per interface: /v2 through the guard, a fast read, /v1 Bearer, /mcp. */
  const probes = (base: string) => ({
    v2: (token: string) => call(base, 'GET', '/v2/clients/', token),
    fastRead: (token: string) => call(base, 'GET', '/v2/courses/', token),
    v1: (token: string) => call(base, 'GET', '/v1/courses', token),
    mcp: (token: string) => call(base, 'POST', '/mcp', token, mcpInitialize),
  });

  async function call(base: string, method: string, path: string, token: string, body?: unknown) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json', ...mcpHeaders } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    await res.arrayBuffer();
    return { status: res.status, challenge: res.headers.get('www-authenticate') };
  }

  /** Every interface answers the token; the fast read is served from the cached principal (no verification, no database). */
  async function worksEverywhere(token: string, base = t.baseUrl, app: NestFastifyApplication = t.app) {
    const p = probes(base);
    for (const [name, probe] of Object.entries(p)) expect([name, (await probe(token)).status]).toEqual([name, 200]);
    const cached = jest.spyOn(app.get(AuthService), 'cachedBearerPrincipal');
    try {
      expect((await p.fastRead(token)).status).toBe(200);
      expect(cached.mock.results.some((r) => r.value !== undefined)).toBe(true);
    } finally {
      cached.mockRestore();
    }
  }

  async function refusedEverywhere(token: string, base = t.baseUrl) {
    for (const [name, probe] of Object.entries(probes(base))) {
      const res = await probe(token);
      expect([name, res.status]).toEqual([name, 401]);
      expect(res.challenge).toMatch(/^Bearer error="invalid_token"/);
    }
  }

  const revoke = (body: Record<string, unknown>, base = t.baseUrl, headers: Record<string, string> = {}) =>
    fetch(`${base}/v2/auth/revoke`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as any,
    }));

  const newClient = async () => {
    const made = await t.post('/v2/clients/', { name: `other ${Math.random()}`, scope_codenames: ['courses:read'] }, { token: await t.tokenFor(org) });
    expect(made.status).toBe(201);
    return { client_id: made.body.data.attributes.client_id as string, client_secret: made.body.data.attributes.client_secret as string };
  };

  it('the published body alone ({token, token_type_hint: access_token}) revokes a client-credentials token cached as valid a moment before', async () => {
    const token = await t.tokenFor(org);
    await worksEverywhere(token);
    const res = await revoke({ token, token_type_hint: 'access_token' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    await refusedEverywhere(token);
    // the client and its other tokens are untouched
    await worksEverywhere(await t.tokenFor(org));
    // revoking it again: 200, nothing changes
    expect((await revoke({ token })).status).toBe(200);
    await refusedEverywhere(token);
    // a forged token (our header and claims, not our signature) names nothing: 200, no row, the real one untouched
    const real = await t.tokenFor(org);
    const [h, p] = real.split('.');
    const before = await t.ds.query(`SELECT count(*)::int AS n FROM revoked_access_tokens`);
    expect((await revoke({ token: `${h}.${p}.${Buffer.from('x'.repeat(64)).toString('base64url')}` })).status).toBe(200);
    expect(await t.ds.query(`SELECT count(*)::int AS n FROM revoked_access_tokens`)).toEqual(before);
    await worksEverywhere(real);
  });

  it('the hint is only a hint (RFC 7009 2.1): token_type_hint=refresh_token, no hint or a form body revoke an access token too', async () => {
    const byRefreshHint = await t.tokenFor(org);
    const noHint = await t.tokenFor(org);
    const form = await t.tokenFor(org);
    for (const token of [byRefreshHint, noHint, form]) await worksEverywhere(token);
    expect((await revoke({ token: byRefreshHint, token_type_hint: 'refresh_token' })).status).toBe(200);
    expect((await revoke({ token: noHint })).status).toBe(200);
    expect((await t.request('POST', '/v2/auth/revoke', { form: { token: form, token_type_hint: 'something_else' } })).status).toBe(200);
    for (const token of [byRefreshHint, noHint, form]) await refusedEverywhere(token);
  });

  it("another client's valid credentials: 200 and the token keeps working; its own client's credentials revoke it", async () => {
    const token = await t.tokenFor(org);
    await worksEverywhere(token);
    const other = await newClient();
    expect((await revoke({ token, client_id: other.client_id, client_secret: other.client_secret })).status).toBe(200);
    const basic = { authorization: `Basic ${Buffer.from(`${other.client_id}:${other.client_secret}`).toString('base64')}` };
    expect((await revoke({ token, token_type_hint: 'access_token' }, t.baseUrl, basic)).status).toBe(200);
    await worksEverywhere(token);
    expect(await t.ds.query(`SELECT 1 FROM revoked_access_tokens WHERE jti = $1`, [decodeJwt(token).payload.jti])).toEqual([]);
    // wrong credentials: 401 invalid_client, nothing revoked
    const wrong = await revoke({ token, client_id: org.client_id, client_secret: 'wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    await worksEverywhere(token);
    expect((await revoke({ token, client_id: org.client_id, client_secret: org.client_secret })).status).toBe(200);
    await refusedEverywhere(token);
  });

  describe('two API processes on the same database and Redis prefix', () => {
    let other: NestFastifyApplication;
    let otherUrl: string;
    beforeAll(async () => {
      other = await createApp(t.config);
      await other.listen({ port: 0, host: '127.0.0.1' });
      otherUrl = `http://127.0.0.1:${(other.getHttpServer().address() as import('node:net').AddressInfo).port}`;
      expect(other.get(DataSource)).not.toBe(t.ds);
      const bus = other.get(AuthInvalidationBus);
      bus.ensureSubscribed();
      await waitFor(() => (bus as unknown as { subscriber?: { status: string } }).subscriber?.status === 'ready', { what: "the other process's invalidation subscription" });
    });
    afterAll(() => other.close());

    /** The message reaches the other process through Redis within milliseconds; far below the minute a verification is cached. */
    const refusedSoon = async (token: string, base: string) => {
      await waitFor(async () => (await probes(base).fastRead(token)).status === 401, { what: 'the revocation in the other process', timeoutMs: 2000 });
      await refusedEverywhere(token, base);
    };

    it('revoked through one process, refused by the other, which had it cached as valid', async () => {
      const token = await t.tokenFor(org);
      await worksEverywhere(token, otherUrl, other);
      await worksEverywhere(token);
      expect((await revoke({ token, token_type_hint: 'access_token' })).status).toBe(200);
      await refusedEverywhere(token);
      await refusedSoon(token, otherUrl);
    });

    it('and the other way round, with a bare body and no hint', async () => {
      const token = await t.tokenFor(org);
      await worksEverywhere(token, otherUrl, other);
      await worksEverywhere(token);
      expect((await revoke({ token }, otherUrl)).status).toBe(200);
      await refusedEverywhere(token, otherUrl);
      await refusedSoon(token, t.baseUrl);
    });
  });

  it('the maintenance clean-up deletes denylist rows once their token has expired (with a margin for clock skew), and keeps the others', async () => {
    const token = await t.tokenFor(org);
    const live = await t.tokenFor(org);
    expect((await revoke({ token })).status).toBe(200);
    expect((await revoke({ token: live })).status).toBe(200);
    const jti = decodeJwt(token).payload.jti;
    const liveJti = decodeJwt(live).payload.jti;
    const [row] = await t.ds.query(`SELECT extract(epoch FROM expires_at)::int AS exp FROM revoked_access_tokens WHERE jti = $1`, [jti]);
    expect(row.exp).toBe(decodeJwt(token).payload.exp);
    // one row's token expired an hour ago, one a minute ago (within the margin); `live` has its whole lifetime left
    await t.ds.query(`UPDATE revoked_access_tokens SET expires_at = now() - interval '1 hour' WHERE jti = $1`, [jti]);
    await t.ds.query(`INSERT INTO revoked_access_tokens (jti, expires_at) VALUES ('recently-expired', now() - interval '1 minute')`);
    const result = await new CleanupService(t.ds, t.config).run();
    expect(result.revokedAccessTokens).toBe(1);
    const left = (await t.ds.query(`SELECT jti FROM revoked_access_tokens WHERE jti = ANY($1)`, [[jti, liveJti, 'recently-expired']])).map((r: any) => r.jti).sort();
    expect(left).toEqual([liveJti, 'recently-expired'].sort());
    await refusedEverywhere(live);
  });
});
