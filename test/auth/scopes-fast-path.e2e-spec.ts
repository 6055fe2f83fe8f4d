import { AuthService } from '../../src/core/auth/auth.service';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { authInvalidationReady } from './oauth-helpers';

/**
 * GET /v2/scopes/'s fast path (ScopesController.cachedCatalog, core/routes/fast-path.ts): a caller
 * whose token is cached as valid, with clients:read, is answered before Nest's pipeline, with the
 * answer the guard and handler give; anything else goes to the global guard, which refuses as before.
 */
describe('GET /v2/scopes/: the cached-token fast path answers as the guarded handler does', () => {
  let t: TestApp;
  let org: CreatedOrg;
  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 60 });
    org = await t.newOrg();
    await authInvalidationReady(t);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const headersOf = (h: Headers) => Object.fromEntries([...h.entries()].filter(([k]) => k !== 'date' && k !== 'x-request-id'));

  it('the first request is the guard (the token is verified), the next ones the fast path: same status, headers and body', async () => {
    const token = await t.tokenFor(org, ['clients:read']);
    const guard = jest.spyOn(AuthService.prototype, 'authenticateFast');
    const first = await t.get('/v2/scopes/', { token });
    expect(first.status).toBe(200);
    expect(guard).toHaveBeenCalledTimes(1);
    guard.mockClear();
    for (let i = 0; i < 3; i++) {
      const res = await t.get('/v2/scopes/', { token });
      expect(res.status).toBe(200);
      expect(headersOf(res.headers)).toEqual(headersOf(first.headers));
      expect(res.text).toBe(first.text);
    }
    expect(guard).not.toHaveBeenCalled();
    expect(first.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(first.body.data.length).toBeGreaterThan(10);
  });

  it('refusals come from the guard: no credentials 401, a token without clients:read 403, a bad token 401', async () => {
    const narrow = await t.tokenFor(org, ['students:read']);
    await t.get('/v2/students/', { token: narrow }); // cached as valid
    const guard = jest.spyOn(AuthService.prototype, 'authenticateFast');
    const forbidden = await t.get('/v2/scopes/', { token: narrow });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="clients:read"');
    expect(forbidden.body.errors[0].detail).toBe('This operation needs one of the scopes: clients:read.');
    const none = await t.get('/v2/scopes/');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    const bad = await t.get('/v2/scopes/', { token: 'not-a-token' });
    expect(bad.status).toBe(401);
    const apiKey = await t.get('/v2/scopes/', { basic: org.api_key });
    expect(apiKey.status).toBe(401);
    expect(guard).toHaveBeenCalledTimes(4);
  });

  it('a token whose client was deactivated is refused at once, though its claims were cached', async () => {
    const admin = await t.tokenFor(org);
    const made = await t.post('/v2/clients/', { name: 'scopes reader', scope_codenames: ['clients:read'] }, { token: admin });
    expect(made.status).toBe(201);
    const creds = { client_id: made.body.data.attributes.client_id, client_secret: made.body.data.attributes.client_secret };
    const token = (await t.post('/v2/auth/token', creds)).body.access_token;
    expect((await t.get('/v2/scopes/', { token })).status).toBe(200);
    expect((await t.get('/v2/scopes/', { token })).status).toBe(200);
    expect((await t.delete(`/v2/clients/${made.body.data.id}`, { token: admin })).status).toBeLessThan(300);
    const after = await t.get('/v2/scopes/', { token });
    expect(after.status).toBe(401);
  });
});
