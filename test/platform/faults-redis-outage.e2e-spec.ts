import { getQueueToken } from '@nestjs/bullmq';
import { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZipFile } from 'yazl';
import { loadConfig } from '../../src/core/config/config';
import { QUEUES } from '../../src/core/queue/queues';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { domainOf } from '../support/fixtures';
import { PrivateRedis } from '../support/redis-server';
import { dropRedisPrefix } from '../support/webhook-receiver';

/**
 * A Redis outage must not hold the requests that queue work (asset and web-package imports,
 * password-reset mails): the row is saved and answered at once, and the worker's sweeper queues
 * the work once Redis is reachable. The API talks to a private redis-server that is stopped; the
 * worker, started afterwards, talks to the shared Redis under the same key prefix, so nothing the
 * API tried to queue can ever reach it: only the sweeper gets the work done.
 */
jest.setTimeout(90_000);

const MANIFEST = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="com.example.outage" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="O"><organization identifier="O"><title>Outage</title><item identifier="I" identifierref="R"><title>M</title></item></organization></organizations>
  <resources><resource identifier="R" type="webcontent" adlcp:scormtype="sco" href="index.html"><file href="index.html"/></resource></resources>
</manifest>`;

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

async function until<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = Date.now();
  const value = await fn();
  return { ms: Date.now() - start, value };
}

describe('Redis outage: imports and password-reset mails answer at once and are queued later by the sweeper', () => {
  let redis: PrivateRedis;
  let t: TestApp;
  let worker: INestApplicationContext | null = null;
  let files: http.Server;
  let filesUrl: string;
  const outbox = mkdtempSync(join(tmpdir(), 'cp-outage-mail-'));
  const storage = mkdtempSync(join(tmpdir(), 'cp-outage-files-'));

  beforeAll(async () => {
    const pkg = await zip([
      ['imsmanifest.xml', MANIFEST],
      ['index.html', '<html><body>hi</body></html>'],
    ]);
    files = http.createServer((req, res) => {
      if (req.url === '/pkg.zip') return res.writeHead(200, { 'content-type': 'application/zip', 'content-length': pkg.length }).end(pkg);
      const pdf = Buffer.from('%PDF-1.4\n%outage test\n');
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length }).end(pdf);
    });
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', () => r()));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    redis = await PrivateRedis.start();
    t = await startTestApp({ REDIS_URL: redis.url, ALLOW_PRIVATE_URLS: true, STORAGE_DIR: storage, MAIL_OUTBOX_DIR: outbox, SMTP_URL: undefined, ENQUEUE_TIMEOUT_MS: 2000 });
  });
  afterAll(async () => {
    await worker?.close();
    await redis.start(); // the app's queues close against a running server
    await t?.close();
    await redis.stop();
    await dropRedisPrefix(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', t.config.REDIS_PREFIX);
    await new Promise((r) => files.close(r));
    rmSync(outbox, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  });

  it('each request answers within 10 s with its row pending; the worker sweeper gets the work done once Redis is reachable', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const created = await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: 'outage@learners.test', first_name: 'Olive', last_name: 'Age' } }] }, { token });
    expect(created.status).toBe(200);
    const studentId = created.body.data[0].id;
    const domain = await domainOf(t, org);

    await redis.stop();

    // /health says so: 503 with Retry-After (issue 25 item 15e)
    const health = await t.get('/health');
    expect(health.status).toBe(503);
    expect(health.body.checks).toEqual({ postgres: 'ok', redis: 'error' });
    expect(Number(health.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    const asset = await timed(() => t.post('/v1/assets', { content_url: `${filesUrl}/file.pdf`, asset: { name: 'Outage PDF' } }, { basic: org.api_key }));
    expect(asset.ms).toBeLessThan(10_000);
    expect(asset.value.status).toBe(201);
    expect(asset.value.body.state).toBe('PROCESSING');

    const pkg = await timed(() => t.post('/v1/web-packages', { content_url: `${filesUrl}/pkg.zip`, web_package: { title: 'Outage package' } }, { basic: org.api_key }));
    expect(pkg.ms).toBeLessThan(10_000);
    expect(pkg.value.status).toBe(201);
    expect(pkg.value.body.state).toBe('PROCESSING');

    const reset = await timed(() => t.post(`/v2/students/${studentId}/send-password-reset/?domain=${domain.name}`, undefined, { token }));
    expect(reset.ms).toBeLessThan(10_000);
    expect(reset.value.status).toBe(202);

    // Redis is reachable again (for the worker): only the sweeper can queue what the API could not
    worker = await createWorker(
      loadConfig(process.env, {
        ...t.config,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        REQUEUE_SWEEP_SECONDS: 1,
        REQUEUE_AFTER_SECONDS: 0,
      }),
    );
    await worker.init();

    const assetRow = await until(
      async () => {
        const r = await t.get(`/v1/assets/${asset.value.body.id}`, { basic: org.api_key });
        return r.body.state !== 'PROCESSING' && r.body;
      },
      30_000,
      'the asset import',
    );
    expect(assetRow.state).toBe('READY');
    const pkgRow = await until(
      async () => {
        const r = await t.get(`/v1/web-packages/${pkg.value.body.id}`, { basic: org.api_key });
        return r.body.state !== 'PROCESSING' && r.body;
      },
      30_000,
      'the web-package import',
    );
    expect(pkgRow.state).toBe('READY');
    const mail = await until(async () => readdirSync(outbox).find((f) => f.endsWith('.eml')), 30_000, 'the password-reset mail');
    expect(readFileSync(join(outbox, mail), 'utf8')).toMatch(/^To: outage@learners\.test$/m);

    // the sweeper keeps sweeping: nothing is queued twice, the mail is sent once
    const mailQueue = worker.get<Queue>(getQueueToken(QUEUES.mail));
    await until(async () => (await mailQueue.getJobCounts('completed')).completed >= 3, 10_000, 'two more sweeps');
    expect(readdirSync(outbox).filter((f) => f.endsWith('.eml'))).toHaveLength(1);
    const [rec] = await t.ds.query(`SELECT done_at FROM password_reset_mails WHERE user_id IN (SELECT id FROM users WHERE email = 'outage@learners.test')`);
    expect(rec.done_at).not.toBeNull();
  });
});
