import { getQueueToken } from '@nestjs/bullmq';
import { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { AppConfig, loadConfig } from '../../src/core/config/config';
import { recordEvents } from '../../src/core/events/outbox';
import { QUEUES } from '../../src/core/queue/queues';
import { CLEANUP_SCHEDULER_ID } from '../../src/modules/maintenance/cleanup.processor';
import { RELAY_SCHEDULER_ID } from '../../src/modules/webhooks/webhook-workers';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { PrivateRedis } from '../support/redis-server';
import { dropRedisPrefix, Receiver, startReceiver } from '../support/webhook-receiver';

/**
 * Redis losing its data (a restart without persistence, a flush) must not stop the worker's
 * repeatable jobs: the webhook relay, the cleanup and the sweeps come back by themselves, without
 * restarting the worker.
 */
jest.setTimeout(90_000);

async function until<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function emit(t: TestApp, org: CreatedOrg, n: number) {
  await t.ds.transaction((m) =>
    recordEvents(m, [
      {
        organizationId: orgUuid(org),
        type: 'COURSE_ENROLLMENT',
        objects: {
          user: { id: `user${n}`, email: `learner${n}@example.com`, first_name: 'Ada', last_name: 'Lovelace' },
          course: { id: 'c1', published_course_id: 'p1', title: 'Course', url: 'https://d.test/c' },
          domain: { id: 'd1', name: 'd.test' },
        },
      },
    ]),
  );
}

describe('Redis restarts empty: the worker restores its schedulers on reconnect', () => {
  let redis: PrivateRedis;
  let t: TestApp;
  let worker: INestApplicationContext | null = null;
  let receiver: Receiver;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true, REDIS_URL: redis.url });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await worker?.close();
    await redis.start(); // the app closes its queues against a running server
    await t?.close();
    await receiver?.close();
    await redis.stop();
  });

  it('webhook delivery resumes within seconds after a restart that lost every key (no periodic check involved)', async () => {
    const config: AppConfig = loadConfig(process.env, {
      ...t.config,
      WEBHOOK_RELAY_INTERVAL_MS: 200,
      WEBHOOK_LOCK_MS: 2000,
      // only the reconnect path may bring the schedulers back in this test
      SCHEDULER_CHECK_SECONDS: 3600,
    });
    worker = await createWorker(config);
    await worker.init();
    const relayQueue = worker.get<Queue>(getQueueToken(QUEUES.webhookRelay));
    const cleanupQueue = worker.get<Queue>(getQueueToken(QUEUES.maintenance));

    const org = await t.newOrg();
    const created = await t.post('/v1/webhooks', { target_url: receiver.url }, { basic: org.api_key });
    expect(created.status).toBe(201);
    await emit(t, org, 1);
    await receiver.waitFor(1);

    // Redis restarts empty: the relay's and the cleanup's schedulers are gone with the data
    await redis.stop();
    await redis.start();
    const probe = new Redis(redis.url);
    try {
      expect(await probe.dbsize()).toBeLessThan(5);
    } finally {
      probe.disconnect();
    }

    await emit(t, org, 2);
    await receiver.waitFor(2, 20_000);
    expect(JSON.parse(receiver.received[1].body).user.id).toBe('user2');
    expect(await until(() => relayQueue.getJobScheduler(RELAY_SCHEDULER_ID), 10_000, 'relay scheduler')).toBeTruthy();
    expect(await until(() => cleanupQueue.getJobScheduler(CLEANUP_SCHEDULER_ID), 10_000, 'cleanup scheduler')).toBeTruthy();
  });
});

describe("a worker's schedulers whose keys are deleted come back by the periodic check", () => {
  let t: TestApp;
  let worker: INestApplicationContext | null = null;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
  });

  it('the cleanup and relay schedulers exist again within seconds, the worker still running', async () => {
    worker = await createWorker(loadConfig(process.env, { ...t.config, SCHEDULER_CHECK_SECONDS: 1 }));
    await worker.init();
    const relayQueue = worker.get<Queue>(getQueueToken(QUEUES.webhookRelay));
    const cleanupQueue = worker.get<Queue>(getQueueToken(QUEUES.maintenance));
    expect(await cleanupQueue.getJobScheduler(CLEANUP_SCHEDULER_ID)).toBeTruthy();
    expect(await relayQueue.getJobScheduler(RELAY_SCHEDULER_ID)).toBeTruthy();

    // only this test's keys: other test files share the Redis server
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
    expect(await cleanupQueue.getJobScheduler(CLEANUP_SCHEDULER_ID)).toBeFalsy();

    expect(await until(() => cleanupQueue.getJobScheduler(CLEANUP_SCHEDULER_ID), 10_000, 'cleanup scheduler')).toBeTruthy();
    expect(await until(() => relayQueue.getJobScheduler(RELAY_SCHEDULER_ID), 10_000, 'relay scheduler')).toBeTruthy();
    // and the restored cleanup scheduler runs its job (an `every` scheduler's first run is at once)
    await until(async () => (await cleanupQueue.getJobCounts('completed')).completed > 0, 10_000, 'a cleanup run');
  });
});
