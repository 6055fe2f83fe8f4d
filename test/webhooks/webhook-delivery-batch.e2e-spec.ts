import { waitFor } from '../support/eventually';
import { testEvent } from '../support/events';
import { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import { loadConfig } from '../../src/core/config/config';
import { recordEvents } from '../../src/core/events/outbox';
import { QUEUES } from '../../src/core/queue/queues';
import { redisOptions } from '../../src/core/redis/redis.module';
import { DELIVERIES_PER_JOB, RelayService } from '../../src/modules/webhooks/relay.service';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { dropRedisPrefix, Receiver, startReceiver, verifyStandardWebhook } from '../support/webhook-receiver';

/**
 * The relay queues its deliveries several to a job (DELIVERIES_PER_JOB). Inside one such job each
 * delivery is still attempted, recorded and retried on its own: one receiver failing does not
 * touch the others' deliveries, and the failed one is retried on the schedule, as its own job.
 */
jest.setTimeout(60_000);

describe('webhook deliveries queued several to a job', () => {
  let t: TestApp;
  let worker: INestApplicationContext | null = null;
  let queue: Queue;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true });
    queue = new Queue(QUEUES.webhookDelivery, { connection: redisOptions(t.config), prefix: `${t.config.REDIS_PREFIX}:bull` });
  });
  afterAll(async () => {
    if (worker) await worker.close();
    for (const r of receivers) await r.close();
    await queue.close();
    await t.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
  });

  it('one job, one delivery failing: every delivery recorded on its own, the failed one retried alone with the same webhook-id', async () => {
    const good = await startReceiver();
    // the first request it gets fails (503), every later one succeeds
    const flaky = await startReceiver((_req, res, n) => res.writeHead(n === 1 ? 503 : 200).end(n === 1 ? 'busy' : 'ok'));
    receivers.push(good, flaky);
    const org = await t.newOrg();
    const hooks: { id: string; secret: string }[] = [];
    for (const r of [good, flaky]) {
      const res = await t.post('/v1/webhooks', { target_url: r.url }, { basic: org.api_key });
      expect(res.status).toBe(201);
      hooks.push(res.body);
    }
    const events = await t.ds.transaction((m) =>
      recordEvents(
        m,
        Array.from({ length: 4 }, (_x, i) => testEvent(orgUuid(org), 'COURSE_ENROLLMENT', { user: { id: `stu_${i}`, email: `b${i}@b.test`, first_name: 'B', last_name: 'C' } })),
      ),
    );

    // the relay (as the worker runs it) queues the 8 deliveries as ONE job
    const config = loadConfig(process.env, { ...t.config, WEBHOOK_RELAY_INTERVAL_MS: 100, WEBHOOK_RETRY_SCALE: 0.001, WEBHOOK_LOCK_MS: 2000 });
    const relayed = await new RelayService(t.ds, config, queue as any).run();
    expect(relayed.deliveries).toBe(8);
    expect(DELIVERIES_PER_JOB).toBeGreaterThanOrEqual(8);
    const jobs = await queue.getJobs(['waiting']);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].data).toEqual({ deliveryIds: expect.any(Array) });
    expect((jobs[0].data as { deliveryIds: string[] }).deliveryIds).toHaveLength(8);

    worker = await createWorker(config);
    await worker.init();
    await good.waitFor(4);
    const flakyGot = await flaky.waitFor(5);
    // the retry is the delivery that failed: same webhook-id and body, signed again
    expect(flakyGot[4].headers['webhook-id']).toBe(flakyGot[0].headers['webhook-id']);
    expect(flakyGot[4].body).toBe(flakyGot[0].body);
    expect(verifyStandardWebhook(hooks[1].secret, flakyGot[4].headers, flakyGot[4].body)).toBe(true);
    expect(new Set(flakyGot.slice(0, 4).map((g) => g.headers['webhook-id'])).size).toBe(4);

    const rows: { webhook_id: string; status: string; attempt_count: number; attempts: { no: number; http: number }[] }[] = await waitFor(
      async () => {
        const r = await t.ds.query(
          `SELECT d.webhook_id, d.status, d.attempt_count,
                  (SELECT json_agg(json_build_object('no', a.attempt_no, 'http', a.http_status) ORDER BY a.attempt_no) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts
             FROM webhook_deliveries d WHERE d.event_id = ANY($1::uuid[]) AND d.organization_id = $2`,
          [events, orgUuid(org)],
        );
        return r.length === 8 && r.every((x: { status: string }) => x.status === 'SUCCEEDED') && r;
      },
      { timeoutMs: 15_000, intervalMs: 50, what: 'all eight deliveries to succeed' },
    );
    const retried = rows.filter((r) => r.attempt_count === 2);
    expect(retried).toHaveLength(1);
    expect(retried[0].attempts).toEqual([
      { no: 1, http: 503 },
      { no: 2, http: 200 },
    ]);
    for (const r of rows.filter((x) => x.attempt_count === 1)) expect(r.attempts).toEqual([{ no: 1, http: 200 }]);
    // no delivery sent twice but the one retried
    await new Promise((res) => setTimeout(res, 300));
    expect(good.received).toHaveLength(4);
    expect(flaky.received).toHaveLength(5);
  });
});
