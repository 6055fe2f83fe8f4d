import { randomBytes } from 'node:crypto';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

/**
 * An unsupported method on a path that exists answers 405 with `Allow`, in the interface's error
 * envelope (CONVENTIONS §16; src/core/http/method-not-allowed.ts); a path that does not exist keeps
 * its 404, and so does a 404 a handler answers (an unknown id).
 */
describe('405 Method Not Allowed with Allow', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  const allowOf = (res: { headers: Headers }) => (res.headers.get('allow') ?? '').split(/,\s*/).filter(Boolean).sort();

  it('PUT /v2/courses/ (with and without the trailing slash, with a query): 405 in the JSON:API envelope', async () => {
    for (const path of ['/v2/courses/', '/v2/courses', '/v2/courses/?page[size]=2']) {
      const res = await t.request('PUT', path, { token, body: { data: [] } });
      expect({ path, status: res.status }).toEqual({ path, status: 405 });
      expect(allowOf(res)).toEqual(expect.arrayContaining(['GET', 'HEAD', 'POST']));
      expect(allowOf(res)).not.toContain('PUT');
      expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
      expect(res.body).toEqual({
        errors: [{ status: '405', code: 'method_not_allowed', title: 'Method not allowed', detail: 'Method "PUT" not allowed.' }],
        meta: { request_id: expect.any(String) },
      });
    }
  });

  it('a /v2 path with a parameter: POST /v2/students/{id} is 405, the GET of an unknown id stays 404', async () => {
    const id = `stu${randomBytes(8).toString('hex')}`;
    const res = await t.post(`/v2/students/${id}`, {}, { token });
    expect(res.status).toBe(405);
    expect(allowOf(res)).toEqual(expect.arrayContaining(['GET', 'HEAD']));
    expect(allowOf(res)).not.toContain('POST');
    expect(res.body.errors[0].code).toBe('method_not_allowed');
    const missing = await t.get(`/v2/students/${id}`, { token });
    expect(missing.status).toBe(404);
  });

  it('/v1 (through the /v1 fallback route): PUT /v1/courses answers {"detail"} 405, with or without credentials', async () => {
    for (const path of ['/v1/courses', '/v1/courses/']) {
      for (const basic of [org.api_key, undefined]) {
        const res = await t.request('PUT', path, { basic, body: {} });
        expect({ path, auth: !!basic, status: res.status }).toEqual({ path, auth: !!basic, status: 405 });
        expect(allowOf(res)).toEqual(expect.arrayContaining(['GET', 'HEAD', 'POST']));
        expect(allowOf(res)).not.toContain('PUT');
        expect(res.body).toEqual({ detail: 'Method "PUT" not allowed.' });
      }
    }
    // a path parameter; DELETE of a single course is served, POST is not
    const one = await t.post('/v1/courses/xyz123/', {}, { basic: org.api_key });
    expect(one.status).toBe(405);
    expect(allowOf(one)).toEqual(expect.arrayContaining(['GET', 'HEAD']));
    expect(allowOf(one)).not.toContain('POST');
    expect(one.body).toEqual({ detail: 'Method "POST" not allowed.' });
    // a bad API key is still refused before anything else on /v1
    const bad = await t.request('PUT', '/v1/courses', { basic: `cpk_${randomBytes(32).toString('base64url')}` });
    expect(bad.status).toBe(401);
  });

  it('the token endpoint answers in the RFC 6749 envelope, no-store', async () => {
    const res = await t.get('/v2/auth/token');
    expect(res.status).toBe(405);
    expect(allowOf(res)).toEqual(['POST']);
    expect(res.body).toEqual({ error: 'invalid_request', error_description: 'Method "GET" not allowed.' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('paths outside both interfaces: PUT /health, DELETE /openapi.json; HEAD where only POST is served', async () => {
    const health = await t.request('PUT', '/health');
    expect(health.status).toBe(405);
    expect(allowOf(health)).toEqual(['GET', 'HEAD']);
    expect(health.body.errors[0]).toEqual(expect.objectContaining({ status: '405', code: 'method_not_allowed' }));
    const doc = await t.request('DELETE', '/openapi.json');
    expect(doc.status).toBe(405);
    expect(allowOf(doc)).toEqual(['GET', 'HEAD']);
    const head = await t.request('HEAD', '/v2/auth/revoke');
    expect(head.status).toBe(405);
    expect(allowOf(head)).toEqual(['POST']);
  });

  it('paths that do not exist keep their 404, under every method', async () => {
    for (const [method, path] of [
      ['PUT', '/v2/no-such-thing/'],
      ['GET', '/v2/no-such-thing'],
      ['PUT', '/v1/no-such-thing/'],
      ['DELETE', '/v1/courses/x/no-such-thing'],
      ['PATCH', '/nowhere'],
    ] as const) {
      const res = await t.request(method, path, { basic: path.startsWith('/v1') ? org.api_key : undefined });
      expect({ method, path, status: res.status, allow: res.headers.get('allow') }).toEqual({ method, path, status: 404, allow: null });
    }
  });

  it('every documented path answers 405 to a method it does not serve, with Allow naming what it serves', async () => {
    const doc = (await t.get('/openapi.json')).body;
    const ALL = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'];
    const templates = Object.entries<Record<string, unknown>>(doc.paths).map(([template, ops]) => ({
      template,
      served: Object.keys(ops)
        .map((m) => m.toUpperCase())
        .filter((m) => ALL.includes(m)),
      pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    }));
    let probes = 0;
    const wrong: unknown[] = [];
    for (const { template, served } of templates) {
      const path = template.replace(/\{[^}]+\}/g, () => `x${randomBytes(4).toString('hex')}`);
      // a method another (parametric) path serves on the same URL is that path's, not a 405:
      // GET /v2/enrollments/completion is GET /v2/enrollments/{id}
      const unserved = ALL.find((m) => !served.includes(m) && !templates.some((o) => o.template !== template && o.served.includes(m) && o.pattern.test(path)));
      if (!unserved) continue;
      const res = await t.request(unserved, path, { basic: path.startsWith('/v1') ? org.api_key : undefined });
      const allow = allowOf(res);
      const expected = [...served, ...(served.includes('GET') ? ['HEAD'] : [])];
      if (res.status !== 405 || !expected.every((m) => allow.includes(m)) || allow.includes(unserved)) wrong.push({ method: unserved, path: template, status: res.status, allow });
      probes++;
    }
    expect(wrong).toEqual([]);
    expect(probes).toBeGreaterThan(100);
  });
});
