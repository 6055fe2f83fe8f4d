import { INestApplicationContext } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZipFile } from 'yazl';
import { loadConfig } from '../../src/core/config/config';
import { decodeId, encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';

function zip(entries: [string, string][]): Promise<Buffer> {
  const z = new ZipFile();
  for (const [name, data] of entries) z.addBuffer(Buffer.from(data), name);
  z.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    z.outputStream.on('data', (c: Buffer) => chunks.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    z.outputStream.on('error', reject);
  });
}

const SCORM2004 = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="m" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>Business Ethics</title><item identifier="i1" identifierref="r1"><title>Start</title></item></organization></organizations>
  <resources><resource identifier="r1" type="webcontent" adlcp:scormType="sco" href="index.html"><file href="index.html"/></resource></resources>
</manifest>`;

/** A local HTTP server the worker fetches the archives from (ALLOW_PRIVATE_URLS in this test). */
async function serveFiles() {
  const bodies = new Map<string, Buffer>();
  const server = http.createServer((req, res) => {
    const body = bodies.get((req.url ?? '').split('?')[0]);
    if (body) res.writeHead(200, { 'content-type': 'application/zip' }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    host: (name: string, body: Buffer) => {
      bodies.set(`/${name}`, body);
      return `http://127.0.0.1:${port}/${name}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const item = (content_url: string, title = 'Package') => ({ type: 'web-packages', attributes: { content_url, title } });

describe('/v2/web-packages', () => {
  let t: TestApp;
  let worker: INestApplicationContext;
  let srv: Awaited<ReturnType<typeof serveFiles>>;
  let storageDir: string;
  let org: CreatedOrg;
  let token: string;

  /** Poll the read until the import has finished. */
  async function settled(id: string, tok = token) {
    for (let i = 0; i < 300; i++) {
      const r = await t.get(`/v2/web-packages/${id}`, { token: tok });
      if (r.body.data.attributes.state !== 'PROCESSING') return r.body.data;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error(`web package ${id} still PROCESSING`);
  }

  beforeAll(async () => {
    srv = await serveFiles();
    storageDir = mkdtempSync(join(tmpdir(), 'cp-wpk2-'));
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true, STORAGE_DIR: storageDir, BATCH_MAX_ITEMS: 5 });
    worker = await createWorker(loadConfig(process.env, { ...t.config }));
    await worker.init();
    org = await t.newOrg();
    token = await t.tokenFor(org, ['web-packages:read', 'web-packages:write', 'lessons:write', 'courses:write']);
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await srv?.close();
    if (storageDir) rmSync(storageDir, { recursive: true, force: true });
  });

  it('401 without a token; 403 without the web-packages scopes on every operation', async () => {
    const id = encodeId('webPackage', newUuid());
    expect((await t.get('/v2/web-packages/')).status).toBe(401);
    const other = await t.tokenFor(org, ['assets:read', 'assets:write']);
    const readOnly = await t.tokenFor(org, ['web-packages:read']);
    for (const [method, path, tok] of [
      ['GET', '/v2/web-packages/', other],
      ['GET', `/v2/web-packages/${id}`, other],
      ['POST', '/v2/web-packages/', readOnly],
      ['PATCH', '/v2/web-packages/', readOnly],
      ['DELETE', `/v2/web-packages/${id}`, readOnly],
    ]) {
      const res = await t.request(method, path, { token: tok, body: method === 'GET' || method === 'DELETE' ? undefined : { data: [item('http://x.test/a.zip')] } });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
  });

  it('create answers PROCESSING at once; the worker makes a good archive READY and a bad one ERROR; a refused URL fails its item only (207)', async () => {
    const good = srv.host(
      'ethics.zip',
      await zip([
        ['imsmanifest.xml', SCORM2004],
        ['index.html', '<p>hi</p>'],
      ]),
    );
    const bad = srv.host('broken.zip', Buffer.from('%PDF-1.4 definitely not a zip'));
    const res = await t.post('/v2/web-packages/', { data: [item(good, 'Ethics'), item(bad, 'Broken'), item('ftp://example.com/x.zip', 'Refused'), item(good, 'Ethics again')] }, { token });
    expect(res.status).toBe(207);
    expect(res.body.summary).toEqual({ total: 4, succeeded: 3, failed: 1 });
    const [a, b, c, d] = res.body.data;
    expect(a).toEqual({
      status: 'succeeded',
      id: expect.stringMatching(/^wpk[0-9a-z]{25}$/),
      result: {
        type: 'web-packages',
        id: a.id,
        attributes: {
          type: '',
          state: 'PROCESSING',
          title: 'Ethics',
          display_name: 'PROCESSING: ethics.zip',
          base_path: expect.stringMatching(/^org\/.+\/web-packages\/.+\/files$/),
          created_at: expect.any(String),
          modified_at: expect.any(String),
        },
        links: { self: `${t.baseUrl}/v2/web-packages/${a.id}` },
      },
    });
    expect(b.result.attributes.state).toBe('PROCESSING');
    expect(c).toEqual({ status: 'failed', id: null, error: { code: 'validation_error', detail: expect.stringContaining('content_url'), source: { pointer: '/data/2/attributes/content_url' } } });
    // no within-batch dedupe: the same URL twice is two packages
    expect(d.status).toBe('succeeded');
    expect(d.id).not.toBe(a.id);

    const ready = await settled(a.id);
    expect(ready.attributes).toMatchObject({ state: 'READY', type: 'SCORM_2004' });
    expect(ready.attributes.display_name).toBe(ready.attributes.title);
    const failed = await settled(b.id);
    expect(failed.attributes).toMatchObject({ state: 'ERROR', type: '', display_name: 'ERROR: broken.zip', title: 'Broken' });
  });

  it('the envelope: empty or over BATCH_MAX_ITEMS is 400 and creates nothing; a bad item is a validation_error with its pointer', async () => {
    const before = (await t.ds.query(`SELECT count(*)::int AS n FROM web_packages`))[0].n;
    for (const body of [{ data: [] }, { data: Array.from({ length: 6 }, () => item('http://127.0.0.1:9/x.zip')) }, { nodata: true }, []]) {
      const res = await t.post('/v2/web-packages/', body, { token });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].code).toBe('invalid_request');
    }
    const res = await t.post(
      '/v2/web-packages/',
      {
        data: [
          { type: 'assets', attributes: { content_url: 'http://127.0.0.1:9/x.zip', title: 't' } },
          { type: 'web-packages', attributes: { content_url: 'http://127.0.0.1:9/x.zip' } },
          item('http://127.0.0.1:9/x.zip', ''),
        ],
      },
      { token },
    );
    expect(res.status).toBe(207);
    expect(res.body.data.map((d: any) => [d.error.code, d.error.source.pointer])).toEqual([
      ['validation_error', '/data/0/type'],
      ['validation_error', '/data/1/attributes/title'],
      ['validation_error', '/data/2/attributes/title'],
    ]);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM web_packages`))[0].n).toBe(before);
  });

  it("update: the title only (server-owned members ignored); malformed, unknown and other organizations' ids are not_found; a repeated id ends with its last title", async () => {
    const created = await t.post('/v2/web-packages/', { data: [item(srv.host('u1.zip', Buffer.from('nope')), 'Old')] }, { token });
    const id = created.body.data[0].id;
    const settledPkg = await settled(id);
    expect(settledPkg.attributes.state).toBe('ERROR');
    const b = await t.newOrg();
    const tokenB = await t.tokenFor(b, ['web-packages:read', 'web-packages:write']);
    const foreign = (await t.post('/v2/web-packages/', { data: [item('http://127.0.0.1:9/f.zip', 'Theirs')] }, { token: tokenB })).body.data[0].id;

    const res = await t.patch(
      '/v2/web-packages/',
      {
        data: [
          { type: 'web-packages', id, attributes: { title: 'New', state: 'READY', type: 'XAPI', base_path: '/etc', display_name: 'Mine' } },
          { type: 'web-packages', id: foreign, attributes: { title: 'Hijack' } },
          { type: 'web-packages', id: 'wpk-nope', attributes: { title: 'x' } },
          { type: 'web-packages', id: encodeId('webPackage', newUuid()), attributes: { title: 'x' } },
          { type: 'web-packages', id, attributes: {} },
        ],
      },
      { token },
    );
    expect(res.status).toBe(207);
    expect(res.body.data.map((d: any) => (d.status === 'failed' ? `${d.error.code} ${d.error.source.pointer}` : d.status))).toEqual([
      'succeeded',
      'not_found /data/1/id',
      'not_found /data/2/id',
      'not_found /data/3/id',
      'validation_error /data/4/attributes/title',
    ]);
    expect(res.body.data[0].result.attributes).toMatchObject({ title: 'New', state: 'ERROR', type: '', display_name: 'ERROR: u1.zip' });
    expect((await t.get(`/v2/web-packages/${foreign}`, { token: tokenB })).body.data.attributes.title).toBe('Theirs');

    const twice = await t.patch(
      '/v2/web-packages/',
      {
        data: [
          { type: 'web-packages', id, attributes: { title: 'A' } },
          { type: 'web-packages', id, attributes: { title: 'B' } },
        ],
      },
      { token },
    );
    expect(twice.status).toBe(200);
    expect(twice.body.data.map((d: any) => d.result.attributes.title)).toEqual(['B', 'B']);
    expect((await t.get(`/v2/web-packages/${id}`, { token })).body.data.attributes.title).toBe('B');
  });

  it("list: the organization's packages oldest first, in cursor pages; another organization sees none of them", async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o, ['web-packages:read', 'web-packages:write']);
    const made = await t.post('/v2/web-packages/', { data: [1, 2, 3].map((i) => item(`http://127.0.0.1:9/p${i}.zip`, `P${i}`)) }, { token: tok });
    const ids = made.body.data.map((d: any) => d.id);
    const first = await t.get('/v2/web-packages/?page[size]=2', { token: tok });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.has_more).toBe(true);
    const rest = await t.get(`/v2/web-packages/?page[size]=2&page[cursor]=${encodeURIComponent(first.body.next_cursor)}`, { token: tok });
    expect(rest.body.has_more).toBe(false);
    // one INSERT: the same created_at, so the id orders them; the pages neither repeat nor skip
    expect([...first.body.data, ...rest.body.data].map((d: any) => d.id)).toEqual([...ids].sort((x: string, y: string) => (decodeId('webPackage', x)! < decodeId('webPackage', y)! ? -1 : 1)));
    const mine = await t.get('/v2/web-packages/?page[size]=100', { token });
    expect(mine.body.data.some((d: any) => ids.includes(d.id))).toBe(false);
    expect((await t.get(`/v2/web-packages/${ids[0]}`, { token })).status).toBe(404);
  });

  it("delete: 409 while a lesson uses the package (nothing removed); otherwise 204, then 404; another organization's package is 404 and stays", async () => {
    const made = await t.post('/v2/web-packages/', { data: [item('http://127.0.0.1:9/d1.zip', 'Used'), item('http://127.0.0.1:9/d2.zip', 'Free')] }, { token });
    const [used, free] = made.body.data.map((d: any) => d.id);
    const course = await t.post('/v2/courses/', { data: [{ type: 'courses', attributes: { title: 'With a package' } }] }, { token });
    const lesson = await t.post('/v1/lessons', { course_id: course.body.data[0].id, order: 1, title: 'Package lesson', type: 'WEB_PACKAGE', content_web_package_id: used }, { basic: org.api_key });
    expect(lesson.status).toBe(201);

    const refused = await t.delete(`/v2/web-packages/${used}`, { token });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('conflict');
    expect((await t.get(`/v2/web-packages/${used}`, { token })).status).toBe(200);

    const b = await t.newOrg();
    const tokenB = await t.tokenFor(b, ['web-packages:read', 'web-packages:write']);
    expect((await t.delete(`/v2/web-packages/${free}`, { token: tokenB })).status).toBe(404);
    expect((await t.get(`/v2/web-packages/${free}`, { token })).status).toBe(200);

    expect((await t.delete(`/v2/web-packages/${free}`, { token })).status).toBe(204);
    expect((await t.get(`/v2/web-packages/${free}`, { token })).status).toBe(404);
    expect((await t.delete(`/v2/web-packages/${free}`, { token })).status).toBe(404);
  });
});
