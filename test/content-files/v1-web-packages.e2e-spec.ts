import { INestApplicationContext } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZipFile } from 'yazl';
import { AppConfig, loadConfig } from '../../src/core/config/config';
import { decodeId } from '../../src/core/ids/ids';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { insertCourse, insertLesson, orgUuid } from '../support/fixtures';
import { drfFlat } from '../support/drf';

/** Build a zip in memory with yazl: [name, content, options?]. */
function zip(entries: [string, string | Buffer, { mode?: number; compress?: boolean }?][]): Promise<Buffer> {
  const z = new ZipFile();
  for (const [name, data, opts] of entries) z.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name, { compress: opts?.compress ?? true, ...(opts?.mode ? { mode: opts.mode } : {}) });
  z.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    z.outputStream.on('data', (c: Buffer) => chunks.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    z.outputStream.on('error', reject);
  });
}

/** yazl refuses unsafe names, as it should: write a placeholder of the same length and patch the bytes. */
function rename(buf: Buffer, from: string, to: string): Buffer {
  expect(Buffer.byteLength(from)).toBe(Buffer.byteLength(to));
  const out = Buffer.from(buf);
  const a = Buffer.from(from);
  const b = Buffer.from(to);
  let i = out.indexOf(a);
  let n = 0;
  while (i >= 0) {
    b.copy(out, i);
    n++;
    i = out.indexOf(a, i + 1);
  }
  expect(n).toBe(2); // local header and central directory
  return out;
}

const SCORM12 = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="com.example.safety" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="ORG-1">
    <organization identifier="ORG-0"><title>Not this one</title></organization>
    <organization identifier="ORG-1">
      <title>Safety &amp; Compliance 101</title>
      <item identifier="I1" identifierref="R1"><title>Module 1</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="R1" type="webcontent" adlcp:scormtype="sco" href="index.html"><file href="index.html"/></resource>
  </resources>
</manifest>`;

const SCORM2004 = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="com.example.ethics" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="ethics">
    <organization identifier="ethics">
      <title>Business Ethics</title>
      <item identifier="i1" identifierref="r1"><title>Start</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="r1" type="webcontent" adlcp:scormType="sco" href="content/start.html"><file href="content/start.html"/></resource>
  </resources>
</manifest>`;

const TINCAN = `<?xml version="1.0" encoding="utf-8"?>
<tincan xmlns="http://projecttincan.com/tincan.xsd">
  <activities>
    <activity id="http://example.com/course" type="http://adlnet.gov/expapi/activities/course">
      <name lang="en-US">Intro to xAPI</name>
      <launch lang="en-us">story.html</launch>
    </activity>
  </activities>
</tincan>`;

async function serveZips() {
  const bodies = new Map<string, Buffer>();
  const server = http.createServer((req, res) => {
    const body = bodies.get((req.url ?? '').split('?')[0]);
    if (body) res.writeHead(200, { 'content-type': 'application/zip' }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    host: (name: string, body: Buffer) => {
      bodies.set(`/${name}`, body);
      return `${url}/${name}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function startWorker(t: TestApp, overrides: Partial<AppConfig> = {}): Promise<INestApplicationContext> {
  const w = await createWorker(loadConfig(process.env, { ...t.config, ...overrides }));
  await w.init();
  return w;
}

async function settled(t: TestApp, id: string, basic: string) {
  for (let i = 0; i < 300; i++) {
    const r = await t.get(`/v1/web-packages/${id}`, { basic });
    if (r.body.state !== 'PROCESSING') return r;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`web package ${id} still PROCESSING`);
}

const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe('/v1/web-packages', () => {
  let t: TestApp;
  let worker: INestApplicationContext;
  let srv: Awaited<ReturnType<typeof serveZips>>;
  let storageDir: string;
  const create = (basic: string, content_url: string, title = 'Given title', extra: Record<string, unknown> = {}) =>
    t.post('/v1/web-packages', { content_url, web_package: { title, ...extra } }, { basic });
  const storedPrefix = (org: { organization_id: string }, id: string) => join(storageDir, 'org', decodeId('organization', org.organization_id)!, 'web-packages', decodeId('webPackage', id)!);

  beforeAll(async () => {
    srv = await serveZips();
    storageDir = mkdtempSync(join(tmpdir(), 'cp-wpk-'));
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true, STORAGE_DIR: storageDir });
    worker = await startWorker(t, { WEB_PACKAGE_MAX_EXPANDED_BYTES: 3 * 1024 * 1024, WEB_PACKAGE_MAX_ENTRIES: 50 });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await srv?.close();
    if (storageDir) rmSync(storageDir, { recursive: true, force: true });
  });

  it('401 without credentials; 403 without the web-packages scopes', async () => {
    expect((await t.get('/v1/web-packages')).status).toBe(401);
    expect((await t.request('PUT', '/v1/web-packages/wpk_AAAAAAAAAAAAAAAAAAAAAA/lessons', { body: { web_package_id: 'x' } })).status).toBe(401);
    const org = await t.newOrg();
    const token = await t.tokenFor(org, ['assets:read', 'assets:write']);
    expect((await t.get('/v1/web-packages', { token })).status).toBe(403);
    expect((await t.post('/v1/web-packages', { content_url: 'http://x.test/a.zip', web_package: { title: 't' } }, { token })).status).toBe(403);
    const readOnly = await t.tokenFor(org, ['web-packages:read']);
    expect((await t.request('DELETE', '/v1/web-packages/wpk_AAAAAAAAAAAAAAAAAAAAAA', { token: readOnly })).status).toBe(403);
    expect((await t.request('PUT', '/v1/web-packages/wpk_AAAAAAAAAAAAAAAAAAAAAA/lessons', { token: readOnly, body: { web_package_id: 'x' } })).status).toBe(403);
  });

  it('a SCORM 1.2 package: PROCESSING at once (no type, no download_url), then READY with the manifest title, stored unpacked and downloadable', async () => {
    const org = await t.newOrg();
    const body = await zip([
      ['imsmanifest.xml', SCORM12],
      ['index.html', '<html><body>Lesson one</body></html>'],
      ['assets/logo (1).png', randomBytes(300)],
    ]);
    const url = srv.host('safety.zip', body);
    const created = await create(org.api_key, url, 'Given title', { redirect_on_completion: false, sync_on_completion: true });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-z]+$/),
      title: 'Given title',
      state: 'PROCESSING',
      redirect_on_completion: false,
      sync_completion: true,
      failure_reason: null,
    });
    const read = await settled(t, created.body.id, org.api_key);
    expect(read.body).toMatchObject({ state: 'READY', type: 'SCORM', standard_version: '1.2', title: 'Safety & Compliance 101', redirect_on_completion: false, sync_completion: true });
    const dl = await t.get(local(read.body.download_url));
    expect(dl.status).toBe(200);
    const res = await fetch(t.baseUrl + local(read.body.download_url));
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
    // unpacked under the package's prefix
    const prefix = storedPrefix(org, created.body.id);
    expect(readFileSync(join(prefix, 'files', 'index.html'), 'utf8')).toContain('Lesson one');
    expect(existsSync(join(prefix, 'files', 'assets', 'logo (1).png'))).toBe(true);
    const [row] = await t.ds.query(`SELECT launch_path, file_count FROM web_packages WHERE id = $1`, [decodeId('webPackage', created.body.id)]);
    expect(row).toEqual({ launch_path: 'index.html', file_count: 3 });

    const list = await t.get('/v1/web-packages', { basic: org.api_key });
    expect(list.body.count).toBe(1);
    expect(list.body.results[0]).toMatchObject({ id: created.body.id, type: 'SCORM', state: 'READY' });
    expect(list.body.results[0].download_url).toBeUndefined();
  });

  it('a SCORM 2004 package inside a top folder (Bearer token), and an xAPI package', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const s2004 = srv.host(
      'ethics.zip',
      await zip([
        ['ethics/imsmanifest.xml', SCORM2004],
        ['ethics/content/start.html', '<p>start</p>'],
      ]),
    );
    const created = await t.post('/v1/web-packages', { content_url: s2004, web_package: { title: 'x' } }, { token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ redirect_on_completion: true, sync_completion: false });
    const read = await settled(t, created.body.id, org.api_key);
    expect(read.body).toMatchObject({ state: 'READY', type: 'SCORM', standard_version: '2004 4th Edition', title: 'Business Ethics' });
    const [row] = await t.ds.query(`SELECT launch_path FROM web_packages WHERE id = $1`, [decodeId('webPackage', created.body.id)]);
    expect(row.launch_path).toBe('ethics/content/start.html');

    const xapi = srv.host(
      'xapi.zip',
      await zip([
        ['tincan.xml', TINCAN],
        ['story.html', '<p>story</p>'],
      ]),
    );
    const x = await t.post('/v1/web-packages', { content_url: xapi, web_package: { title: 'x' } }, { token });
    const xr = await settled(t, x.body.id, org.api_key);
    expect(xr.body).toMatchObject({ state: 'READY', type: 'XAPI', title: 'Intro to xAPI' });
  });

  it('unsafe or bad packages end FAILED with a reason, no type, no download_url and nothing left in storage', async () => {
    const org = await t.newOrg();
    const ok: [string, string][] = [['imsmanifest.xml', SCORM12]];
    const cases: [string, Buffer, RegExp][] = [
      ['slip.zip', rename(await zip([...ok, ['zz/evil.txt', 'x']]), 'zz/evil.txt', '../evil.txt'), /escapes the package folder/],
      ['deep-slip.zip', rename(await zip([...ok, ['a/zz/zz/evil.txt', 'x']]), 'a/zz/zz/evil.txt', 'a/../../evil.txt'), /escapes the package folder/],
      ['absolute.zip', rename(await zip([...ok, ['xetc/passwd', 'x']]), 'xetc/passwd', '/etc/passwd'), /absolute path/],
      ['drive.zip', rename(await zip([...ok, ['xxwin.ini', 'x']]), 'xxwin.ini', 'C:win.ini'), /drive letter/],
      ['backslash.zip', rename(await zip([...ok, ['zz/zzevil.txt', 'x']]), 'zz/zzevil.txt', '..\\..evil.txt'), /backslash/],
      ['symlink.zip', await zip([...ok, ['link', '/etc/passwd', { mode: 0o120777 }]]), /symbolic link/],
      ['bomb.zip', await zip([...ok, ['zeros.bin', Buffer.alloc(2_500_000)]]), /compression ratio above 200:1/],
      ['big.zip', await zip([...ok, ['noise.bin', randomBytes(4 * 1024 * 1024), { compress: false }]]), /expands to more than 3145728 bytes/],
      ['many.zip', await zip([...ok, ...Array.from({ length: 60 }, (_, i) => [`f${i}.txt`, 'x'] as [string, string])]), /more than 50 entries/],
      ['not-zip.zip', Buffer.from('%PDF-1.4 definitely not a zip'), /not a zip archive/],
      ['no-manifest.zip', await zip([['index.html', '<p>hi</p>']]), /no imsmanifest\.xml/],
      ['bad-manifest.zip', await zip([['imsmanifest.xml', '<manifest><metadata>']]), /imsmanifest\.xml/],
      [
        'entities.zip',
        await zip([
          ['imsmanifest.xml', `<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><manifest><metadata><schemaversion>1.2</schemaversion></metadata></manifest>`],
        ]),
        /entities/,
      ],
    ];
    // a header that lies about the expanded size: the bytes are counted while inflating, not taken from headers
    const honest = await zip([...ok, ['data.bin', randomBytes(200_000)]]);
    const lying = Buffer.from(honest);
    const cd = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), lying.indexOf(Buffer.from('data.bin')) - 60);
    const cdData = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), cd + 4);
    lying.writeUInt32LE(10, cdData + 24); // uncompressed size of data.bin in the central directory
    cases.push(['lying.zip', lying, /data\.bin.*(too many bytes|corrupt)/]);

    const ids: [string, string, RegExp][] = [];
    for (const [name, body, reason] of cases) {
      const r = await create(org.api_key, srv.host(name, body));
      expect(r.status).toBe(201);
      ids.push([name, r.body.id, reason]);
    }
    for (const [name, id, reason] of ids) {
      const r = await settled(t, id, org.api_key);
      expect([name, r.body.state]).toEqual([name, 'FAILED']);
      expect([name, r.body.failure_reason]).toEqual([name, expect.stringMatching(reason)]);
      expect(r.body.type).toBeUndefined();
      expect(r.body.download_url).toBeUndefined();
      expect(existsSync(storedPrefix(org, id))).toBe(false);
    }
    expect(existsSync(join(storageDir, 'evil.txt'))).toBe(false);
  });

  it('bad input is 400 with field errors, never a 500', async () => {
    const org = await t.newOrg();
    const basic = org.api_key;
    const cases: [unknown, string][] = [
      [{}, 'content_url'],
      [{ content_url: 'https://e.x/p.zip' }, 'web_package'],
      [{ content_url: 'https://e.x/p.zip', web_package: {} }, 'web_package.title'],
      [{ content_url: 'https://e.x/p.zip', web_package: { title: '' } }, 'web_package.title'],
      [{ content_url: 'https://e.x/p.zip', web_package: { title: 7 } }, 'web_package.title'],
      [{ content_url: 'https://e.x/p.zip', web_package: { title: 't', redirect_on_completion: 'no' } }, 'web_package.redirect_on_completion'],
      [{ content_url: 'https://e.x/p.zip', web_package: 'x' }, 'web_package'],
      [{ content_url: 'gopher://e.x/p.zip', web_package: { title: 't' } }, 'content_url'],
      [{ content_url: 'http://169.254.169.254/p.zip', web_package: { title: 't' } }, 'content_url'],
    ];
    const strict = await startTestApp({ ALLOW_PRIVATE_URLS: false });
    try {
      const o = await strict.newOrg();
      for (const [body, field] of cases) {
        const r = await strict.post('/v1/web-packages', body, { basic: o.api_key });
        expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 400]);
        expect(drfFlat(r.body)[field]).toEqual(expect.arrayContaining([expect.any(String)]));
      }
      const local = await strict.post('/v1/web-packages', { content_url: 'http://localhost:9/p.zip', web_package: { title: 't' } }, { basic: o.api_key });
      expect(local.body).toEqual({ content_url: [expect.stringMatching(/not allowed/)] });
      expect((await strict.get('/v1/web-packages', { basic: o.api_key })).body.count).toBe(0);
    } finally {
      await strict.close();
    }
    const pkg = await create(basic, srv.host('p-bad.zip', await zip([['imsmanifest.xml', SCORM12]])));
    for (const body of [{}, { web_package_id: '' }, { web_package_id: 5 }]) {
      const r = await t.request('PUT', `/v1/web-packages/${pkg.body.id}/lessons`, { basic, body });
      expect(r.status).toBe(400);
      expect(r.body.web_package_id).toEqual(expect.arrayContaining([expect.any(String)]));
    }
    expect((await t.get('/v1/web-packages?page=abc', { basic })).status).toBe(400);
  });

  it('lessons: replaces the package in every lesson of the organization that uses it (content items and other orgs untouched)', async () => {
    const a = await t.newOrg();
    const b = await t.newOrg();
    const mk = async (org: typeof a, name: string) => (await create(org.api_key, srv.host(name, await zip([['imsmanifest.xml', SCORM12]])))).body.id as string;
    const p1 = await mk(a, 'l1.zip');
    const p2 = await mk(a, 'l2.zip');
    const p3 = await mk(a, 'l3.zip');
    const bPkg = await mk(b, 'lb.zip');
    await settled(t, p2, a.api_key);
    const u = (id: string) => decodeId('webPackage', id)!;
    const courseA = await insertCourse(t, a);
    const courseB = await insertCourse(t, b);
    const l1 = await insertLesson(t, a, courseA.uuid, { type: 'WEB_PACKAGE' });
    const l2 = await insertLesson(t, a, courseA.uuid, { type: 'WEB_PACKAGE', is_draft: true });
    const l3 = await insertLesson(t, a, courseA.uuid, { type: 'WEB_PACKAGE' });
    const lb = await insertLesson(t, b, courseB.uuid, { type: 'WEB_PACKAGE' });
    await t.ds.query(`UPDATE lessons SET content_web_package_id = $1 WHERE id = ANY($2)`, [u(p1), [l1.uuid, l2.uuid]]);
    await t.ds.query(`UPDATE lessons SET content_web_package_id = $1 WHERE id = $2`, [u(p3), l3.uuid]);
    // a foreign row cannot point at org A's package: the database refuses it (composite foreign key,
    // docs/decisions/organization-scoping.md); it points at its own package, which org A's replacement must not touch
    await expect(t.ds.query(`UPDATE lessons SET content_web_package_id = $1 WHERE id = $2`, [u(p1), lb.uuid])).rejects.toMatchObject({ code: '23503' });
    await t.ds.query(`UPDATE lessons SET content_web_package_id = $1 WHERE id = $2`, [u(bPkg), lb.uuid]);
    const items = [{ id: '00000000-0000-4000-8000-000000000001', type: 'WEB_PACKAGE', header: 'h', order: 0, content_html: null, asset_id: null, quiz_id: null, web_package_id: u(p1) }];
    await t.ds.query(`UPDATE lessons SET content_items = $1 WHERE id = $2`, [JSON.stringify(items), l3.uuid]);

    const pkgOf = async (id: string) => (await t.ds.query(`SELECT content_web_package_id, content_items FROM lessons WHERE id = $1`, [id]))[0];

    // another org's replacement: 400 field error; another org's addressed package: 404; nothing changes
    const foreign = await t.request('PUT', `/v1/web-packages/${p1}/lessons`, { basic: a.api_key, body: { web_package_id: bPkg } });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ web_package_id: [expect.any(String)] });
    expect((await t.request('PUT', `/v1/web-packages/${p1}/lessons`, { basic: b.api_key, body: { web_package_id: bPkg } })).status).toBe(404);
    expect((await pkgOf(l1.uuid)).content_web_package_id).toBe(u(p1));
    expect((await pkgOf(lb.uuid)).content_web_package_id).toBe(u(bPkg));

    const token = await t.tokenFor(a);
    const res = await t.request('PUT', `/v1/web-packages/${p1}/lessons`, { token, body: { web_package_id: p2 } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect((await pkgOf(l1.uuid)).content_web_package_id).toBe(u(p2));
    expect((await pkgOf(l2.uuid)).content_web_package_id).toBe(u(p2));
    expect((await pkgOf(l3.uuid)).content_web_package_id).toBe(u(p3));
    expect((await pkgOf(l3.uuid)).content_items[0].web_package_id).toBe(u(p1));
    expect((await pkgOf(lb.uuid)).content_web_package_id).toBe(u(bPkg));
    // API key works too
    expect((await t.request('PUT', `/v1/web-packages/${p3}/lessons`, { basic: a.api_key, body: { web_package_id: p2 } })).status).toBe(200);
    expect((await pkgOf(l3.uuid)).content_web_package_id).toBe(u(p2));
  });

  it('delete: refused with 400 while a lesson uses the package; otherwise 204 and the stored files are gone', async () => {
    const org = await t.newOrg();
    const body = await zip([
      ['imsmanifest.xml', SCORM12],
      ['index.html', 'x'],
    ]);
    const p = await create(org.api_key, srv.host('del.zip', body));
    const used = await create(org.api_key, srv.host('del2.zip', body));
    const read = await settled(t, p.body.id, org.api_key);
    await settled(t, used.body.id, org.api_key);
    const course = await insertCourse(t, org);
    const lesson = await insertLesson(t, org, course.uuid, { type: 'WEB_PACKAGE' });
    await t.ds.query(`UPDATE lessons SET content_web_package_id = $1 WHERE id = $2`, [decodeId('webPackage', used.body.id), lesson.uuid]);
    const refused = await t.delete(`/v1/web-packages/${used.body.id}`, { basic: org.api_key });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ detail: expect.any(String) });
    expect(existsSync(storedPrefix(org, used.body.id))).toBe(true);

    expect(existsSync(storedPrefix(org, p.body.id))).toBe(true);
    expect((await t.delete(`/v1/web-packages/${p.body.id}`, { basic: org.api_key })).status).toBe(204);
    expect(existsSync(storedPrefix(org, p.body.id))).toBe(false);
    expect((await t.get(`/v1/web-packages/${p.body.id}`, { basic: org.api_key })).status).toBe(404);
    expect((await t.get(local(read.body.download_url))).status).toBe(404);
  });

  it("cross-organization: list, read and delete of another org's package are 404 and change nothing; pages are capped at 100", async () => {
    const a = await t.newOrg();
    const b = await t.newOrg();
    const p = await create(a.api_key, srv.host('x-org.zip', await zip([['imsmanifest.xml', SCORM12]])));
    await settled(t, p.body.id, a.api_key);
    const tokenB = await t.tokenFor(b);
    expect((await t.get('/v1/web-packages', { token: tokenB })).body).toMatchObject({ count: 0, results: [] });
    expect((await t.get(`/v1/web-packages/${p.body.id}`, { basic: b.api_key })).status).toBe(404);
    expect((await t.delete(`/v1/web-packages/${p.body.id}`, { token: tokenB })).status).toBe(404);
    expect((await t.get(`/v1/web-packages/${p.body.id}`, { basic: a.api_key })).body.state).toBe('READY');
    expect((await t.get('/v1/web-packages/ast_AAAAAAAAAAAAAAAAAAAAAA', { basic: a.api_key })).status).toBe(404);

    await t.ds.query(
      `INSERT INTO web_packages (organization_id, title, source_url, storage_prefix, state) SELECT $1, 't' || g, 'https://e.x/', 'org/x/' || g, 'FAILED' FROM generate_series(1, 101) g`,
      [orgUuid(b)],
    );
    const page = await t.get('/v1/web-packages?page_size=500', { basic: b.api_key });
    expect(page.body.count).toBe(101);
    expect(page.body.results).toHaveLength(100);
    expect(page.body.next).toContain('page=2');
  });
});
