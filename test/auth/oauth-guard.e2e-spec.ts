import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import * as jwt from 'jsonwebtoken';
import { createApp } from '../../src/app.factory';
import { KeysService } from '../../src/core/auth/keys.service';
import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { dropDatabase } from '../support/db';
import { startTestApp, TestApp } from '../support/app';
import { issuerUrl } from '../../src/core/config/config';
import { decodeJwt } from './oauth-helpers';

describe('the global guard: Bearer JWTs on every /v2 route, API keys on /v1 only', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 0 });
    org = await t.newOrg();
    token = await t.tokenFor(org, ['clients:read']);
  });
  afterAll(() => t.close());

  /** A token signed by the test with the given key and claims (defaults: valid claims of `token`). */
  function forge(claims: Record<string, unknown>, opts: { key?: string; kid?: string; alg?: jwt.Algorithm } = {}) {
    const { payload } = decodeJwt(token);
    const real = t.app.get(KeysService).signingKey();
    return jwt.sign({ ...payload, ...claims }, opts.key ?? real.privatePem, { algorithm: opts.alg ?? 'ES256', keyid: opts.kid ?? real.kid, noTimestamp: true });
  }

  const expect401 = (res: { status: number; headers: Headers; body: any }) => {
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(res.body.errors[0].code).toBe('unauthorized');
  };

  it('a valid token passes (the control for the cases below)', async () => {
    expect((await t.get('/v2/scopes/', { token })).status).toBe(200);
    expect((await t.get('/v2/scopes/', { token: forge({ jti: randomUUID() }) })).status).toBe(200);
  });

  it('a missing token is 401 with a bare Bearer challenge (RFC 6750 3.1); a malformed Authorization header is 401 invalid_token', async () => {
    const missing = await t.get('/v2/scopes/');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(missing.body.errors[0].code).toBe('unauthorized');
    const missingV1 = await t.get('/v1/courses');
    expect(missingV1.status).toBe(401);
    expect(missingV1.headers.get('www-authenticate')).toMatch(/^Bearer/);
    for (const authorization of ['Bearer', 'Bearer ', 'Token abc', 'bearer-only', `Bearer ${token.slice(0, -4)}`, 'Bearer not.a.jwt']) {
      expect401(await t.get('/v2/scopes/', { headers: { authorization } }));
    }
  });

  it('alg none is refused', async () => {
    const { payload } = decodeJwt(token);
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT', kid: decodeJwt(token).header.kid })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ ...payload, jti: randomUUID() })).toString('base64url');
    expect401(await t.get('/v2/scopes/', { token: `${header}.${body}.` }));
    expect401(await t.get('/v2/scopes/', { token: `${header}.${body}` }));
  });

  it('a token signed by another key is refused, whatever kid it names', async () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect401(await t.get('/v2/scopes/', { token: forge({ jti: randomUUID() }, { key: other }) }));
    expect401(await t.get('/v2/scopes/', { token: forge({ jti: randomUUID() }, { key: other, kid: 'unknown-kid' }) }));
    // HS256 with the public JWK as the shared secret (algorithm confusion)
    const jwk = JSON.stringify((await t.get('/.well-known/jwks.json')).body.keys[0]);
    expect401(await t.get('/v2/scopes/', { token: forge({ jti: randomUUID() }, { key: jwk, alg: 'HS256' }) }));
  });

  it('an expired token or one from another issuer is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect401(await t.get('/v2/scopes/', { token: forge({ iat: now - 7200, exp: now - 10, jti: randomUUID() }) }));
    expect401(await t.get('/v2/scopes/', { token: forge({ iss: 'https://evil.example', jti: randomUUID() }) }));
    expect401(await t.get('/v2/scopes/', { token: forge({ iss: undefined, jti: randomUUID() }) }));
  });

  it('a token of another organization than its client is refused', async () => {
    const other = await t.newOrg();
    expect401(await t.get('/v2/scopes/', { token: forge({ org: decodeId('organization', other.organization_id), jti: randomUUID() }) }));
  });

  it('a token without any of the scopes is 403', async () => {
    const students = await t.tokenFor(org, ['students:read']);
    const res = await t.get('/v2/scopes/', { token: students });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('forbidden');
    // any-of: either scope of an operation is enough
    expect((await t.get('/v2/clients/', { token: await t.tokenFor(org, ['clients:read']) })).status).toBe(200);
  });

  it("a deactivated client's tokens are refused", async () => {
    const admin = await t.tokenFor(org);
    const created = await t.post('/v2/clients/', { name: 'short-lived', scope_codenames: ['clients:read'] }, { token: admin });
    const cid = created.body.data.attributes.client_id;
    const tok = await t.post('/v2/auth/token', { client_id: cid, client_secret: created.body.data.attributes.client_secret });
    expect((await t.get('/v2/scopes/', { token: tok.body.access_token })).status).toBe(200);
    expect((await t.delete(`/v2/clients/${created.body.data.id}`, { token: admin })).status).toBe(204);
    expect401(await t.get('/v2/scopes/', { token: tok.body.access_token }));
  });

  it('an organization API key works by Basic auth on /v1 only', async () => {
    // no /v1 routes yet: a valid key reaches the (unknown) route, a bad key does not
    const ok = await t.get('/v1/anything', { basic: org.api_key });
    expect(ok.status).toBe(404);
    expect(ok.body).toEqual({ detail: expect.any(String) });
    const bad = await t.get('/v1/anything', { basic: 'cpk_wrong' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ detail: expect.any(String) });
    expect((await t.get('/v1/anything')).status).toBe(404); // no credentials: as unknown /v2 paths
    // a Bearer token is fine on /v1 too
    expect((await t.get('/v1/anything', { token })).status).toBe(404);
    // never on /v2
    expect401(await t.get('/v2/scopes/', { basic: org.api_key }));
    expect401(await t.get('/v2/clients/', { basic: org.api_key }));
  });

  it('serves RFC 8414 metadata and the JWKS (public halves only)', async () => {
    const meta = await t.get('/.well-known/oauth-authorization-server');
    expect(meta.status).toBe(200);
    const base = t.baseUrl;
    expect(meta.body).toMatchObject({
      issuer: issuerUrl(t.config),
      authorization_endpoint: `${base}/v2/oauth/authorize`,
      token_endpoint: `${base}/v2/auth/token`,
      registration_endpoint: `${base}/v2/oauth/register`,
      revocation_endpoint: `${base}/v2/auth/revoke`,
      jwks_uri: `${base}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    });
    expect(meta.body.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']));
    expect(meta.body.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['none', 'client_secret_post', 'client_secret_basic']));
    expect(meta.body.scopes_supported).toEqual(expect.arrayContaining(['clients:read', 'students:deactivate']));

    const jwks = await t.get('/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys.length).toBeGreaterThan(0);
    for (const k of jwks.body.keys) {
      expect(k).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String), x: expect.any(String), y: expect.any(String) });
      expect(k.d).toBeUndefined();
    }
    expect(jwks.body.keys.map((k: any) => k.kid)).toContain(decodeJwt(token).header.kid);
  });
});

describe('signing keys survive a restart', () => {
  it('a new app instance on the same database verifies tokens issued before', async () => {
    const t = await startTestApp();
    const dbName = new URL(t.config.DATABASE_URL).pathname.slice(1);
    let second: NestFastifyApplication | undefined;
    try {
      const org = await t.newOrg();
      const token = await t.tokenFor(org, ['clients:read']);
      const kid = decodeJwt(token).header.kid;
      await t.app.close();

      second = await createApp(t.config);
      await second.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(second.getHttpServer().address() as { port: number }).port}`;
      const res = await fetch(`${base}/v2/scopes/`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const jwks: any = await (await fetch(`${base}/.well-known/jwks.json`)).json();
      expect(jwks.keys.map((k: any) => k.kid)).toContain(kid);
      // and it signs with the same key
      const fresh = await fetch(`${base}/v2/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: org.client_id, client_secret: org.client_secret }),
      });
      expect(decodeJwt(((await fresh.json()) as any).access_token).header.kid).toBe(kid);
    } finally {
      await second?.close();
      await dropDatabase(dbName);
    }
  });
});
