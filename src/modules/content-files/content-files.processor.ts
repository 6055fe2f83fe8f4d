import { Processor } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { JobHandlers, QueueWorker, sweeper } from '../../core/queue/queue-worker';
import { ContentFileJob, QUEUES } from '../../core/queue/queues';
import { ImportJobs, IMPORT_SWEEP_SCHEDULER_ID } from './import-jobs';
import { AssetImporter, WebPackageImporter } from './importers';

/**
 * Consumer of the content-files queue (worker process only): asset and web-package imports.
 * A network failure is retried (the job's attempts); on the last attempt, or for anything that
 * will not get better (refused address, too large, unsafe zip), the row is settled FAILED.
 * It also runs the import sweeper (a job scheduler every REQUEUE_SWEEP_SECONDS): imports saved
 * while Redis was unreachable get their job then (see import-jobs.ts).
 */
@Processor(QUEUES.contentFiles, { concurrency: 4 })
export class ContentFilesProcessor extends QueueWorker<ContentFileJob>(QUEUES.contentFiles, 'content-files', sweeper(IMPORT_SWEEP_SCHEDULER_ID, 'requeue-pending')) {
  constructor(
    private readonly assets: AssetImporter,
    private readonly packages: WebPackageImporter,
    private readonly imports: ImportJobs,
  ) {
    super();
  }

  protected readonly jobs: JobHandlers<ContentFileJob> = {
    'asset-import': (data, job) => this.assets.run(data.organizationId, data.assetId, isLastAttempt(job)),
    'web-package-import': (data, job) => this.packages.run(data.organizationId, data.webPackageId, isLastAttempt(job)),
    'requeue-pending': () => this.imports.requeuePending(),
  };
}

const isLastAttempt = (job: Job) => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
