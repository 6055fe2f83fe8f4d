import { INestApplicationContext } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, loadConfig } from '../../src/core/config/config';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { insertCourse, insertLesson, orgUuid } from '../support/fixtures';
import { drfFlat } from '../support/drf';

/** A real HTTP server on 127.0.0.1 serving the files the worker downloads. */
async function serveFiles(routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>) {
  const server = http.createServer((req, res) => {
    const route = routes[(req.url ?? '').split('?')[0]];
    if (route) route(req, res);
    else res.writeHead(404).end('nope');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function startWorker(t: TestApp, overrides: Partial<AppConfig> = {}): Promise<INestApplicationContext> {
  const w = await createWorker(loadConfig(process.env, { ...t.config, ...overrides }));
  await w.init();
  return w;
}

/** Poll a read until the asset has left PROCESSING. */
async function settled(t: TestApp, id: string, basic: string) {
  for (let i = 0; i < 200; i++) {
    const r = await t.get(`/v1/assets/${id}`, { basic });
    if (r.body.state !== 'PROCESSING') return r;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`asset ${id} still PROCESSING`);
}

/** The path and query of a signed download URL (which points at the test server itself). */
function local(t: TestApp, url: string) {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

const VIDEO = Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypmp42'), Buffer.alloc(5000, 7)]);
const PDF = Buffer.from('%PDF-1.4\n% test\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

describe('/v1/assets', () => {
  let t: TestApp;
  let worker: INestApplicationContext;
  let files: Awaited<ReturnType<typeof serveFiles>>;
  beforeAll(async () => {
    files = await serveFiles({
      '/media/intro%20video.mp4': (_q, r) => r.writeHead(200, { 'content-type': 'video/mp4' }).end(VIDEO),
      '/doc': (_q, r) => r.writeHead(200, { 'content-type': 'application/octet-stream' }).end(PDF),
      '/page.html': (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<script>alert(1)</script>'),
      '/big.bin': (_q, r) => r.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(64 * 1024, 1)),
      '/to-file': (_q, r) => r.writeHead(302, { location: 'file:///etc/passwd' }).end(),
      '/gone': (_q, r) => r.writeHead(404).end(),
    });
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true, STORAGE_DIR: mkdtempSync(join(tmpdir(), 'cp-assets-')) });
    worker = await startWorker(t, { ASSET_MAX_BYTES: 32 * 1024 });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await files?.close();
    if (t) rmSync(t.config.STORAGE_DIR, { recursive: true, force: true });
  });

  it('401 without credentials; 403 with a token lacking assets scopes', async () => {
    expect((await t.get('/v1/assets')).status).toBe(401);
    expect((await t.post('/v1/assets', { content_url: `${files.url}/doc` })).status).toBe(401);
    const org = await t.newOrg();
    const token = await t.tokenFor(org, ['courses:read']);
    expect((await t.get('/v1/assets', { token })).status).toBe(403);
    expect((await t.get('/v1/assets/ast_AAAAAAAAAAAAAAAAAAAAAA', { token })).status).toBe(403);
    const readOnly = await t.tokenFor(org, ['assets:read']);
    const denied = await t.post('/v1/assets', { content_url: `${files.url}/doc` }, { token: readOnly });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ detail: expect.any(String) });
  });

  it('create from content_url answers at once (no type, no download_url); the worker re-hosts it; read gives a signed download_url whose bytes match', async () => {
    const org = await t.newOrg();
    const created = await t.post('/v1/assets', { content_url: `${files.url}/media/intro%20video.mp4` }, { basic: org.api_key });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-z]+$/),
      name: 'intro video.mp4',
      aspect_ratio: '16:9',
      sync_completion: false,
      state: 'PROCESSING',
      failure_reason: null,
    });
    const read = await settled(t, created.body.id, org.api_key);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: created.body.id, type: 'VIDEO_BOTR', state: 'READY', download_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/files\//) });
    expect(read.body.download_url.startsWith(`${t.baseUrl}/files/`)).toBe(true);
    const expires = Number(new URL(read.body.download_url).searchParams.get('expires'));
    expect(expires - Date.now() / 1000).toBeGreaterThan(3500);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(3600);

    const res = await fetch(read.body.download_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(VIDEO)).toBe(true);

    // the list has no download URLs
    const list = await t.get('/v1/assets', { basic: org.api_key });
    expect(list.body.results).toHaveLength(1);
    expect(list.body.results[0].download_url).toBeUndefined();
    expect(list.body.results[0].type).toBe('VIDEO_BOTR');
  });

  it('signed URLs: an edited signature, an edited path, an expired or missing signature are 403 {"detail"}', async () => {
    const org = await t.newOrg();
    const created = await t.post('/v1/assets', { content_url: `${files.url}/doc` }, { basic: org.api_key });
    const read = await settled(t, created.body.id, org.api_key);
    expect(read.body).toMatchObject({ type: 'PDF', state: 'READY' });
    const good = new URL(read.body.download_url);
    expect((await t.get(local(t, good.toString()))).status).toBe(200);

    const sig = good.searchParams.get('signature')!;
    const edited = new URL(good);
    edited.searchParams.set('signature', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    const r1 = await t.get(local(t, edited.toString()));
    expect(r1.status).toBe(403);
    expect(r1.body).toEqual({ detail: expect.any(String) });

    const later = new URL(good);
    later.searchParams.set('expires', String(Number(good.searchParams.get('expires')) + 3600));
    expect((await t.get(local(t, later.toString()))).status).toBe(403);

    const otherPath = new URL(good);
    otherPath.pathname = otherPath.pathname.replace(/[^/]+$/, 'other.pdf');
    expect((await t.get(local(t, otherPath.toString()))).status).toBe(403);

    const noSig = new URL(good);
    noSig.search = '';
    expect((await t.get(local(t, noSig.toString()))).status).toBe(403);

    // expired: a URL signed an hour and a bit ago
    const { signedFileUrl } = await import('../../src/core/storage/storage');
    const key = decodeURIComponent(good.pathname.replace(/^\/files\//, ''));
    const old = signedFileUrl(t.config, key, t.baseUrl, Date.now() - 3601 * 1000);
    const r2 = await t.get(local(t, old));
    expect(r2.status).toBe(403);
    expect(r2.body).toEqual({ detail: expect.any(String) });
  });

  it('HTML is served as an attachment with a sandboxing CSP (never rendered from the API origin)', async () => {
    const org = await t.newOrg();
    const created = await t.post('/v1/assets', { content_url: `${files.url}/page.html` }, { basic: org.api_key });
    const read = await settled(t, created.body.id, org.api_key);
    expect(read.body.type).toBe('HTML');
    const res = await fetch(read.body.download_url);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('create from asset.embed_link_url only: READY at once with the given name and options; Bearer works', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const created = await t.post('/v1/assets', { asset: { embed_link_url: 'https://player.example.com/embed/abc', name: 'Demo', aspect_ratio: '4:3', sync_completion: true } }, { token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Demo', type: 'HTML', embed_link_url: 'https://player.example.com/embed/abc', aspect_ratio: '4:3', sync_completion: true, state: 'READY' });
    const read = await t.get(`/v1/assets/${created.body.id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body.download_url).toBeUndefined();
    const dflt = await t.post('/v1/assets', { asset: { embed_link_url: 'https://player.example.com/v/clip-7' } }, { token });
    expect(dflt.body).toMatchObject({ name: 'clip-7', aspect_ratio: '16:9', sync_completion: false });
    const list = await t.get('/v1/assets', { token });
    expect(list.body.results.map((a: any) => a.id)).toEqual([created.body.id, dflt.body.id]);
    expect((await t.delete(`/v1/assets/${dflt.body.id}`, { token })).status).toBe(204);
    expect((await t.get('/v1/assets', { token })).body.count).toBe(1);
  });

  it('bad input is 400 with field errors, never a 500', async () => {
    const org = await t.newOrg();
    const basic = org.api_key;
    const cases: [unknown, string][] = [
      [{}, 'asset.embed_link_url'],
      [{ asset: {} }, 'asset.embed_link_url'],
      [{ content_url: '' }, 'content_url'],
      [{ content_url: 5 }, 'content_url'],
      [{ content_url: 'not a url' }, 'content_url'],
      [{ content_url: 'ftp://example.com/x.pdf' }, 'content_url'],
      [{ content_url: 'http://user:pw@example.com/x.pdf' }, 'content_url'],
      [{ asset: { embed_link_url: 'javascript:alert(1)' } }, 'asset.embed_link_url'],
      [{ asset: { embed_link_url: 'https://e.x/', aspect_ratio: '21:9' } }, 'asset.aspect_ratio'],
      [{ asset: { embed_link_url: 'https://e.x/', sync_completion: 'yes' } }, 'asset.sync_completion'],
      [{ asset: 'x' }, 'asset'],
    ];
    for (const [body, field] of cases) {
      const r = await t.post('/v1/assets', body, { basic });
      expect([r.status, JSON.stringify(body)]).toEqual([400, JSON.stringify(body)]);
      expect(drfFlat(r.body)[field]).toEqual(expect.arrayContaining([expect.any(String)]));
    }
    expect((await t.request('POST', '/v1/assets', { basic, raw: { contentType: 'application/json', data: '[1]' } })).status).toBe(400);
    expect((await t.get('/v1/assets?page=0', { basic })).status).toBe(400);
    expect((await t.get('/v1/assets?page_size=x', { basic })).status).toBe(400);
    expect((await t.get('/v1/assets', { basic })).body.count).toBe(0);
  });

  it('the worker caps the size; a redirect to a non-http URL and a 404 source end FAILED with a reason (no retry)', async () => {
    const org = await t.newOrg();
    const basic = org.api_key;
    const big = await t.post('/v1/assets', { content_url: `${files.url}/big.bin` }, { basic });
    const redirect = await t.post('/v1/assets', { content_url: `${files.url}/to-file` }, { basic });
    const bigRead = await settled(t, big.body.id, basic);
    expect(bigRead.body).toMatchObject({ state: 'FAILED', failure_reason: expect.stringMatching(/too large/) });
    expect(bigRead.body.download_url).toBeUndefined();
    expect(bigRead.body.type).toBeUndefined();
    const redirectRead = await settled(t, redirect.body.id, basic);
    expect(redirectRead.body).toMatchObject({ state: 'FAILED', failure_reason: expect.stringMatching(/only http and https/) });
    const gone = await t.post('/v1/assets', { content_url: `${files.url}/gone` }, { basic });
    const goneRead = await settled(t, gone.body.id, basic);
    expect(goneRead.body).toMatchObject({ state: 'FAILED', failure_reason: 'The download failed: the server answered 404.' });
  });

  it('list: page_size is caller-set and capped at 100, pages link to each other', async () => {
    const org = await t.newOrg();
    const basic = org.api_key;
    await t.ds.query(`INSERT INTO assets (organization_id, name, embed_link_url, state, type) SELECT $1, 'a' || g, 'https://e.x/' || g, 'READY', 'HTML' FROM generate_series(1, 105) g`, [
      orgUuid(org),
    ]);
    const p1 = await t.get('/v1/assets?page_size=2', { basic });
    expect(p1.body.count).toBe(105);
    expect(p1.body.results).toHaveLength(2);
    expect(p1.body.previous).toBeNull();
    expect(p1.body.next).toContain('page=2');
    const capped = await t.get('/v1/assets?page_size=1000', { basic });
    expect(capped.body.results).toHaveLength(100);
    const dflt = await t.get('/v1/assets?page=2', { basic });
    expect(dflt.body.results).toHaveLength(5);
    expect((await t.get('/v1/assets?page=9', { basic })).status).toBe(404);
  });

  it('delete: 204 and the stored file is gone; refused with 400 while a lesson uses the asset', async () => {
    const org = await t.newOrg();
    const basic = org.api_key;
    const created = await t.post('/v1/assets', { content_url: `${files.url}/doc` }, { basic });
    const read = await settled(t, created.body.id, basic);
    const used = await t.post('/v1/assets', { asset: { embed_link_url: 'https://e.x/used' } }, { basic });
    const course = await insertCourse(t, org);
    const lesson = await insertLesson(t, org, course.uuid, { type: 'ASSET' });
    const { decodeId } = await import('../../src/core/ids/ids');
    await t.ds.query(`UPDATE lessons SET content_asset_id = $1 WHERE id = $2`, [decodeId('asset', used.body.id), lesson.uuid]);
    const refused = await t.delete(`/v1/assets/${used.body.id}`, { basic });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ detail: expect.any(String) });

    expect((await t.delete(`/v1/assets/${created.body.id}`, { basic })).status).toBe(204);
    expect((await t.get(`/v1/assets/${created.body.id}`, { basic })).status).toBe(404);
    expect((await t.get(local(t, read.body.download_url))).status).toBe(404);
    expect((await t.delete(`/v1/assets/${created.body.id}`, { basic })).status).toBe(404);
  });

  it('cross-organization: another org never sees, reads or deletes an asset', async () => {
    const a = await t.newOrg();
    const b = await t.newOrg();
    const created = await t.post('/v1/assets', { asset: { embed_link_url: 'https://e.x/mine', name: 'Mine' } }, { basic: a.api_key });
    const tokenB = await t.tokenFor(b);
    expect((await t.get('/v1/assets', { basic: b.api_key })).body).toMatchObject({ count: 0, results: [] });
    expect((await t.get(`/v1/assets/${created.body.id}`, { basic: b.api_key })).status).toBe(404);
    expect((await t.get(`/v1/assets/${created.body.id}`, { token: tokenB })).status).toBe(404);
    expect((await t.delete(`/v1/assets/${created.body.id}`, { token: tokenB })).status).toBe(404);
    expect((await t.get(`/v1/assets/${created.body.id}`, { basic: a.api_key })).body.name).toBe('Mine');
    for (const bad of ['nope', 'wpk_AAAAAAAAAAAAAAAAAAAAAA', 'ast_AAAAAAAAAAAAAAAAAAAAAA']) {
      const r = await t.get(`/v1/assets/${bad}`, { basic: a.api_key });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ detail: expect.any(String) });
    }
  });
});

describe('/v1/assets: server-side request forgery', () => {
  let t: TestApp;
  let files: Awaited<ReturnType<typeof serveFiles>>;
  beforeAll(async () => {
    files = await serveFiles({ '/doc': (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF) });
    t = await startTestApp({ ALLOW_PRIVATE_URLS: false, STORAGE_DIR: mkdtempSync(join(tmpdir(), 'cp-assets-ssrf-')) });
  });
  afterAll(async () => {
    await t?.close();
    await files?.close();
    if (t) rmSync(t.config.STORAGE_DIR, { recursive: true, force: true });
  });

  it.each([
    'http://127.0.0.1/x.pdf',
    'http://169.254.169.254/latest/meta-data/',
    'http://2130706433/x.pdf',
    'http://0177.0.0.1/x.pdf',
    'http://0x7f000001/x.pdf',
    'http://[::1]/x.pdf',
    'http://[::ffff:169.254.169.254]/',
    'http://10.0.0.8/x.pdf',
    'http://localhost/x.pdf',
  ])('create refuses %s with a 400 field error and stores nothing', async (url) => {
    const org = await t.newOrg();
    const r = await t.post('/v1/assets', { content_url: url }, { basic: org.api_key });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ content_url: [expect.stringMatching(/not allowed/)] });
    expect((await t.get('/v1/assets', { basic: org.api_key })).body.count).toBe(0);
  });

  it('the worker checks again at connect time: a name that resolves to loopback fails the import', async () => {
    // accepted by an API that allows private URLs, downloaded by a worker that does not
    const lax = await startTestApp({ ALLOW_PRIVATE_URLS: true, STORAGE_DIR: t.config.STORAGE_DIR });
    const worker = await startWorker(lax, { ALLOW_PRIVATE_URLS: false });
    try {
      const org = await lax.newOrg();
      const viaName = await lax.post('/v1/assets', { content_url: `http://localhost:${files.port}/doc` }, { basic: org.api_key });
      const viaIp = await lax.post('/v1/assets', { content_url: `${files.url}/doc` }, { basic: org.api_key });
      expect(viaName.status).toBe(201);
      const a = await settled(lax, viaName.body.id, org.api_key);
      expect(a.body).toMatchObject({ state: 'FAILED', failure_reason: expect.stringMatching(/not allowed.*localhost resolves to a disallowed address/) });
      const b = await settled(lax, viaIp.body.id, org.api_key);
      expect(b.body).toMatchObject({ state: 'FAILED', failure_reason: expect.stringMatching(/not allowed/) });
    } finally {
      await worker.close();
      await lax.close();
    }
  });
});
