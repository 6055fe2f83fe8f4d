import { Writable } from 'node:stream';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { TokenService } from '../../src/modules/auth/token.service';
import { startTestApp, TestApp } from '../support/app';
import { waitFor } from '../support/eventually';
import { authInvalidationReady, decodeJwt } from './oauth-helpers';

/**
 * The token route's fast path (TokenController.cachedToken, core/routes/fast-path.ts): a
 * client_credentials request whose client is cached as verified is answered before Nest's pipeline.
 * Its answers must be the handler's: same status, headers and body members, through JSON, forms and
 * HTTP Basic; every refusal still comes from the handler; the request line is still logged, with
 * its request id and without the secret.
 */
describe('token endpoint: the cached client_credentials fast path answers as the handler does', () => {
  let t: TestApp;
  let org: CreatedOrg;
  const lines: any[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 60, LOG_LEVEL: 'debug' }, { logDestination: sink });
    org = await t.newOrg();
    await authInvalidationReady(t);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

  /** Every header but the ones that differ between any two answers. */
  const headersOf = (h: Headers) => Object.fromEntries([...h.entries()].filter(([k]) => k !== 'date' && k !== 'x-request-id'));

  const send = (kind: 'json' | 'form' | 'basic-form' | 'basic-json', extra: Record<string, string> = {}, requestId?: string) => {
    const headers: Record<string, string> = requestId ? { 'x-request-id': requestId } : {};
    const creds = { client_id: org.client_id, client_secret: org.client_secret };
    if (kind === 'json') return t.post('/v2/auth/token', { ...creds, ...extra }, { headers });
    if (kind === 'form') return t.request('POST', '/v2/auth/token', { form: { grant_type: 'client_credentials', ...creds, ...extra }, headers });
    headers.authorization = basic(org.client_id, org.client_secret);
    if (kind === 'basic-form') return t.request('POST', '/v2/auth/token', { form: { grant_type: 'client_credentials', ...extra }, headers });
    return t.post('/v2/auth/token', { grant_type: 'client_credentials', ...extra }, { headers });
  };

  /**
   * Until the client is cached: the first verification subscribes to the invalidation channel, and
   * the subscription's start clears the caches (AuthInvalidationBus), so the entry made just before
   * it may be gone once.
   */
  const cached = async () => {
    const spy = jest.spyOn(TokenService.prototype, 'clientCredentials');
    for (let i = 0; i < 100; i++) {
      spy.mockClear();
      expect((await send('json')).status).toBe(200);
      if (!spy.mock.calls.length) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the client was never served from the cache');
  };

  it('the first request is the handler (the client is read), the next ones the fast path: same status, headers and body', async () => {
    const handler = jest.spyOn(TokenService.prototype, 'clientCredentials');
    const first = await send('json');
    expect(handler).toHaveBeenCalledTimes(1);
    await cached();
    handler.mockClear();
    for (const kind of ['json', 'form', 'basic-form', 'basic-json'] as const) {
      const res = await send(kind);
      expect(res.status).toBe(200);
      expect(headersOf(res.headers)).toEqual(headersOf(first.headers));
      expect(res.headers.get('x-request-id')).toEqual(expect.any(String));
      expect(Object.keys(res.body)).toEqual(Object.keys(first.body));
      expect({ ...res.body, access_token: 'x' }).toEqual({ ...first.body, access_token: 'x' });
      const claims = decodeJwt(res.body.access_token);
      const firstClaims = decodeJwt(first.body.access_token);
      expect(claims.header).toEqual(firstClaims.header);
      expect(Object.keys(claims.payload)).toEqual(Object.keys(firstClaims.payload));
      expect({ ...claims.payload, jti: 0, iat: 0, exp: 0 }).toEqual({ ...firstClaims.payload, jti: 0, iat: 0, exp: 0 });
      expect(claims.payload.exp - claims.payload.iat).toBe(res.body.expires_in);
    }
    expect(handler).not.toHaveBeenCalled();
    // and the handler's headers are the ones this endpoint always had
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('pragma')).toBe('no-cache');
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('a narrowed scope is served by the fast path too, with the same answer', async () => {
    await cached();
    const handler = jest.spyOn(TokenService.prototype, 'clientCredentials');
    const res = await send('json', { scope: 'students:read courses:read students:read' });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('students:read courses:read');
    expect(decodeJwt(res.body.access_token).payload.scope).toBe('students:read courses:read');
    expect(handler).not.toHaveBeenCalled();
  });

  it('refusals of a cached client come from the handler, with its bodies and headers', async () => {
    await cached();
    const handler = jest.spyOn(TokenService.prototype, 'clientCredentials');
    const scope = await send('json', { scope: 'students:read nope:nope' });
    expect(scope.status).toBe(400);
    expect(scope.body).toEqual({ error: 'invalid_scope', error_description: 'Scopes not allowed for this client: nope:nope.' });
    expect(scope.headers.get('cache-control')).toBe('no-store');
    expect(handler).toHaveBeenCalledTimes(1);

    const wrong = await t.request('POST', '/v2/auth/token', { form: { grant_type: 'client_credentials' }, headers: { authorization: basic(org.client_id, 'wrong') } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed.' });
    expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="oauth", charset="UTF-8"');

    const both = await t.post('/v2/auth/token', { client_id: org.client_id, client_secret: org.client_secret }, { headers: { authorization: basic(org.client_id, org.client_secret) } });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: 'invalid_request', error_description: 'Use one client authentication method, not both.' });

    const notString = await t.post('/v2/auth/token', { client_id: org.client_id, client_secret: org.client_secret, scope: ['a'] });
    expect(notString.status).toBe(400);
    expect(notString.body).toEqual({ error: 'invalid_request', error_description: 'scope must be a string.' });

    const grant = await t.post('/v2/auth/token', { grant_type: 'password', client_id: org.client_id, client_secret: org.client_secret });
    expect(grant.status).toBe(400);
    expect(grant.body.error).toBe('unsupported_grant_type');
  });

  it('a fast-path answer is logged like any request: its request line with the request id, never the secret or the token', async () => {
    await cached();
    const res = await send('form', {}, 'trace-fast-token-1');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('trace-fast-token-1');
    const line = await waitFor(() => lines.find((l) => l.request_id === 'trace-fast-token-1' && l.msg === 'request completed'), { what: 'the request line' });
    expect(line).toMatchObject({ method: 'POST', url: '/v2/auth/token', status: 200 });
    expect(JSON.stringify(lines)).not.toContain(org.client_secret);
    expect(JSON.stringify(lines)).not.toContain(res.body.access_token);
  });
});
