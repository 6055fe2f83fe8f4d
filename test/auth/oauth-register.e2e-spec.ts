import { sha256 } from '../../src/core/crypto/crypto';
import { startTestApp, TestApp } from '../support/app';
import { REDIRECT } from './oauth-helpers';

describe('RFC 7591 dynamic client registration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ REGISTER_RATE_LIMIT: 1000 });
  });
  afterAll(() => t.close());

  const register = (body: unknown) => t.post('/v2/oauth/register', body);

  it('a public client (none) gets a client_id and no secret; it belongs to no organization yet', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await register({ client_name: 'CLI tool', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', scope: 'clients:read courses:read' });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      client_id: expect.any(String),
      client_id_issued_at: expect.any(Number),
      client_name: 'CLI tool',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'clients:read courses:read',
    });
    expect(res.body.client_id_issued_at).toBeGreaterThanOrEqual(before - 1);
    expect(res.body.client_id_issued_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
    const [row] = await t.ds.query(`SELECT organization_id, is_dynamic, secret_hash FROM oauth_clients WHERE client_id = $1`, [res.body.client_id]);
    expect(row).toEqual({ organization_id: null, is_dynamic: true, secret_hash: null });
  });

  it('a confidential client gets a one-time secret (stored hashed) with client_secret_expires_at 0; client_secret_post is the default', async () => {
    const res = await register({ client_name: 'Server app', redirect_uris: ['https://app.example.test/cb'] });
    expect(res.status).toBe(201);
    expect(res.body.token_endpoint_auth_method).toBe('client_secret_post');
    expect(res.body.client_secret).toEqual(expect.any(String));
    expect(res.body.client_secret_expires_at).toBe(0);
    const [row] = await t.ds.query(`SELECT secret_hash FROM oauth_clients WHERE client_id = $1`, [res.body.client_id]);
    expect(Buffer.compare(row.secret_hash, sha256(res.body.client_secret))).toBe(0);

    const basic = await register({ client_name: 'Basic app', redirect_uris: ['https://app.example.test/cb'], token_endpoint_auth_method: 'client_secret_basic' });
    expect(basic.status).toBe(201);
    expect(basic.body.token_endpoint_auth_method).toBe('client_secret_basic');
    expect(basic.body.client_secret).toEqual(expect.any(String));
  });

  it('a registered client may use only the authorization code grant', async () => {
    const res = await register({ client_name: 'Server app', redirect_uris: ['https://app.example.test/cb'] });
    const token = await t.post('/v2/auth/token', { grant_type: 'client_credentials', client_id: res.body.client_id, client_secret: res.body.client_secret });
    expect(token.status).toBe(400);
    expect(token.body.error).toBe('unauthorized_client');
  });

  it('accepts https and loopback http redirect URIs', async () => {
    for (const uri of ['http://127.0.0.1/cb', 'http://localhost:3000/cb', 'http://[::1]:9000/cb', 'https://app.example.test/cb?tenant=1']) {
      const res = await register({ client_name: 'ok', redirect_uris: [uri] });
      expect({ uri, status: res.status }).toEqual({ uri, status: 201 });
      expect(res.body.redirect_uris).toEqual([uri]);
    }
  });

  it.each([
    ['missing', undefined],
    ['null', null],
    ['empty', []],
    ['not an array', 'https://app.example.test/cb'],
    ['not strings', [42]],
    ['plain http on a public host', ['http://app.example.test/cb']],
    ['a fragment', ['https://app.example.test/cb#frag']],
    ['relative', ['/cb']],
    ['javascript:', ['javascript:alert(1)']],
    ['a custom scheme', ['com.example.app:/cb']],
    ['user info', ['https://user:pw@app.example.test/cb']],
    ['one bad among good', ['https://app.example.test/cb', 'http://evil.example/cb']],
  ])('redirect_uris %s: 400 invalid_redirect_uri', async (_label, uris) => {
    const res = await register({ client_name: 'x', ...(uris === undefined ? {} : { redirect_uris: uris }) });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({ error: 'invalid_redirect_uri', error_description: expect.any(String) });
  });

  it.each([
    ['an unknown auth method', { token_endpoint_auth_method: 'private_key_jwt' }],
    ['client_credentials', { grant_types: ['client_credentials'] }],
    ['password', { grant_types: ['authorization_code', 'password'] }],
    ['refresh_token without authorization_code', { grant_types: ['refresh_token'] }],
    ['grant_types not a list', { grant_types: 'authorization_code' }],
    ['response type token', { response_types: ['token'] }],
    ['empty response types', { response_types: [] }],
    ['an unknown scope', { scope: 'clients:read nope:read' }],
    ['scope not a string', { scope: ['clients:read'] }],
    ['no client_name', { client_name: undefined }],
    ['client_name too long', { client_name: 'x'.repeat(256) }],
  ])('%s: 400 invalid_client_metadata', async (_label, extra) => {
    const res = await register({ client_name: 'x', redirect_uris: [REDIRECT], ...extra });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_client_metadata', error_description: expect.any(String) });
  });

  it('accepts the allowed grant and response types explicitly', async () => {
    const res = await register({ client_name: 'x', redirect_uris: [REDIRECT], grant_types: ['authorization_code'], response_types: ['code'] });
    expect(res.status).toBe(201);
    expect(res.body.grant_types).toEqual(['authorization_code']);
  });

  it('a body that is not a JSON object is a 400 in the RFC 7591 shape', async () => {
    for (const res of [await register([1, 2]), await t.request('POST', '/v2/oauth/register', { raw: { contentType: 'application/json', data: '{"client_name": ' } })]) {
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_client_metadata');
      expect(res.body.errors).toBeUndefined();
    }
  });

  it('other methods are 405 with Allow: POST, in the RFC 7591 shape', async () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const res = await t.request(method, '/v2/oauth/register');
      expect({ method, status: res.status }).toEqual({ method, status: 405 });
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body).toEqual({ error: expect.any(String), error_description: expect.any(String) });
    }
    for (const method of ['HEAD', 'OPTIONS']) {
      const res = await t.request(method, '/v2/oauth/register');
      expect({ method, status: res.status }).toEqual({ method, status: 405 });
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
});

describe('registration rate limit (per IP, kept in Redis)', () => {
  let t: TestApp;
  let twin: TestApp;
  const body = { client_name: 'x', redirect_uris: [REDIRECT] };

  beforeAll(async () => {
    t = await startTestApp({ REGISTER_RATE_LIMIT: 3, REGISTER_RATE_WINDOW_SECONDS: 60, TRUST_PROXY: true });
    // a second API instance on the same Redis prefix shares the counters
    twin = await startTestApp({ REGISTER_RATE_LIMIT: 3, REGISTER_RATE_WINDOW_SECONDS: 60, TRUST_PROXY: true, REDIS_PREFIX: t.config.REDIS_PREFIX });
  });
  afterAll(async () => {
    await t.close();
    await twin.close();
  });

  const from = (app: TestApp, ip: string) => app.post('/v2/oauth/register', body, { headers: { 'x-forwarded-for': ip } });

  it('answers 429 with Retry-After and RateLimit-* headers after REGISTER_RATE_LIMIT requests in the window', async () => {
    const first = await from(t, '203.0.113.7');
    expect(first.status).toBe(201);
    expect(first.headers.get('ratelimit-limit')).toBe('3');
    expect(first.headers.get('ratelimit-remaining')).toBe('2');
    expect((await from(t, '203.0.113.7')).status).toBe(201);
    // the third request goes to the other instance: the count is shared
    expect((await from(twin, '203.0.113.7')).status).toBe(201);
    const limited = await from(t, '203.0.113.7');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit-limit')).toBe('3');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toBeTruthy();
    expect(limited.body).toEqual({ error: expect.any(String), error_description: expect.any(String) });
    expect((await from(twin, '203.0.113.7')).status).toBe(429);
  });

  it('counts each IP separately', async () => {
    expect((await from(t, '198.51.100.9')).status).toBe(201);
  });
});
