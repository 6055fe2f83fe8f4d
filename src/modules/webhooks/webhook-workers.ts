import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DelayedError, Job, Queue, Worker } from 'bullmq';
import { AppConfig } from '../../core/config/config';
import { JobSchedulers } from '../../core/queue/job-schedulers';
import { QUEUES, WebhookDeliveryJob, WebhookRelayJob } from '../../core/queue/queues';
import { redisOptions } from '../../core/redis/redis.module';
import { isUnreachable } from '../../core/runtime/startup';
import { DeliveryService, Gate } from './delivery.service';
import { DeliverySlots } from './delivery-slots';
import { GroupCommit } from './group-commit';
import { AnyDeliveryJob, deliveryJobOptions, RelayService, REQUEUE_PRIORITY } from './relay.service';

export const RELAY_SCHEDULER_ID = 'webhook-relay';

/**
 * Delivery jobs taken at once per delivery slot. The slots (WORKER_CONCURRENCY) bound the work; a
 * job waiting for slots costs nothing but memory. Taking more jobs than slots lets the slots go
 * round-robin between the organizations and endpoints of several jobs, and keeps the worker taking
 * jobs while some wait on deliveries to a slow endpoint (issue 25 item 13).
 */
export const JOBS_PER_SLOT = 4;

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
 * - webhook-delivery: the relay's jobs carry up to DELIVERIES_PER_JOB deliveries each; a retry (and
 *   a delivery queued by a sweep or a retry request) is a job of its own (job id = delivery id),
 *   which a failed attempt re-delays to the next time of the retry schedule. At most
 *   WORKER_CONCURRENCY deliveries hold a slot in the process, whatever jobs they belong to, served
 *   round-robin between organizations and endpoints (DeliverySlots); up to JOBS_PER_SLOT jobs per
 *   slot are taken at once.
 */
@Injectable()
export class WebhookWorkers implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookWorkers.name);
  private workers: Worker[] = [];
  private slots!: DeliverySlots;
  private readonly gate: Gate = (key, fn, defer) => this.slots.run(key, fn, defer);
  /**
   * Deliveries of batch jobs to run again later (a failed attempt, a deferral, one not yet due):
   * each gets its delayed job as soon as its own attempt is recorded, not when its whole batch is
   * done (those finishing together are added in one addBulk).
   */
  private readonly later = new GroupCommit<{ id: string; at: number }, void>(async (items) => {
    const now = Date.now();
    await this.deliveryQueue.addBulk(
      items.map(({ id, at }) => ({ name: 'deliver', data: { deliveryId: id }, opts: { ...deliveryJobOptions(id), priority: REQUEUE_PRIORITY, delay: Math.max(0, at - now) } })),
    );
    return items.map(() => undefined);
  });

  constructor(
    private readonly config: AppConfig,
    private readonly relay: RelayService,
    private readonly delivery: DeliveryService,
    @InjectQueue(QUEUES.webhookRelay) private readonly relayQueue: Queue<WebhookRelayJob>,
    @InjectQueue(QUEUES.webhookDelivery) private readonly deliveryQueue: Queue<AnyDeliveryJob>,
    private readonly schedulers: JobSchedulers,
  ) {}

  async onApplicationBootstrap() {
    const connection = { ...redisOptions(this.config), maxRetriesPerRequest: null };
    const prefix = `${this.config.REDIS_PREFIX}:bull`;
    const lock = this.config.WEBHOOK_LOCK_MS;

    this.slots = new DeliverySlots(this.config.WORKER_CONCURRENCY, { expectedSlowMs: this.config.WEBHOOK_TIMEOUT_MS });
    const deliveryWorker = new Worker<AnyDeliveryJob>(
      QUEUES.webhookDelivery,
      async (job: Job<AnyDeliveryJob>, token?: string) => {
        if ('deliveryIds' in job.data) return this.deliverBatch(job.data.deliveryIds);
        const { deliveryId } = job.data as WebhookDeliveryJob;
        const r = await this.delivery.deliver(deliveryId, { gate: this.gate });
        if (r.retryAt) {
          await job.moveToDelayed(r.retryAt.getTime(), token);
          throw new DelayedError();
        }
        return r.status ?? null;
      },
      { connection, prefix, concurrency: this.config.WORKER_CONCURRENCY * JOBS_PER_SLOT, ...deliveryLockOptions(lock) },
    );
    const relayWorker = new Worker<WebhookRelayJob>(QUEUES.webhookRelay, async () => this.relay.run(), {
      connection,
      prefix,
      concurrency: 1,
      lockDuration: Math.max(lock, 30_000),
    });
    for (const w of [deliveryWorker, relayWorker]) {
      w.on('error', (err) => !isUnreachable(err) && this.logger.error({ msg: 'webhook worker error', queue: w.name, err: err.message }));
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

  /**
   * The deliveries of a relay job, each attempted and recorded on its own (at most
   * WORKER_CONCURRENCY POSTs in flight across the process, in the slots' round-robin turn; the rows
   * are read together, see DeliveryService.preloader). Those that must run again later (a failed
   * attempt, a deferral, or one not yet due) get a delayed job of their own, job id = delivery id,
   * as soon as their own attempt is done (not when the whole job is), as a single delivery's job
   * re-delays itself. If a delivery could not be attempted
   * (the database unreachable, ...) the job fails once the others are done and BullMQ runs it
   * again: the delivery rows tell what is already done (succeeded, or failed and re-queued).
   */
  private async deliverBatch(ids: string[]): Promise<{ delivered: number; retries: number }> {
    let retries = 0;
    const preloaded = this.delivery.preloader(ids);
    const outcomes = await Promise.allSettled(
      ids.map(async (id) => {
        const r = await this.delivery.deliver(id, { gate: this.gate, preloaded });
        if (r.retryAt) {
          retries++;
          await this.later.add({ id, at: r.retryAt.getTime() });
        }
      }),
    );
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
    return { delivered: ids.length - retries, retries };
  }

  /** Stop taking jobs and wait for the ones in flight (Nest calls this on shutdown). */
  async onModuleDestroy() {
    this.relay.stopping = true;
    await Promise.all(this.workers.map((w) => w.close()));
    this.workers = [];
  }
}
