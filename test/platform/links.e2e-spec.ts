import { INestApplicationContext } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issuerUrl, loadConfig } from '../../src/core/config/config';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { insertCourse } from '../support/fixtures';

/**
 * CONVENTIONS §9: absolute links reach the server that answered. Without PUBLIC_URL they use the
 * request's scheme and host (X-Forwarded-* only with TRUST_PROXY); with PUBLIC_URL they use it.
 * The test server listens on a random port while its PORT setting stays 3000: a link built from
 * the old default (localhost:3000) would not reach it.
 */

/** GET through node:http, so that Host and X-Forwarded-* can be set freely. */
function rawGet(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function fetchJson(url: string, auth: string) {
  const res = await fetch(url, { headers: { authorization: auth } });
  return { status: res.status, body: (await res.json()) as any };
}

const bearer = (token: string) => `Bearer ${token}`;
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

async function createStudents(t: TestApp, token: string, n: number) {
  const data = Array.from({ length: n }, (_, i) => ({ type: 'students', attributes: { email: `links-${i}-${Math.random().toString(36).slice(2)}@example.test`, first_name: 'L', last_name: `${i}` } }));
  const res = await t.post('/v2/students/', { data }, { token });
  expect(res.status).toBe(200);
}

describe('links reach the server (no PUBLIC_URL)', () => {
  let t: TestApp;
  let worker: INestApplicationContext;
  let files: http.Server;
  let filesUrl: string;
  const BYTES = Buffer.from('%PDF-1.4\n% links\n%%EOF\n');

  beforeAll(async () => {
    files = http.createServer((req, res) => (req.url === '/doc.pdf' ? res.writeHead(200, { 'content-type': 'application/pdf' }).end(BYTES) : res.writeHead(404).end()));
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', () => r()));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true, STORAGE_DIR: mkdtempSync(join(tmpdir(), 'cp-links-')) });
    worker = await createWorker(loadConfig(process.env, { ...t.config }));
    await worker.init();
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await new Promise<void>((r) => (files ? files.close(() => r()) : r()));
    if (t) rmSync(t.config.STORAGE_DIR, { recursive: true, force: true });
  });

  it('the settings: no PUBLIC_URL, PORT 3000, and the server is elsewhere', () => {
    expect(t.config.PUBLIC_URL).toBeUndefined();
    expect(t.baseUrl).not.toBe('http://127.0.0.1:3000');
    expect(t.baseUrl).not.toBe('http://localhost:3000');
  });

  it('/v2 links.self and links.next are on the test server; following links.next with a real client gives the next page', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org, ['students:read', 'students:write']);
    await createStudents(t, token, 3);
    const first = await t.get('/v2/students/?page[size]=1', { token });
    expect(first.status).toBe(200);
    expect(first.body.links.self).toBe(`${t.baseUrl}/v2/students/?page[size]=1`);
    expect(first.body.links.next.startsWith(`${t.baseUrl}/v2/students/?`)).toBe(true);
    const seen = [first.body.data[0].id];
    let next: string | null = first.body.links.next;
    while (next) {
      const page = await fetchJson(next, bearer(token));
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((s: any) => s.id));
      next = page.body.links.next;
      if (next) expect(next.startsWith(`${t.baseUrl}/`)).toBe(true);
    }
    expect(new Set(seen).size).toBe(3);
  });

  it('/v1 next and previous are on the test server and reach it', async () => {
    const org = await t.newOrg();
    for (let i = 0; i < 3; i++) await insertCourse(t, org, { title: `Links ${i}` });
    const first = await t.get('/v1/courses?page_size=1', { basic: org.api_key });
    expect(first.status).toBe(200);
    expect(first.body.next).toBe(`${t.baseUrl}/v1/courses?page_size=1&page=2`);
    const second = await fetchJson(first.body.next, basic(org.api_key));
    expect(second.status).toBe(200);
    expect(second.body.results[0].id).not.toBe(first.body.results[0].id);
    expect(second.body.previous).toBe(`${t.baseUrl}/v1/courses?page_size=1`);
    const back = await fetchJson(second.body.previous, basic(org.api_key));
    expect(back.status).toBe(200);
    expect(back.body.results[0].id).toBe(first.body.results[0].id);
  });

  it('an asset download_url is on the test server and serves the file', async () => {
    const org = await t.newOrg();
    const created = await t.post('/v1/assets', { content_url: `${filesUrl}/doc.pdf` }, { basic: org.api_key });
    expect(created.status).toBe(201);
    let read: any;
    for (let i = 0; i < 200; i++) {
      read = await t.get(`/v1/assets/${created.body.id}`, { basic: org.api_key });
      if (read.body.state !== 'PROCESSING') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(read.body.state).toBe('READY');
    expect(read.body.download_url.startsWith(`${t.baseUrl}/files/`)).toBe(true);
    const res = await fetch(read.body.download_url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(BYTES)).toBe(true);
  });

  it('links follow the Host header; X-Forwarded-Proto/Host are ignored without TRUST_PROXY; a malformed Host falls back to the issuer', async () => {
    const org = await t.newOrg();
    for (let i = 0; i < 2; i++) await insertCourse(t, org, { title: `Host ${i}` });
    const auth = basic(org.api_key);
    const viaHost = await rawGet(t.baseUrl, '/v1/courses?page_size=1', { host: 'api.example.test:8443', authorization: auth });
    expect(viaHost.status).toBe(200);
    expect(viaHost.body.next).toBe('http://api.example.test:8443/v1/courses?page_size=1&page=2');
    const forwarded = await rawGet(t.baseUrl, '/v1/courses?page_size=1', {
      host: 'api.example.test:8443',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'proxy.example.test',
      authorization: auth,
    });
    expect(forwarded.body.next).toBe('http://api.example.test:8443/v1/courses?page_size=1&page=2');
    const bad = await rawGet(t.baseUrl, '/v1/courses?page_size=1', { host: 'evil.test/x?y=', authorization: auth });
    expect(bad.status).toBe(200);
    expect(bad.body.next).toBe(`${issuerUrl(t.config)}/v1/courses?page_size=1&page=2`);
  });

  it('the issuer is http://localhost:${PORT}; RFC 8414 endpoints are on the request base', async () => {
    const meta = await t.get('/.well-known/oauth-authorization-server');
    expect(meta.body.issuer).toBe('http://localhost:3000');
    expect(meta.body.token_endpoint).toBe(`${t.baseUrl}/v2/auth/token`);
    const org = await t.newOrg();
    const token = await t.tokenFor(org, ['students:read']);
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
    expect(claims.iss).toBe('http://localhost:3000');
  });
});

describe('links behind a trusted proxy (TRUST_PROXY on, PORT 8080)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: true, PORT: 8080 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('X-Forwarded-Proto and X-Forwarded-Host make the links; the issuer follows PORT', async () => {
    const org = await t.newOrg();
    for (let i = 0; i < 2; i++) await insertCourse(t, org, { title: `Proxy ${i}` });
    const res = await rawGet(t.baseUrl, '/v1/courses?page_size=1', {
      host: '127.0.0.1',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'proxy.example.test',
      authorization: basic(org.api_key),
    });
    expect(res.status).toBe(200);
    expect(res.body.next).toBe('https://proxy.example.test/v1/courses?page_size=1&page=2');
    // without the headers, the request's own host
    const direct = await t.get('/v1/courses?page_size=1', { basic: org.api_key });
    expect(direct.body.next).toBe(`${t.baseUrl}/v1/courses?page_size=1&page=2`);
    expect((await t.get('/.well-known/oauth-authorization-server')).body.issuer).toBe('http://localhost:8080');
  });
});

describe('PUBLIC_URL wins when set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://api.example.test/base/', TRUST_PROXY: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('links, the issuer and the metadata use PUBLIC_URL whatever Host or X-Forwarded-* say', async () => {
    const org = await t.newOrg();
    for (let i = 0; i < 2; i++) await insertCourse(t, org, { title: `Public ${i}` });
    const res = await rawGet(t.baseUrl, '/v1/courses?page_size=1', {
      host: 'other.example.test',
      'x-forwarded-host': 'proxy.example.test',
      authorization: basic(org.api_key),
    });
    expect(res.body.next).toBe('https://api.example.test/base/v1/courses?page_size=1&page=2');
    const token = await t.tokenFor(org, ['students:read', 'students:write']);
    await createStudents(t, token, 2);
    const v2 = await t.get('/v2/students/?page[size]=1', { token });
    expect(v2.body.links.next.startsWith('https://api.example.test/base/v2/students/?')).toBe(true);
    const meta = await t.get('/.well-known/oauth-authorization-server');
    expect(meta.body.issuer).toBe('https://api.example.test/base/');
    expect(meta.body.token_endpoint).toBe('https://api.example.test/base/v2/auth/token');
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
    expect(claims.iss).toBe('https://api.example.test/base/');
  });
});
