import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job, Queue } from 'bullmq';
import { AppConfig } from '../../core/config/config';
import { JobSchedulers } from '../../core/queue/job-schedulers';
import { CleanupJob, QUEUES } from '../../core/queue/queues';
import { CleanupResult, CleanupService } from './cleanup.service';

/** Id of the job scheduler that enqueues the cleanup every CLEANUP_INTERVAL_SECONDS. */
export const CLEANUP_SCHEDULER_ID = 'cleanup-expired-auth';

/**
 * The maintenance queue's consumer (worker process only). On boot it upserts the repeatable
 * cleanup job: one scheduler per deployment however many workers run, and a changed
 * CLEANUP_INTERVAL_SECONDS replaces the old schedule. BullMQ runs an `every` scheduler's first
 * job at once, so each worker start also cleans up. JobSchedulers restores the scheduler when
 * Redis loses it.
 */
@Processor(QUEUES.maintenance, { concurrency: 1 })
export class CleanupProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(CleanupProcessor.name);

  constructor(
    private readonly cleanup: CleanupService,
    private readonly config: AppConfig,
    @InjectQueue(QUEUES.maintenance) private readonly queue: Queue<CleanupJob>,
    private readonly schedulers: JobSchedulers,
  ) {
    super();
  }

  async onApplicationBootstrap() {
    // kept alive by JobSchedulers: restored within seconds if Redis loses it (restart, flush)
    await this.schedulers.register({
      queue: this.queue,
      id: CLEANUP_SCHEDULER_ID,
      every: this.config.CLEANUP_INTERVAL_SECONDS * 1000,
      name: 'cleanup',
      data: { kind: 'expired-auth' },
      opts: { attempts: 1, removeOnComplete: 100, removeOnFail: 100 },
    });
    this.logger.log({ msg: 'cleanup scheduled', everySeconds: this.config.CLEANUP_INTERVAL_SECONDS });
  }

  async process(job: Job<CleanupJob>): Promise<CleanupResult> {
    switch (job.data.kind) {
      case 'expired-auth':
        return this.cleanup.run();
      default:
        throw new Error(`unknown maintenance job kind: ${(job.data as { kind?: unknown }).kind}`);
    }
  }

  /** Connection trouble (Redis restarting, keys lost under a running job): logged, the worker carries on. */
  @OnWorkerEvent('error')
  onError(err: Error) {
    this.logger.warn({ msg: 'maintenance worker error', err: err.message });
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job<CleanupJob> | undefined, err: Error) {
    this.logger.error({ msg: 'cleanup failed', jobId: job?.id, err: err.message });
  }
}
