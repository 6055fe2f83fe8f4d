import { InjectQueue, Processor } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { JobHandlers, QueueWorker } from '../../core/queue/queue-worker';
import { DataExportJob, QUEUES } from '../../core/queue/queues';
import { ExportRunner } from './export-runner';
import { exportJobOptions } from './exports.service';

/** An export not heard of for this long (a queued one whose job never reached Redis, a running one whose worker died) is queued again. */
const STALE_SECONDS = 120;

/**
 * Consumer of the data-exports queue (worker process only): runs exports, and every
 * REQUEUE_SWEEP_SECONDS the sweeper deletes expired export files and re-queues stale exports.
 */
@Processor(QUEUES.dataExports, { concurrency: 2 })
export class ExportsProcessor extends QueueWorker<DataExportJob>(QUEUES.dataExports, 'data-exports', {
  id: 'data-exports-sweep',
  name: 'sweep-exports',
  data: { kind: 'sweep-exports' },
  everySeconds: (config) => config.REQUEUE_SWEEP_SECONDS,
}) {
  constructor(
    private readonly runner: ExportRunner,
    @InjectQueue(QUEUES.dataExports) private readonly exportsQueue: Queue<DataExportJob>,
  ) {
    super();
  }

  protected readonly jobs: JobHandlers<DataExportJob> = {
    export: (data) => this.runner.run(data.organizationId, data.exportId),
    'sweep-exports': () => this.sweep(),
  };

  async sweep(): Promise<{ expired: number; requeued: number }> {
    const expired = await this.runner.expire();
    let requeued = 0;
    for (const r of await this.runner.stale(STALE_SECONDS)) {
      const opts = exportJobOptions(r.id);
      const state = await this.exportsQueue.getJobState(opts.jobId);
      if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized') continue;
      if (state !== 'unknown') await this.exportsQueue.remove(opts.jobId);
      await this.exportsQueue.add('export', { kind: 'export', organizationId: r.organization_id, exportId: r.id }, opts);
      requeued++;
    }
    return { expired, requeued };
  }
}
