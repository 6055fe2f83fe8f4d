import { INestApplicationContext } from '@nestjs/common';
import { testEvent } from '../support/events';
import { ChildProcess } from 'node:child_process';
import { ServerResponse } from 'node:http';
import { loadConfig } from '../../src/core/config/config';
import { recordEvents } from '../../src/core/events/outbox';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { dropRedisPrefix, startReceiver, verifyStandardWebhook } from '../support/webhook-receiver';
import { spawnWorker } from '../support/worker-process';

/**
 * At-least-once across a worker crash: the real worker process (npm run worker's entry point) is
 * killed with SIGKILL while the receiver holds the delivery's request. A new worker takes the job
 * over (BullMQ stalled-job recovery, lock WEBHOOK_LOCK_MS) and delivers it, with the same
 * webhook-id; the delivery row only ever records the attempt that completed.
 */
jest.setTimeout(120_000);

describe('webhook delivery survives a killed worker', () => {
  let t: TestApp;
  let child: ChildProcess | null = null;
  let worker: INestApplicationContext | null = null;

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (worker) await worker.close();
    await t.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
  });

  it('the delivery completes after the worker is killed mid-request, with the same webhook-id', async () => {
    const held: ServerResponse[] = [];
    const r = await startReceiver((_req, res, n) => {
      if (n === 1)
        held.push(res); // never answered: the worker dies waiting
      else res.writeHead(200).end('ok');
    });
    try {
      const org = await t.newOrg();
      const created = await t.post('/v1/webhooks', { target_url: r.url }, { basic: org.api_key });
      expect(created.status).toBe(201);
      const [eventUuid] = await t.ds.transaction((m) => recordEvents(m, [testEvent(orgUuid(org), 'COURSE_COMPLETION', { user: { id: 'stu_x', email: 'a@b.test', first_name: 'A', last_name: 'B' } })]));

      const proc = spawnWorker(t.config, { WEBHOOK_LOCK_MS: '1000', WEBHOOK_RELAY_INTERVAL_MS: '100' });
      child = proc.child;
      await proc.orReport(r.waitFor(1, 90_000));
      await proc.kill();

      const [before] = await t.ds.query(`SELECT status, attempt_count FROM webhook_deliveries WHERE event_id = $1`, [eventUuid]);
      expect(before).toEqual({ status: 'PENDING', attempt_count: 0 });

      worker = await createWorker(loadConfig(process.env, { ...t.config, WEBHOOK_LOCK_MS: 1000, WEBHOOK_RELAY_INTERVAL_MS: 100 }));
      await worker.init();
      const got = await r.waitFor(2, 30_000);
      expect(got[1].headers['webhook-id']).toBe(got[0].headers['webhook-id']);
      expect(got[1].body).toBe(got[0].body);
      expect(verifyStandardWebhook(created.body.secret, got[1].headers, got[1].body)).toBe(true);
      const end = Date.now() + 10_000;
      let after: any;
      do {
        [after] = await t.ds.query(`SELECT status, attempt_count FROM webhook_deliveries WHERE event_id = $1`, [eventUuid]);
        if (after.status === 'SUCCEEDED') break;
        await new Promise((res) => setTimeout(res, 50));
      } while (Date.now() < end);
      expect(after).toEqual({ status: 'SUCCEEDED', attempt_count: 1 });
      expect(r.received).toHaveLength(2);
    } finally {
      for (const res of held) res.destroy();
      await r.close();
    }
  });
});

describe('webhook delivery across a graceful worker stop', () => {
  let t: TestApp;
  const workers: INestApplicationContext[] = [];
  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true });
  });
  afterAll(async () => {
    for (const w of workers) await w.close().catch(() => undefined);
    await t.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
  });

  it('closing the worker context while the receiver holds the request: the attempt times out and a new worker completes the delivery, same webhook-id', async () => {
    const held: ServerResponse[] = [];
    const r = await startReceiver((_req, res, n) => {
      if (n === 1) held.push(res);
      else res.writeHead(200).end('ok');
    });
    try {
      const org = await t.newOrg();
      const created = await t.post('/v1/webhooks', { target_url: r.url }, { basic: org.api_key });
      const [eventUuid] = await t.ds.transaction((m) => recordEvents(m, [testEvent(orgUuid(org), 'QUIZ_COMPLETION', { user: { id: 'stu_y', email: 'y@b.test', first_name: 'Y', last_name: 'Z' } })]));
      const config = loadConfig(process.env, { ...t.config, WEBHOOK_TIMEOUT_MS: 1000, WEBHOOK_RETRY_SCALE: 0.001, WEBHOOK_RELAY_INTERVAL_MS: 100 });
      const first = await createWorker(config);
      workers.push(first);
      await first.init();
      await r.waitFor(1);
      await first.close(); // waits for the job in flight: it ends with the 1 s time limit
      const [mid] = await t.ds.query(`SELECT status, attempt_count FROM webhook_deliveries WHERE event_id = $1`, [eventUuid]);
      expect(mid).toEqual({ status: 'FAILED', attempt_count: 1 });
      const second = await createWorker(config);
      workers.push(second);
      await second.init();
      const got = await r.waitFor(2, 20_000);
      expect(got[1].headers['webhook-id']).toBe(got[0].headers['webhook-id']);
      expect(verifyStandardWebhook(created.body.secret, got[1].headers, got[1].body)).toBe(true);
      const end = Date.now() + 10_000;
      let after: any;
      do {
        [after] = await t.ds.query(`SELECT status, attempt_count FROM webhook_deliveries WHERE event_id = $1`, [eventUuid]);
        if (after.status === 'SUCCEEDED') break;
        await new Promise((res) => setTimeout(res, 50));
      } while (Date.now() < end);
      expect(after).toEqual({ status: 'SUCCEEDED', attempt_count: 2 });
    } finally {
      for (const res of held) res.destroy();
      await r.close();
    }
  });
});
