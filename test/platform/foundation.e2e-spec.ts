import { startTestApp, TestApp } from '../support/app';

describe('foundation: health, request ids, errors, body limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('GET /health checks Postgres and Redis', async () => {
    const res = await t.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok' } });
  });

  it('answers every request with an X-Request-Id, reusing a sane incoming one', async () => {
    const a = await t.get('/health');
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const b = await t.get('/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(b.headers.get('x-request-id')).toBe('abc-123');
    const c = await t.get('/health', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(c.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const doc = await t.get('/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/v2/auth/token', '/v2/clients']));
    const page = await t.get('/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
  });

  it('unknown routes are 404 in the interface envelope', async () => {
    const v2 = await t.get('/v2/nope');
    expect(v2.status).toBe(404);
    const v1 = await t.get('/v1/nope');
    expect(v1.status).toBe(404);
  });

  it('malformed JSON is 400, bodies over 1 MiB are 413, neither a 500', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const bad = await t.request('POST', '/v2/clients', { token, raw: { contentType: 'application/json', data: '{"name": ' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe('invalid_request');
    const big = await t.request('POST', '/v2/clients', {
      token,
      raw: { contentType: 'application/json', data: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }) },
    });
    expect(big.status).toBe(413);
    expect(big.body.errors[0].code).toBe('payload_too_large');
    const tokenBad = await t.request('POST', '/v2/auth/token', { raw: { contentType: 'application/json', data: '{' } });
    expect(tokenBad.status).toBe(400);
    expect(tokenBad.body.error).toBe('invalid_request');
  });

  it('accepts application/vnd.api+json bodies and answers /v2 with it', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const res = await t.request('POST', '/v2/clients', { token, raw: { contentType: 'application/vnd.api+json', data: JSON.stringify({ name: 'vnd' }) } });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
  });
});
