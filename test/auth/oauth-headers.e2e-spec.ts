import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { authorizeQuery, pkce, REDIRECT, registerClient } from './oauth-helpers';

/** Security headers on API, HTML and OAuth responses (src/core/http/security-headers.ts). */

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

function expectCommon(res: { headers: Headers }) {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
}

describe('security headers', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  it('JSON responses of both interfaces, errors included: nosniff, no-referrer, DENY and a strict CSP; no HSTS over http', async () => {
    for (const res of [
      await t.get('/v2/scopes/', { token }),
      await t.get('/v1/courses', { token }),
      await t.get('/v2/scopes/'), // 401
      await t.get('/v2/nowhere', { token }), // 404
      await t.get('/.well-known/oauth-authorization-server'),
    ]) {
      expectCommon(res);
      expect(res.headers.get('content-security-policy')).toBe(API_CSP);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('the token endpoint: no-store on success and on errors, with the same headers', async () => {
    const ok = await t.post('/v2/auth/token', { client_id: org.client_id, client_secret: org.client_secret });
    expect(ok.status).toBe(200);
    const bad = await t.post('/v2/auth/token', { client_id: org.client_id, client_secret: 'wrong' });
    expect(bad.status).toBe(401);
    const revoke = await t.post('/v2/auth/revoke', { token: 'x' });
    for (const res of [ok, bad, revoke]) {
      expectCommon(res);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toBe(API_CSP);
    }
  });

  it('the authorization page keeps its own stricter CSP (hashed style, form-action) and gets the common headers', async () => {
    const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'clients:read' });
    const page = await t.get(authorizeQuery({ response_type: 'code', client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256', state: 's' }));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expectCommon(page);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain('form-action');
    // the HTML error page (unknown client) too
    const error = await t.get(authorizeQuery({ response_type: 'code', client_id: 'nope', redirect_uri: REDIRECT }));
    expect(error.status).toBe(400);
    expectCommon(error);
    expect(error.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('/docs (Swagger UI) gets a CSP that lets it load: its own scripts and styles, and no inline script is needed', async () => {
    const docs = await t.get('/docs');
    expect(docs.status).toBe(200);
    expectCommon(docs);
    const csp = docs.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    // every script of the page is an external file of /docs (script-src 'self' without 'unsafe-inline')
    const scripts = [...docs.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src=/);
      expect(body.trim()).toBe('');
    }
    const init = await t.get('/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    expect(init.headers.get('content-security-policy')).toBe(csp);
  });
});

describe('Strict-Transport-Security', () => {
  it('sent on every response when PUBLIC_URL is https', async () => {
    const t = await startTestApp({ PUBLIC_URL: 'https://api.example.test' });
    try {
      const res = await t.get('/v2/scopes/');
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect((await t.get('/health')).headers.get('strict-transport-security')).toBe('max-age=31536000');
    } finally {
      await t.close();
    }
  });

  it('sent when the request came over https through a trusted proxy; X-Forwarded-Proto is ignored otherwise', async () => {
    const trusting = await startTestApp({ TRUST_PROXY: true, PUBLIC_URL: 'http://127.0.0.1:3000' });
    const plain = await startTestApp({ TRUST_PROXY: false, PUBLIC_URL: 'http://127.0.0.1:3000' });
    try {
      const headers = { 'x-forwarded-proto': 'https' };
      expect((await trusting.get('/v2/scopes/', { headers })).headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect((await trusting.get('/v2/scopes/')).headers.get('strict-transport-security')).toBeNull();
      expect((await plain.get('/v2/scopes/', { headers })).headers.get('strict-transport-security')).toBeNull();
    } finally {
      await trusting.close();
      await plain.close();
    }
  });
});
