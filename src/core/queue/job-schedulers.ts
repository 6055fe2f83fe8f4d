import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { JobSchedulerTemplateOptions, Queue } from 'bullmq';
import Redis from 'ioredis';
import { AppConfig } from '../config/config';
import { REDIS } from '../redis/redis.module';

/** One repeatable job: a BullMQ job scheduler (`every` ms) with its job template. */
export interface SchedulerSpec {
  queue: Queue;
  id: string;
  every: number;
  name: string;
  data: unknown;
  opts?: JobSchedulerTemplateOptions;
}

/**
 * Keeps the worker's job schedulers alive. A scheduler lives in Redis only: if Redis restarts
 * empty (or its keys are lost), the relay, the cleanup and the sweeps would silently stop until
 * the worker restarts. So every scheduler registered here is upserted at once, then checked every
 * SCHEDULER_CHECK_SECONDS and whenever the shared Redis connection becomes ready again after a
 * reconnect, and upserted again when it is missing. Checking first (instead of upserting blindly)
 * leaves a live schedule alone: upserting an `every` scheduler runs its first job at once.
 * upsertJobScheduler is idempotent by id, so several workers doing this at once still leave one
 * scheduler per id.
 */
@Injectable()
export class JobSchedulers implements OnModuleDestroy {
  private readonly logger = new Logger(JobSchedulers.name);
  private readonly specs = new Map<string, SchedulerSpec>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly onReady = () => void this.ensure('redis ready');

  constructor(
    private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** Upsert the scheduler now and keep it alive from then on. */
  async register(spec: SchedulerSpec): Promise<void> {
    this.specs.set(`${spec.queue.name}/${spec.id}`, spec);
    await this.upsert(spec);
    if (!this.timer) {
      this.timer = setInterval(() => void this.ensure('periodic check'), this.config.SCHEDULER_CHECK_SECONDS * 1000);
      this.timer.unref();
      this.redis.on('ready', this.onReady);
    }
  }

  /** Re-create every registered scheduler that Redis no longer has. Never throws; runs one at a time. */
  ensure(reason = 'check'): Promise<void> {
    if (!this.running) {
      this.running = this.ensureAll(reason).finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async ensureAll(reason: string): Promise<void> {
    for (const spec of this.specs.values()) {
      try {
        if (await spec.queue.getJobScheduler(spec.id)) continue;
        await this.upsert(spec);
        this.logger.warn({ msg: 'job scheduler was missing and is restored', queue: spec.queue.name, scheduler: spec.id, reason });
      } catch (err) {
        this.logger.warn({ msg: 'job scheduler check failed', queue: spec.queue.name, scheduler: spec.id, reason, err: (err as Error).message });
      }
    }
  }

  private upsert(spec: SchedulerSpec) {
    return spec.queue.upsertJobScheduler(spec.id, { every: spec.every }, { name: spec.name, data: spec.data, opts: spec.opts });
  }

  onModuleDestroy() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.redis.off('ready', this.onReady);
    this.specs.clear();
  }
}
