import { waitFor } from '../support/eventually';
import { testEvent } from '../support/events';
import { INestApplicationContext } from '@nestjs/common';
import { AppConfig, loadConfig } from '../../src/core/config/config';
import { EventType, recordEvents } from '../../src/core/events/outbox';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { dropRedisPrefix, Receiver, startReceiver, verifyStandardWebhook } from '../support/webhook-receiver';

/**
 * Deliveries as receivers expect them (issue 8, item 4), against real Postgres and Redis, a real
 * worker context and local receivers: Content-Length, Retry-After, which 4xx answers deactivate,
 * and secret rotation with both signatures during the overlap (here WEBHOOK_SECRET_OVERLAP_SECONDS
 * is 3 s so that its end can be observed).
 */
jest.setTimeout(90_000);

const OVERLAP_S = 3;

describe('webhook deliveries as receivers expect them', () => {
  let t: TestApp;
  let worker: INestApplicationContext | null = null;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true, WEBHOOK_SECRET_OVERLAP_SECONDS: OVERLAP_S });
  });
  afterEach(async () => {
    if (worker) await worker.close();
    worker = null;
    while (receivers.length) await receivers.pop()!.close();
  });
  afterAll(async () => {
    await t.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
  });

  async function startWorker(overrides: Partial<AppConfig> = {}) {
    worker = await createWorker(loadConfig(process.env, { ...t.config, WEBHOOK_RELAY_INTERVAL_MS: 100, WEBHOOK_RETRY_SCALE: 0.001, WEBHOOK_LOCK_MS: 2000, ...overrides }));
    await worker.init();
  }
  async function receiver(respond?: Parameters<typeof startReceiver>[0]) {
    const r = await startReceiver(respond);
    receivers.push(r);
    return r;
  }
  const emit = (org: CreatedOrg, type: EventType = 'COURSE_ENROLLMENT') =>
    t.ds.transaction((m) =>
      recordEvents(m, [testEvent(orgUuid(org), type, { user: { id: 'x', email: 'ünïcode@example.com', first_name: 'Zoë', last_name: '日本' }, domain: { id: 'y', name: 'd.test' } })]),
    );
  async function hook(org: CreatedOrg, body: Record<string, unknown>) {
    const res = await t.post('/v1/webhooks', body, { basic: org.api_key });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  }
  const until = <T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 20000, what = 'condition') => waitFor(fn, { timeoutMs, what, intervalMs: 50 }) as Promise<T>;
  const deliveryOf = async (org: CreatedOrg, webhookId: string, status: string) =>
    until(
      async () => {
        const l = await t.get(`/v1/webhooks/${webhookId}/deliveries`, { basic: org.api_key });
        return l.body.results[0]?.status === status && l.body.results[0];
      },
      20000,
      `a ${status} delivery`,
    );
  const webhook = async (org: CreatedOrg, id: string) => (await t.get(`/v1/webhooks/${id}`, { basic: org.api_key })).body;

  it('every delivery and every ping has a Content-Length equal to the body bytes, and is not chunked', async () => {
    const org = await t.newOrg();
    const r = await receiver();
    const w = await hook(org, { target_url: r.url });
    await emit(org);
    await startWorker();
    const [got] = await r.waitFor(1);
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(got.body, 'utf8')));
    expect(Buffer.byteLength(got.body, 'utf8')).toBeGreaterThan(got.body.length); // multi-byte characters counted as bytes
    expect(got.headers['transfer-encoding']).toBeUndefined();
    expect(JSON.parse(got.body).user.last_name).toBe('日本');
    const ping = await t.post(`/v1/webhooks/${w.id}/ping`, undefined, { basic: org.api_key });
    expect(ping.body.succeeded).toBe(true);
    const [, pinged] = await r.waitFor(2);
    expect(pinged.headers['content-length']).toBe(String(Buffer.byteLength(pinged.body, 'utf8')));
    expect(pinged.headers['transfer-encoding']).toBeUndefined();
  });

  it('429 with Retry-After in seconds and 503 with an HTTP-date postpone the next attempt at least that long', async () => {
    const org = await t.newOrg();
    const r429 = await receiver((_req, res, n) => (n === 1 ? res.writeHead(429, { 'retry-after': '2' }).end() : res.writeHead(200).end()));
    const r503 = await receiver((_req, res, n) => (n === 1 ? res.writeHead(503, { 'retry-after': new Date(Date.now() + 3000).toUTCString() }).end() : res.writeHead(200).end()));
    const w429 = await hook(org, { target_url: r429.url, event_type: 'COURSE_ENROLLMENT' });
    const w503 = await hook(org, { target_url: r503.url, event_type: 'LESSON_COMPLETION' });
    await emit(org, 'COURSE_ENROLLMENT');
    await emit(org, 'LESSON_COMPLETION');
    await startWorker(); // the schedule alone would retry after ~5 ms
    const [a1, a2] = await r429.waitFor(2, 20000);
    expect(a2.at - a1.at).toBeGreaterThanOrEqual(2000);
    const [b1, b2] = await r503.waitFor(2, 20000);
    // an HTTP-date has whole seconds: at least 2 s after the answer that named a time 3 s ahead
    expect(b2.at - b1.at).toBeGreaterThanOrEqual(2000);
    expect(b2.headers['webhook-id']).toBe(b1.headers['webhook-id']);
    const d429 = await deliveryOf(org, w429.id, 'SUCCEEDED');
    expect(d429.attempts.map((a: any) => a.http_status)).toEqual([429, 200]);
    expect((await deliveryOf(org, w503.id, 'SUCCEEDED')).attempts.map((a: any) => a.http_status)).toEqual([503, 200]);
    expect((await webhook(org, w429.id)).active).toBe(true);
  });

  it('a 400 is retried on the schedule and the webhook stays active', async () => {
    const org = await t.newOrg();
    const r = await receiver((_req, res, n) => (n <= 2 ? res.writeHead(n === 1 ? 400 : 404).end('no') : res.writeHead(200).end()));
    const w = await hook(org, { target_url: r.url });
    await emit(org);
    await startWorker();
    await r.waitFor(3, 20000);
    const d = await deliveryOf(org, w.id, 'SUCCEEDED');
    expect(d.attempts.map((a: any) => a.http_status)).toEqual([400, 404, 200]);
    expect(await webhook(org, w.id)).toMatchObject({ active: true, deactivate_reason: null });
  });

  it('a 410 Gone deactivates at once with HTTP_4XX_RESPONSE', async () => {
    const org = await t.newOrg();
    const r = await receiver((_req, res) => res.writeHead(410).end());
    const w = await hook(org, { target_url: r.url });
    await emit(org);
    await startWorker();
    const d = await deliveryOf(org, w.id, 'DEAD');
    expect(d).toMatchObject({ attempt_count: 1, last_http_status: 410 });
    expect(await webhook(org, w.id)).toMatchObject({ active: false, deactivate_reason: 'HTTP_4XX_RESPONSE' });
  });

  it('4xx answers until the schedule is exhausted: 8 attempts, then deactivated with RETRY_COUNT', async () => {
    const org = await t.newOrg();
    const r = await receiver((_req, res, n) => res.writeHead(n % 2 ? 400 : 422).end());
    const w = await hook(org, { target_url: r.url });
    await emit(org);
    await startWorker({ WEBHOOK_RETRY_SCALE: 0.00005 });
    await r.waitFor(8, 30000);
    const d = await deliveryOf(org, w.id, 'DEAD');
    expect(d.attempt_count).toBe(8);
    expect(await webhook(org, w.id)).toMatchObject({ active: false, deactivate_reason: 'RETRY_COUNT' });
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(8);
  });

  it('rotate-secret: a new whsec_ secret once; both signatures during the overlap (deliveries and ping), then only the new one', async () => {
    const org = await t.newOrg();
    const r = await receiver();
    const w = await hook(org, { target_url: r.url });
    const oldSecret = w.secret;
    const path = `/v1/webhooks/${w.id}/rotate-secret`;
    await startWorker(); // started first: the 3 s window must not be spent on the worker's start

    // scope, credentials and organization
    expect((await t.post(path)).status).toBe(401);
    expect((await t.post(path, undefined, { token: await t.tokenFor(org, ['webhooks:read']) })).status).toBe(403);
    const other = await t.newOrg();
    const theirs = await t.post(path, undefined, { basic: other.api_key });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ detail: expect.any(String) });
    expect((await t.post(`/v1/webhooks/${w.id.slice(0, -1)}/rotate-secret`, undefined, { basic: org.api_key })).status).toBe(404);

    const rotated = await t.post(path, undefined, { token: await t.tokenFor(org, ['webhooks:write']) });
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.secret;
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.body).toMatchObject({ id: w.id, target_url: r.url, active: true });
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(0);
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeLessThanOrEqual(OVERLAP_S * 1000 + 1000);
    // shown once: reads never return it
    const read = await t.get(`/v1/webhooks/${w.id}`, { basic: org.api_key });
    expect(JSON.stringify(read.body)).not.toContain(newSecret.slice(6));
    expect(read.body.secret).toBeUndefined();

    // during the overlap: a delivery and a ping carry two signatures, the new secret's first; each secret verifies
    const rotatedAt = Date.now();
    await emit(org);
    const [delivered] = await r.waitFor(1);
    expect((await t.post(`/v1/webhooks/${w.id}/ping`, undefined, { basic: org.api_key })).body.succeeded).toBe(true);
    const [, pinged] = await r.waitFor(2);
    expect(Date.now() - rotatedAt).toBeLessThan(OVERLAP_S * 1000); // still inside the window
    for (const got of [delivered, pinged]) {
      const sigs = String(got.headers['webhook-signature']).split(' ');
      expect(sigs).toHaveLength(2);
      expect(verifyStandardWebhook(newSecret, got.headers, got.body)).toBe(true);
      expect(verifyStandardWebhook(oldSecret, got.headers, got.body)).toBe(true);
      expect(verifyStandardWebhook(newSecret, { ...got.headers, 'webhook-signature': sigs[0] }, got.body)).toBe(true);
      expect(verifyStandardWebhook(oldSecret, { ...got.headers, 'webhook-signature': sigs[1] }, got.body)).toBe(true);
    }

    // after the overlap: only the new secret signs
    await new Promise((res) => setTimeout(res, Math.max(0, rotatedAt + OVERLAP_S * 1000 + 200 - Date.now())));
    await emit(org);
    const [, , after] = await r.waitFor(3);
    expect((await t.post(`/v1/webhooks/${w.id}/ping`, undefined, { basic: org.api_key })).body.succeeded).toBe(true);
    const [, , , pingAfter] = await r.waitFor(4);
    for (const got of [after, pingAfter]) {
      expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(verifyStandardWebhook(newSecret, got.headers, got.body)).toBe(true);
      expect(verifyStandardWebhook(oldSecret, got.headers, got.body)).toBe(false);
    }
  });

  it('a second rotation within the window: the two newest secrets sign, the first no longer does', async () => {
    const org = await t.newOrg();
    const r = await receiver();
    const w = await hook(org, { target_url: r.url });
    const first = w.secret;
    const second = (await t.post(`/v1/webhooks/${w.id}/rotate-secret`, undefined, { basic: org.api_key })).body.secret;
    const third = (await t.post(`/v1/webhooks/${w.id}/rotate-secret`, undefined, { basic: org.api_key })).body.secret;
    expect(new Set([first, second, third]).size).toBe(3);
    await t.post(`/v1/webhooks/${w.id}/ping`, undefined, { basic: org.api_key });
    const [got] = await r.waitFor(1);
    expect(verifyStandardWebhook(third, got.headers, got.body)).toBe(true);
    expect(verifyStandardWebhook(second, got.headers, got.body)).toBe(true);
    expect(verifyStandardWebhook(first, got.headers, got.body)).toBe(false);
  });
});
