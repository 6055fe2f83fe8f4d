import * as jwt from 'jsonwebtoken';
import passport from 'passport';
import { Strategy as PassportJwtStrategy } from 'passport-jwt';
import { AuthService } from '../../src/core/auth/auth.service';
import { AccessTokenStrategy } from '../../src/core/auth/jwt.strategy';
import { KeysService } from '../../src/core/auth/keys.service';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { adminQuery } from '../support/db';
import { authInvalidationReady, decodeJwt } from './oauth-helpers';

/**
 * Issue 36: the access-token strategy is passport-jwt's Strategy, registered as 'jwt' through
 * @nestjs/passport, and the only verifier of Bearer tokens: the global guard, the fast reads and
 * the revocation endpoint all reach the same strategy object, whose cache of verified claims is
 * what lets the hot path skip verification.
 */
jest.setTimeout(60_000);

describe('Bearer tokens are verified by the passport-jwt strategy registered as "jwt"', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let strategy: AccessTokenStrategy;

  beforeAll(async () => {
    t = await startTestApp();
    strategy = t.app.get(AccessTokenStrategy);
    org = await t.newOrg();
    // the subscription's start clears the strategy's cache (a revocation may have been missed): not in the middle of a test
    await authInvalidationReady(t);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  it('the strategy is a passport-jwt Strategy named "jwt", registered with passport, and AuthService holds that very object', () => {
    expect(strategy).toBeInstanceOf(PassportJwtStrategy);
    expect(strategy.name).toBe('jwt');
    // passport's registry is process-wide: the latest app's strategy, which is this file's only app
    expect((passport as any)._strategy('jwt')).toBe(strategy);
    expect(t.app.get(AuthService).strategy).toBe(strategy);
  });

  it('the global guard verifies a new token through the strategy (once), then answers from the strategy’s cache', async () => {
    const verify = jest.spyOn(AccessTokenStrategy.prototype, 'verify');
    const validate = jest.spyOn(AccessTokenStrategy.prototype, 'validate');
    const cached = jest.spyOn(AccessTokenStrategy.prototype, 'cached');
    const token = await t.tokenFor(org, ['clients:read']);
    expect(strategy.cached(token)).toBeUndefined();
    cached.mockClear();
    expect((await t.get('/v2/clients/', { token })).status).toBe(200);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(validate).toHaveBeenCalledTimes(1); // passport-jwt verified it and called the strategy's validate
    expect(cached.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(strategy.cached(token)).toMatchObject({ org: decodeJwt(token).payload.org, scope: 'clients:read' });
    verify.mockClear();
    validate.mockClear();
    cached.mockClear();
    expect((await t.get('/v2/clients/', { token })).status).toBe(200);
    expect(validate).not.toHaveBeenCalled();
    expect(cached).toHaveBeenCalled();
  });

  it('the fast reads take the caller’s claims from the same strategy (a cached token), and nothing else verifies', async () => {
    const token = await t.tokenFor(org, ['clients:read']);
    expect((await t.get('/v2/scopes/', { token })).status).toBe(200);
    const cached = jest.spyOn(AccessTokenStrategy.prototype, 'cached');
    const verify = jest.spyOn(AccessTokenStrategy.prototype, 'verify');
    expect((await t.get('/v2/scopes/', { token })).status).toBe(200);
    expect(cached).toHaveBeenCalledWith(token);
    expect(verify).not.toHaveBeenCalled();
  });

  it('passport itself runs the strategy: passport.authenticate("jwt") accepts our token and refuses a forged one', async () => {
    const token = await t.tokenFor(org, ['clients:read']);
    const run = (authorization: string) =>
      new Promise<{ err: unknown; user: unknown; info: unknown }>((resolve) => {
        passport.authenticate(strategy, { session: false }, (err: unknown, user: unknown, info: unknown) => resolve({ err, user, info }))({ headers: { authorization } }, {}, () => undefined);
      });
    const ok = await run(`Bearer ${token}`);
    expect(ok.err).toBeNull();
    expect(ok.user).toMatchObject({ client_id: org.client_id, scope: 'clients:read' });
    const other = jwt.sign({ ...decodeJwt(token).payload, jti: 'forged' }, 'not-our-key', { algorithm: 'HS256', keyid: decodeJwt(token).header.kid });
    const refused = await run(`Bearer ${other}`);
    expect(refused.user).toBe(false);
    // what the guard answers for the same forged token
    const res = await t.get('/v2/clients/', { token: other });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('revocation reads an access token’s claims through the strategy', async () => {
    const verify = jest.spyOn(AccessTokenStrategy.prototype, 'verify');
    const token = await t.tokenFor(org, ['clients:read']);
    expect((await t.post('/v2/auth/revoke', { token, token_type_hint: 'access_token' })).status).toBe(200);
    expect(verify).toHaveBeenCalledWith(token);
  });

  it('a key lookup the database cannot answer is a 503 from the strategy’s key provider, not a 401', async () => {
    const { payload } = decodeJwt(await t.tokenFor(org, ['clients:read']));
    // signed with the real key but naming a kid this process does not know: the provider reloads the keys
    const real = t.app.get(KeysService).signingKey();
    const unknownKid = jwt.sign({ ...payload, jti: 'unknown-kid' }, real.privatePem, { algorithm: 'ES256', keyid: 'kid-not-loaded', noTimestamp: true });
    await new Promise((r) => setTimeout(r, 1100)); // the key reload is at most once a second
    const name = decodeURIComponent(new URL(t.config.DATABASE_URL).pathname.slice(1));
    await adminQuery(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
    await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
    try {
      const res = await t.get('/v2/clients/', { token: unknownKid });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
    } finally {
      await adminQuery(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
    }
    const after = await t.get('/v2/clients/', { token: unknownKid });
    expect(after.status).toBe(401);
  });
});
