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
 * Outbox -> relay -> signed delivery, against real Postgres and Redis, a real worker application
 * context and local receivers on 127.0.0.1 (so the API and these workers run with
 * ALLOW_PRIVATE_URLS=true, except where the SSRF policy is under test).
 */
jest.setTimeout(60_000);

describe('webhook delivery', () => {
  let t: TestApp;
  let worker: INestApplicationContext | null = null;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true });
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
    const config = loadConfig(process.env, {
      ...t.config,
      WEBHOOK_RELAY_INTERVAL_MS: 100,
      WEBHOOK_RETRY_SCALE: 0.001,
      WEBHOOK_LOCK_MS: 2000,
      ...overrides,
    });
    worker = await createWorker(config);
    await worker.init();
    return worker;
  }

  async function receiver(respond?: Parameters<typeof startReceiver>[0]) {
    const r = await startReceiver(respond);
    receivers.push(r);
    return r;
  }

  const objects = (n = 1) => ({
    user: { id: `stu_user${n}`, email: `learner${n}@example.com`, first_name: 'Ada', last_name: 'Lovelace' },
    course: { id: 'crs_c', published_course_id: 'pcs_c', title: 'Ünïcode & "quotes"', url: 'https://d.test/c' },
    domain: { id: 'dom_d', name: 'd.test' },
  });

  /** Events written by the transactional outbox writer, as the resource modules write them. */
  async function emit(org: CreatedOrg, type: EventType = 'COURSE_ENROLLMENT', n = 1): Promise<string[]> {
    return t.ds.transaction((m) =>
      recordEvents(
        m,
        Array.from({ length: n }, (_x, i) => testEvent(orgUuid(org), type, objects(i))),
      ),
    );
  }

  async function payloadOf(eventUuid: string) {
    const [row] = await t.ds.query(`SELECT payload FROM outbox_events WHERE id = $1`, [eventUuid]);
    return row.payload;
  }

  const until = <T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 15000, what = 'condition') => waitFor(fn, { timeoutMs, what, intervalMs: 50 }) as Promise<T>;

  async function hook(org: CreatedOrg, body: Record<string, unknown>) {
    const res = await t.post('/v1/webhooks', body, { basic: org.api_key });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string; [k: string]: unknown };
  }

  const deliveriesOf = async (org: CreatedOrg, webhookId: string, auth: { basic?: string; token?: string } = { basic: org.api_key }) => {
    const res = await t.get(`/v1/webhooks/${webhookId}/deliveries`, auth);
    expect(res.status).toBe(200);
    return res.body.results as any[];
  };

  it('POSTs exactly the outbox event, signed (Standard Webhooks), with Basic auth and the additional headers', async () => {
    const org = await t.newOrg();
    const r = await receiver();
    const w = await hook(org, { target_url: r.url, basic_auth_username: 'hook-user', basic_auth_password: 'hook-pass', additional_headers: { 'X-Tenant': 'acme', 'X-Trace': 'a b' } });
    const [eventUuid] = await emit(org);
    const payload = await payloadOf(eventUuid);
    await startWorker();
    const [got] = await r.waitFor(1);
    expect(got.method).toBe('POST');
    expect(got.path).toBe('/hook');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toMatch(/\S+/);
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:hook-pass').toString('base64')}`);
    expect(got.headers['x-tenant']).toBe('acme');
    expect(got.headers['x-trace']).toBe('a b');
    expect(got.headers['webhook-id']).toBe(payload.id);
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    // verified by an independent implementation, with the secret returned at creation
    expect(verifyStandardWebhook(w.secret, got.headers, got.body)).toBe(true);
    expect(verifyStandardWebhook(w.secret, got.headers, got.body + ' ')).toBe(false);
    expect(verifyStandardWebhook('whsec_' + Buffer.alloc(24, 1).toString('base64'), got.headers, got.body)).toBe(false);
    // the body is one JSON event (not a list), exactly the outbox payload
    const body = JSON.parse(got.body);
    expect(body).toEqual(payload);
    expect(Object.keys(body).slice(0, 3)).toEqual(['id', 'event_type', 'timestamp']);
    expect(body.event_type).toBe('COURSE_ENROLLMENT');

    const [ev] = await t.ds.query(`SELECT relayed_at FROM outbox_events WHERE id = $1`, [eventUuid]);
    expect(ev.relayed_at).not.toBeNull();
    const token = await t.tokenFor(org, ['webhooks:read']);
    const list = await until(async () => {
      const l = await deliveriesOf(org, w.id, { token });
      return l[0]?.status === 'SUCCEEDED' && l;
    });
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: expect.stringMatching(/^[0-9a-z]+$/),
      event_id: payload.id,
      event_type: 'COURSE_ENROLLMENT',
      target_url: r.url,
      status: 'SUCCEEDED',
      attempt_count: 1,
      next_attempt_at: null,
      last_http_status: 200,
      attempts: [{ attempt_no: 1, started_at: expect.any(String), http_status: 200, latency_ms: expect.any(Number), error: null, response_excerpt: 'ok' }],
    });
    const one = await t.get(`/v1/webhooks/${w.id}/deliveries/${list[0].id}`, { basic: org.api_key });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(list[0]);
    // no second delivery, however long the relay keeps running
    await new Promise((res) => setTimeout(res, 400));
    expect(r.received).toHaveLength(1);
  });

  it('an event written by a real API operation (POST /v1/domains/{domain}/users: DOMAIN_ENROLLMENT) is delivered', async () => {
    const org = await t.newOrg();
    const r = await receiver();
    const w = await hook(org, { target_url: r.url, event_type: 'DOMAIN_ENROLLMENT' });
    const res = await t.post(`/v1/domains/${org.domain_name}/users`, { user: { email: 'hooked@example.com', first_name: 'Hoo', last_name: 'Ked' } }, { basic: org.api_key });
    expect(res.status).toBe(201);
    await startWorker();
    const [got] = await r.waitFor(1);
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({ event_type: 'DOMAIN_ENROLLMENT', user: { email: 'hooked@example.com' }, domain: { name: org.domain_name } });
    expect(verifyStandardWebhook(w.secret, got.headers, got.body)).toBe(true);
    const sample = await t.get('/v1/webhooks/sample-domain-enrollment', { basic: org.api_key });
    expect(sample.body.results[0]).toEqual(body);
  });

  it('the relay takes pending events in the order they were written (one delivery at a time: received in that order)', async () => {
    const org = await t.newOrg();
    const r = await receiver();
    await hook(org, { target_url: r.url });
    const written: string[] = [];
    for (let i = 0; i < 6; i++) written.push(...(await emit(org, i % 2 ? 'LESSON_COMPLETION' : 'COURSE_COMPLETION')));
    // and six written by one statement: they share created_at, only the write sequence orders them
    written.push(...(await emit(org, 'COURSE_COMPLETION', 6)));
    const ids = await Promise.all(written.map(async (u) => (await payloadOf(u)).id));
    await startWorker({ WORKER_CONCURRENCY: 1 });
    const got = await r.waitFor(12);
    expect(got.map((g) => g.headers['webhook-id'])).toEqual(ids);
  });

  it('one delivery per event and webhook; per-type and all-type subscriptions; inactive webhooks and other organizations get nothing', async () => {
    const org = await t.newOrg();
    const other = await t.newOrg();
    const [r1, r2, r3, r4] = await Promise.all([receiver(), receiver(), receiver(), receiver()]);
    const all1 = await hook(org, { target_url: r1.url });
    const typed1 = await hook(org, { target_url: r1.url, event_type: 'COURSE_ENROLLMENT' });
    await hook(org, { target_url: r2.url, event_type: 'LESSON_COMPLETION' });
    await hook(org, { target_url: r3.url, event_type: 'COURSE_ENROLLMENT', active: false });
    const theirs = await hook(other, { target_url: r4.url });
    const [enrollment] = await emit(org, 'COURSE_ENROLLMENT');
    const [lesson] = await emit(org, 'LESSON_COMPLETION');
    await startWorker();
    // r1 carries two webhooks: all1 hears both events, typed1 the enrollment, each POST its own
    await r1.waitFor(3);
    await r2.waitFor(1);
    await new Promise((res) => setTimeout(res, 600));
    expect(r1.received).toHaveLength(3);
    const enrollmentId = (await payloadOf(enrollment)).id;
    const lessonId = (await payloadOf(lesson)).id;
    expect(r1.received.map((x) => JSON.parse(x.body).id).sort()).toEqual([enrollmentId, enrollmentId, lessonId].sort());
    const signedBy = (secret: string) => r1.received.filter((x) => verifyStandardWebhook(secret, x.headers, x.body)).map((x) => JSON.parse(x.body).id);
    expect(signedBy(all1.secret).sort()).toEqual([enrollmentId, lessonId].sort());
    expect(signedBy(typed1.secret)).toEqual([enrollmentId]);
    expect(r2.received).toHaveLength(1);
    expect(JSON.parse(r2.received[0].body).event_type).toBe('LESSON_COMPLETION');
    expect(r3.received).toHaveLength(0);
    expect(r4.received).toHaveLength(0);
    // each webhook lists the deliveries made for it
    const listed = await until(async () => {
      const a = await deliveriesOf(org, all1.id);
      const b = await deliveriesOf(org, typed1.id);
      return a.length === 2 && b.length === 1 && [...a, ...b].every((d) => d.status === 'SUCCEEDED') && { a, b };
    });
    expect(listed.a.map((d: any) => d.event_id).sort()).toEqual([enrollmentId, lessonId].sort());
    expect(listed.b.map((d: any) => d.event_id)).toEqual([enrollmentId]);
    expect(await deliveriesOf(other, theirs.id)).toHaveLength(0);
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE organization_id = $1`, [orgUuid(org)]);
    expect(n).toBe(4);
    // the other organization now emits: only its own receiver hears it
    await emit(other, 'PATH_ENROLLMENT');
    await r4.waitFor(1);
    await new Promise((res) => setTimeout(res, 300));
    expect(r1.received).toHaveLength(3);
  });

  it("two webhooks on one target_url (issue 25 item 9): each POST is signed with its own webhook's secret, auth and headers, and listed under it", async () => {
    const org = await t.newOrg();
    const r = await receiver();
    const older = await hook(org, { target_url: r.url, basic_auth_username: 'old', basic_auth_password: 'old-pass', additional_headers: { 'X-Hook': 'older' } });
    const newer = await hook(org, { target_url: r.url, additional_headers: { 'X-Hook': 'newer' } });
    expect(older.secret).not.toBe(newer.secret);
    const [eventUuid] = await emit(org);
    const eventId = (await payloadOf(eventUuid)).id;
    await startWorker();
    const got = await r.waitFor(2);
    await new Promise((res) => setTimeout(res, 400));
    expect(r.received).toHaveLength(2);
    const byHook = (name: string) => got.find((g) => g.headers['x-hook'] === name)!;
    const [o, n] = [byHook('older'), byHook('newer')];
    // one event: the same webhook-id and body on both (receivers de-duplicate on webhook-id)
    for (const g of [o, n]) {
      expect(g.headers['webhook-id']).toBe(eventId);
      expect(g.body).toBe(o.body);
      expect(g.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/); // one signature each
    }
    // a Standard Webhooks verifier holding either secret accepts the POST made for that webhook
    expect(verifyStandardWebhook(older.secret, o.headers, o.body)).toBe(true);
    expect(verifyStandardWebhook(newer.secret, n.headers, n.body)).toBe(true);
    expect(verifyStandardWebhook(newer.secret, o.headers, o.body)).toBe(false);
    expect(verifyStandardWebhook(older.secret, n.headers, n.body)).toBe(false);
    expect(o.headers.authorization).toBe(`Basic ${Buffer.from('old:old-pass').toString('base64')}`);
    expect(n.headers.authorization).toBeUndefined();
    // and each webhook's deliveries list shows its own delivery of the event
    for (const w of [older, newer]) {
      const list = await until(async () => {
        const l = await deliveriesOf(org, w.id);
        return l[0]?.status === 'SUCCEEDED' && l;
      });
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ event_id: eventId, target_url: r.url, status: 'SUCCEEDED', attempt_count: 1, last_http_status: 200 });
    }
  });

  it('retries failures on the (scaled) schedule with the same webhook-id, recording every attempt', async () => {
    const org = await t.newOrg();
    const r = await receiver((_req, res, n) => (n <= 3 ? res.writeHead(n === 2 ? 408 : 500).end(`fail ${n}`) : res.writeHead(204).end()));
    const w = await hook(org, { target_url: r.url });
    const [eventUuid] = await emit(org);
    await startWorker({ WEBHOOK_RETRY_SCALE: 0.001 }); // 5 ms, 300 ms, 1800 ms, ...
    const got = await r.waitFor(4, 20000);
    const id = (await payloadOf(eventUuid)).id;
    expect(got.map((g) => g.headers['webhook-id'])).toEqual([id, id, id, id]);
    expect(new Set(got.map((g) => g.body)).size).toBe(1);
    for (const g of got) expect(verifyStandardWebhook(w.secret, g.headers, g.body)).toBe(true);
    const gaps = got.slice(1).map((g, i) => g.at - got[i].at);
    // 5 ms, 300 ms and 1800 ms, each +- 10 %; the upper bounds leave room for a busy machine
    expect(gaps[0]).toBeLessThan(500);
    expect(gaps[1]).toBeGreaterThanOrEqual(270);
    expect(gaps[1]).toBeLessThan(330 + 600);
    expect(gaps[2]).toBeGreaterThanOrEqual(1620);
    expect(gaps[2]).toBeLessThan(1980 + 600);
    const [d] = await until(async () => {
      const l = await deliveriesOf(org, w.id);
      return l[0]?.status === 'SUCCEEDED' && l;
    });
    expect(d.attempt_count).toBe(4);
    expect(d.attempts.map((a: any) => [a.attempt_no, a.http_status])).toEqual([
      [1, 500],
      [2, 408],
      [3, 500],
      [4, 204],
    ]);
    expect(d.attempts[0].response_excerpt).toBe('fail 1');
    expect((await t.get(`/v1/webhooks/${w.id}`, { basic: org.api_key })).body).toMatchObject({ active: true, deactivate_reason: null });
  });

  it('a 410 Gone deactivates the webhook at once with HTTP_4XX_RESPONSE; later events are not delivered', async () => {
    const org = await t.newOrg();
    const r = await receiver((_req, res) => res.writeHead(410).end('gone'));
    const w = await hook(org, { target_url: r.url });
    await emit(org);
    await startWorker();
    await r.waitFor(1);
    const read = await until(async () => {
      const x = await t.get(`/v1/webhooks/${w.id}`, { basic: org.api_key });
      return x.body.active === false && x;
    });
    expect(read.body.deactivate_reason).toBe('HTTP_4XX_RESPONSE');
    const [d] = await deliveriesOf(org, w.id);
    expect(d).toMatchObject({ status: 'DEAD', attempt_count: 1, last_http_status: 410 });
    await emit(org);
    await new Promise((res) => setTimeout(res, 600));
    expect(r.received).toHaveLength(1);
  });

  it('429 is retried, not a deactivation', async () => {
    const org = await t.newOrg();
    const r = await receiver((_req, res, n) => (n === 1 ? res.writeHead(429, { 'retry-after': '1' }).end() : res.writeHead(200).end()));
    const w = await hook(org, { target_url: r.url });
    await emit(org);
    await startWorker();
    await r.waitFor(2);
    const [d] = await until(async () => {
      const l = await deliveriesOf(org, w.id);
      return l[0]?.status === 'SUCCEEDED' && l;
    });
    expect(d.attempts.map((a: any) => a.http_status)).toEqual([429, 200]);
    expect((await t.get(`/v1/webhooks/${w.id}`, { basic: org.api_key })).body.active).toBe(true);
  });

  it('a redirect is not followed: the webhook is deactivated with TOO_MANY_REDIRECTS', async () => {
    const org = await t.newOrg();
    const target = await receiver();
    const r = await receiver((_req, res) => res.writeHead(302, { location: target.url }).end());
    const w = await hook(org, { target_url: r.url });
    await emit(org);
    await startWorker();
    await r.waitFor(1);
    const read = await until(async () => {
      const x = await t.get(`/v1/webhooks/${w.id}`, { basic: org.api_key });
      return x.body.active === false && x;
    });
    expect(read.body.deactivate_reason).toBe('TOO_MANY_REDIRECTS');
    expect(target.received).toHaveLength(0);
    const [d] = await deliveriesOf(org, w.id);
    expect(d).toMatchObject({ status: 'DEAD', attempt_count: 1, last_http_status: 302 });
  });

  it('exhausting the schedule (8 attempts) kills the delivery and deactivates the webhook with RETRY_COUNT', async () => {
    const org = await t.newOrg();
    const r = await receiver((_req, res) => res.writeHead(503).end('busy'));
    const w = await hook(org, { target_url: r.url });
    await emit(org);
    await startWorker({ WEBHOOK_RETRY_SCALE: 0.00005 }); // ~5 s for the whole schedule
    await r.waitFor(8, 30000);
    const read = await until(
      async () => {
        const x = await t.get(`/v1/webhooks/${w.id}`, { basic: org.api_key });
        return x.body.active === false && x;
      },
      20000,
      'deactivation',
    );
    expect(read.body.deactivate_reason).toBe('RETRY_COUNT');
    const [d] = await deliveriesOf(org, w.id);
    expect(d).toMatchObject({ status: 'DEAD', attempt_count: 8, next_attempt_at: null });
    expect(d.attempts).toHaveLength(8);
    await new Promise((res) => setTimeout(res, 500));
    expect(r.received).toHaveLength(8);
  });

  it('connection errors and timeouts are retried', async () => {
    const org = await t.newOrg();
    const r = await receiver((_req, res, n) => {
      if (n === 1) return void setTimeout(() => res.writeHead(200).end('late'), 3000); // longer than the time limit
      res.writeHead(200).end('ok');
    });
    const dead = await receiver();
    const deadUrl = dead.url;
    await dead.close();
    receivers.splice(receivers.indexOf(dead), 1);
    const slow = await hook(org, { target_url: r.url, event_type: 'COURSE_ENROLLMENT' });
    const refused = await hook(org, { target_url: deadUrl, event_type: 'LESSON_COMPLETION' });
    await emit(org, 'COURSE_ENROLLMENT');
    await emit(org, 'LESSON_COMPLETION');
    await startWorker({ WEBHOOK_TIMEOUT_MS: 500 });
    await r.waitFor(2, 10000);
    const [ds] = await until(async () => {
      const l = await deliveriesOf(org, slow.id);
      return l[0]?.status === 'SUCCEEDED' && l;
    });
    expect(ds.attempts[0]).toMatchObject({ http_status: null, error: expect.stringMatching(/timeout/) });
    const [dr] = await until(async () => {
      const l = await deliveriesOf(org, refused.id);
      return l[0]?.attempt_count >= 1 && l;
    });
    expect(dr.status).toBe('FAILED');
    expect(dr.attempts[0]).toMatchObject({ http_status: null, error: expect.stringMatching(/connection/) });
    expect((await t.get(`/v1/webhooks/${refused.id}`, { basic: org.api_key })).body.active).toBe(true);
  });

  it('retry: re-queues a delivery at once (same webhook-id); refused while the webhook is inactive', async () => {
    const org = await t.newOrg();
    let answer = 410;
    const r = await receiver((_req, res) => res.writeHead(answer).end());
    const w = await hook(org, { target_url: r.url });
    await emit(org);
    await startWorker();
    await r.waitFor(1);
    const [d] = await until(async () => {
      const l = await deliveriesOf(org, w.id);
      return l[0]?.status === 'DEAD' && l;
    });
    const retryPath = `/v1/webhooks/${w.id}/deliveries/${d.id}/retry`;
    const refused = await t.post(retryPath, undefined, { basic: org.api_key });
    expect(refused.status).toBe(400);
    expect(refused.body.non_field_errors).toBeDefined();
    const readOnly = await t.tokenFor(org, ['webhooks:read']);
    expect((await t.post(retryPath, undefined, { token: readOnly })).status).toBe(403);
    expect((await t.patch(`/v1/webhooks/${w.id}`, { active: true }, { basic: org.api_key })).status).toBe(200);
    answer = 200;
    const token = await t.tokenFor(org, ['webhooks:write']);
    const res = await t.post(retryPath, undefined, { token });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: d.id, status: 'PENDING' });
    await r.waitFor(2);
    expect(r.received[1].headers['webhook-id']).toBe(r.received[0].headers['webhook-id']);
    const [after] = await until(async () => {
      const l = await deliveriesOf(org, w.id);
      return l[0]?.status === 'SUCCEEDED' && l;
    });
    expect(after.attempts.map((a: any) => a.http_status)).toEqual([410, 200]);
    // another organization cannot see or retry it
    const other = await t.newOrg();
    const theirHook = await hook(other, { target_url: r.url });
    expect((await t.post(retryPath, undefined, { basic: other.api_key })).status).toBe(404);
    expect((await t.get(`/v1/webhooks/${w.id}/deliveries/${d.id}`, { basic: other.api_key })).status).toBe(404);
    expect((await t.get(`/v1/webhooks/${theirHook.id}/deliveries/${d.id}`, { basic: other.api_key })).status).toBe(404);
    expect((await t.post(`/v1/webhooks/${theirHook.id}/deliveries/${d.id}/retry`, undefined, { basic: other.api_key })).status).toBe(404);
    expect((await t.get(`/v1/webhooks/${w.id}/deliveries/dlv_nope`, { basic: org.api_key })).status).toBe(404);
    expect(r.received).toHaveLength(2);
  });

  it("a pending retry is dropped, not sent to the old URL, once the webhook's target_url changes", async () => {
    const org = await t.newOrg();
    const old = await receiver((_req, res) => res.writeHead(503).end());
    const moved = await receiver();
    const w = await hook(org, { target_url: old.url });
    await emit(org);
    await startWorker({ WEBHOOK_RETRY_SCALE: 0.4 }); // the retry comes 2 s later
    await old.waitFor(1);
    expect((await t.patch(`/v1/webhooks/${w.id}`, { target_url: moved.url }, { basic: org.api_key })).status).toBe(200);
    const [d] = await until(async () => {
      const l = await deliveriesOf(org, w.id);
      return l[0]?.status === 'DEAD' && l;
    });
    expect(d).toMatchObject({ attempt_count: 1, last_error: expect.stringMatching(/target_url has changed/) });
    expect(old.received).toHaveLength(1);
    expect(moved.received).toHaveLength(0);
    const retry = await t.post(`/v1/webhooks/${w.id}/deliveries/${d.id}/retry`, undefined, { basic: org.api_key });
    expect(retry.status).toBe(400);
    // new events go to the new URL
    await emit(org);
    await moved.waitFor(1);
    expect((await t.get(`/v1/webhooks/${w.id}`, { basic: org.api_key })).body.active).toBe(true);
  });

  it('events written while no worker runs (or Redis refuses the enqueue) stay in the outbox and are delivered later', async () => {
    const org = await t.newOrg();
    const r = await receiver();
    await hook(org, { target_url: r.url });
    const uuids = await emit(org, 'DOMAIN_ENROLLMENT', 3);
    const pending = await t.ds.query(`SELECT id FROM outbox_events WHERE id = ANY($1::uuid[]) AND relayed_at IS NULL`, [uuids]);
    expect(pending).toHaveLength(3);
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(0);

    // a relay whose enqueue fails (Redis unreachable) still commits the deliveries...
    const { Queue } = await import('bullmq');
    const { RelayService } = await import('../../src/modules/webhooks/relay.service');
    const deadQueue = new Queue('webhook-delivery', { connection: { host: '127.0.0.1', port: 1, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => null } as any });
    deadQueue.on('error', () => undefined);
    const relay = new RelayService(t.ds, t.config, deadQueue as any);
    const result = await relay.run();
    expect(result.deliveries).toBeGreaterThanOrEqual(3);
    await deadQueue.close().catch(() => undefined);
    const rows = await t.ds.query(`SELECT status FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])`, [uuids]);
    expect(rows.map((x: any) => x.status)).toEqual(['PENDING', 'PENDING', 'PENDING']);
    await t.ds.query(`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 hour' WHERE event_id = ANY($1::uuid[])`, [uuids]);
    // ...and the worker's sweep enqueues them once Redis answers
    await startWorker();
    const got = await r.waitFor(3);
    expect(got.map((g) => JSON.parse(g.body).event_type)).toEqual(['DOMAIN_ENROLLMENT', 'DOMAIN_ENROLLMENT', 'DOMAIN_ENROLLMENT']);
    const ids = new Set(got.map((g) => g.headers['webhook-id']));
    expect(ids.size).toBe(3);
  });

  it('the SSRF policy applies at delivery: loopback, metadata and names resolving to loopback are never reached', async () => {
    const org = await t.newOrg();
    const r = await receiver();
    const urls = [r.url, `http://localhost:${r.port}/hook`, 'http://169.254.169.254/latest/meta-data/'];
    const hooks = [];
    for (const [i, url] of urls.entries()) hooks.push(await hook(org, { target_url: url, event_type: i === 0 ? null : 'COURSE_ENROLLMENT' }));
    await emit(org);
    await startWorker({ ALLOW_PRIVATE_URLS: false, WEBHOOK_TIMEOUT_MS: 2000 });
    for (const h of hooks) {
      const [d] = await until(async () => {
        const l = await deliveriesOf(org, h.id);
        return l[0]?.attempt_count >= 1 && l;
      });
      expect(d.status).toBe('FAILED');
      expect(d.attempts[0]).toMatchObject({ http_status: null, error: expect.stringMatching(/blocked_address/) });
    }
    expect(r.received).toHaveLength(0);
  });

  it('ping: one signed PING at once; a failure neither retries nor deactivates; nothing is recorded', async () => {
    const org = await t.newOrg();
    let status = 200;
    const r = await receiver((_req, res) => res.writeHead(status).end('pong'));
    const w = await hook(org, { target_url: r.url, basic_auth_username: 'u', basic_auth_password: 'p' });
    for (const auth of [{ basic: org.api_key }, { token: await t.tokenFor(org, ['webhooks:write']) }]) {
      const ok = await t.post(`/v1/webhooks/${w.id}/ping`, undefined, auth);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ succeeded: true, http_status_code: 200, message: expect.any(String) });
    }
    expect(r.received).toHaveLength(2);
    const ping = r.received[0];
    const body = JSON.parse(ping.body);
    expect(body).toEqual({ id: expect.stringMatching(/^[0-9a-z]+$/), event_type: 'PING', timestamp: expect.any(String) });
    expect(ping.headers['webhook-id']).toBe(body.id);
    expect(ping.headers.authorization).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(verifyStandardWebhook(w.secret, ping.headers, ping.body)).toBe(true);
    status = 404;
    const failed = await t.post(`/v1/webhooks/${w.id}/ping`, undefined, { basic: org.api_key });
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual({ succeeded: false, http_status_code: 404, message: expect.any(String) });
    await startWorker();
    await new Promise((res) => setTimeout(res, 500));
    expect(r.received).toHaveLength(3);
    expect((await t.get(`/v1/webhooks/${w.id}`, { basic: org.api_key })).body).toMatchObject({ active: true, deactivate_reason: null });
    expect(await deliveriesOf(org, w.id)).toHaveLength(0);
    // unreachable: no status
    const gone = await receiver();
    const dead = await hook(org, { target_url: gone.url });
    await gone.close();
    receivers.splice(receivers.indexOf(gone), 1);
    const refused = await t.post(`/v1/webhooks/${dead.id}/ping`, undefined, { basic: org.api_key });
    expect(refused.body).toMatchObject({ succeeded: false });
    expect(refused.body).not.toHaveProperty('http_status_code'); // no HTTP answer: left out (CONVENTIONS §16)
    expect((await t.post(`/v1/webhooks/whk_nope/ping`, undefined, { basic: org.api_key })).status).toBe(404);
    expect((await t.post(`/v1/webhooks/${w.id}/ping`)).status).toBe(401);
  });
});
