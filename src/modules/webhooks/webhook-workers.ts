import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DelayedError, Job, Queue, Worker } from 'bullmq';
import { AppConfig } from '../../core/config/config';
import { JobSchedulers } from '../../core/queue/job-schedulers';
import { QUEUES, WebhookDeliveryJob, WebhookRelayJob } from '../../core/queue/queues';
import { redisOptions } from '../../core/redis/redis.module';
import { DeliveryService } from './delivery.service';
import { RelayService } from './relay.service';

export const RELAY_SCHEDULER_ID = 'webhook-relay';

/**
 * Lock and stalled-check options of the delivery consumer. A live worker renews its jobs' locks
 * every lock/2. BullMQ's stalled check (one per interval across all workers) first marks the active
 * jobs, and the next check moves a marked job whose lock has expired back to the wait list; so a
 * killed worker's jobs run again at most lock + interval after the kill (about lock/2 + interval
 * at best). With the interval a fifth of the lock: 1.2 x WEBHOOK_LOCK_MS at worst, 6 s by default.
 * Jobs never fail for stalling (maxStalledCount 1000): the delivery row guards every attempt.
 */
export function deliveryLockOptions(lockMs: number) {
  return { lockDuration: lockMs, stalledInterval: Math.max(100, Math.round(lockMs / 5)), maxStalledCount: 1000 };
}

/**
 * The two BullMQ consumers of the worker process. They are built here rather than with
 * @Processor so that their options come from the configuration: delivery concurrency is
 * WORKER_CONCURRENCY, and the job lock (after which a dead worker's job is taken over by another
 * worker's stalled-job check) is WEBHOOK_LOCK_MS.
 * - webhook-relay: a repeatable job every WEBHOOK_RELAY_INTERVAL_MS (one scheduler per deployment)
 *   that moves pending outbox rows to deliveries; concurrency 1.
 * - webhook-delivery: one job per delivery (job id = delivery id); a failed attempt re-delays the
 *   same job to the next time of the retry schedule.
 */
@Injectable()
export class WebhookWorkers implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookWorkers.name);
  private workers: Worker[] = [];

  constructor(
    private readonly config: AppConfig,
    private readonly relay: RelayService,
    private readonly delivery: DeliveryService,
    @InjectQueue(QUEUES.webhookRelay) private readonly relayQueue: Queue<WebhookRelayJob>,
    private readonly schedulers: JobSchedulers,
  ) {}

  async onApplicationBootstrap() {
    const connection = { ...redisOptions(this.config), maxRetriesPerRequest: null };
    const prefix = `${this.config.REDIS_PREFIX}:bull`;
    const lock = this.config.WEBHOOK_LOCK_MS;

    const deliveryWorker = new Worker<WebhookDeliveryJob>(
      QUEUES.webhookDelivery,
      async (job: Job<WebhookDeliveryJob>, token?: string) => {
        const r = await this.delivery.deliver(job.data.deliveryId);
        if (r.retryAt) {
          await job.moveToDelayed(r.retryAt.getTime(), token);
          throw new DelayedError();
        }
        return r.status ?? null;
      },
      { connection, prefix, concurrency: this.config.WORKER_CONCURRENCY, ...deliveryLockOptions(lock) },
    );
    const relayWorker = new Worker<WebhookRelayJob>(QUEUES.webhookRelay, async () => this.relay.run(), {
      connection,
      prefix,
      concurrency: 1,
      lockDuration: Math.max(lock, 30_000),
    });
    for (const w of [deliveryWorker, relayWorker]) {
      w.on('error', (err) => this.logger.error({ msg: 'webhook worker error', queue: w.name, err: err.message }));
      w.on('failed', (job, err) => {
        if (!(err instanceof DelayedError)) this.logger.error({ msg: 'webhook job failed', queue: w.name, jobId: job?.id, err: err.message });
      });
    }
    this.workers = [deliveryWorker, relayWorker];
    // kept alive by JobSchedulers: restored within seconds if Redis loses it (restart, flush)
    await this.schedulers.register({
      queue: this.relayQueue,
      id: RELAY_SCHEDULER_ID,
      every: this.config.WEBHOOK_RELAY_INTERVAL_MS,
      name: 'relay',
      data: { kind: 'relay' },
      opts: { attempts: 1, removeOnComplete: true, removeOnFail: 100 },
    });
  }

  /** Stop taking jobs and wait for the ones in flight (Nest calls this on shutdown). */
  async onModuleDestroy() {
    this.relay.stopping = true;
    await Promise.all(this.workers.map((w) => w.close()));
    this.workers = [];
  }
}
