import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job, Queue } from 'bullmq';
import { AppConfig } from '../../core/config/config';
import { JobSchedulers } from '../../core/queue/job-schedulers';
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
export class ContentFilesProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(ContentFilesProcessor.name);

  constructor(
    private readonly assets: AssetImporter,
    private readonly packages: WebPackageImporter,
    private readonly imports: ImportJobs,
    private readonly config: AppConfig,
    private readonly schedulers: JobSchedulers,
    @InjectQueue(QUEUES.contentFiles) private readonly queue: Queue<ContentFileJob>,
  ) {
    super();
  }

  async onApplicationBootstrap() {
    await this.schedulers.register({
      queue: this.queue,
      id: IMPORT_SWEEP_SCHEDULER_ID,
      every: this.config.REQUEUE_SWEEP_SECONDS * 1000,
      name: 'requeue-pending',
      data: { kind: 'requeue-pending' },
      opts: { attempts: 1, removeOnComplete: 100, removeOnFail: 100 },
    });
  }

  async process(job: Job<ContentFileJob>): Promise<unknown> {
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    switch (job.data.kind) {
      case 'asset-import':
        return this.assets.run(job.data.organizationId, job.data.assetId, lastAttempt);
      case 'web-package-import':
        return this.packages.run(job.data.organizationId, job.data.webPackageId, lastAttempt);
      case 'requeue-pending':
        return this.imports.requeuePending();
      default:
        throw new Error(`unknown content-files job kind: ${(job.data as { kind?: unknown }).kind}`);
    }
  }

  /** Connection trouble (Redis restarting): logged, the worker carries on. */
  @OnWorkerEvent('error')
  onError(err: Error) {
    this.logger.warn({ msg: 'content-files worker error', err: err.message });
  }
}
