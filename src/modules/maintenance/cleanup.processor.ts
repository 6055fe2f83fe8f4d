import { OnWorkerEvent, Processor } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { JobHandlers, QueueWorker, WorkerSchedule } from '../../core/queue/queue-worker';
import { CleanupJob, QUEUES } from '../../core/queue/queues';
import { CleanupService } from './cleanup.service';

/** Id of the job scheduler that enqueues the cleanup every CLEANUP_INTERVAL_SECONDS. */
export const CLEANUP_SCHEDULER_ID = 'cleanup-expired-auth';

/**
 * The maintenance queue's consumer (worker process only). On boot it upserts the repeatable
 * cleanup job: one scheduler per deployment however many workers run, and a changed
 * CLEANUP_INTERVAL_SECONDS replaces the old schedule. BullMQ runs an `every` scheduler's first
 * job at once, so each worker start also cleans up. JobSchedulers restores the scheduler when
 * Redis loses it.
 */
/** The cleanup, every CLEANUP_INTERVAL_SECONDS. */
const cleanupSchedule: WorkerSchedule<CleanupJob> = { id: CLEANUP_SCHEDULER_ID, name: 'cleanup', data: { kind: 'expired-auth' }, everySeconds: (config) => config.CLEANUP_INTERVAL_SECONDS };

@Processor(QUEUES.maintenance, { concurrency: 1 })
export class CleanupProcessor extends QueueWorker<CleanupJob>(QUEUES.maintenance, 'maintenance', cleanupSchedule) {
  constructor(private readonly cleanup: CleanupService) {
    super();
  }

  protected readonly jobs: JobHandlers<CleanupJob> = {
    'expired-auth': () => this.cleanup.run(),
  };

  async onApplicationBootstrap() {
    await super.onApplicationBootstrap();
    this.logger.log({ msg: 'cleanup scheduled', everySeconds: this.config.CLEANUP_INTERVAL_SECONDS });
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job<CleanupJob> | undefined, err: Error) {
    this.logger.error({ msg: 'cleanup failed', jobId: job?.id, err: err.message });
  }
}
