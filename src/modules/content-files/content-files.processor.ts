import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { ContentFileJob, QUEUES } from '../../core/queue/queues';
import { AssetImporter, WebPackageImporter } from './importers';

/**
 * Consumer of the content-files queue (worker process only): asset and web-package imports.
 * A network failure is retried (the job's attempts); on the last attempt, or for anything that
 * will not get better (refused address, too large, unsafe zip), the row is settled FAILED.
 */
@Processor(QUEUES.contentFiles, { concurrency: 4 })
export class ContentFilesProcessor extends WorkerHost {
  constructor(
    private readonly assets: AssetImporter,
    private readonly packages: WebPackageImporter,
  ) {
    super();
  }

  async process(job: Job<ContentFileJob>): Promise<string> {
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    switch (job.data.kind) {
      case 'asset-import':
        return this.assets.run(job.data.organizationId, job.data.assetId, lastAttempt);
      case 'web-package-import':
        return this.packages.run(job.data.organizationId, job.data.webPackageId, lastAttempt);
      default:
        throw new Error(`unknown content-files job kind: ${(job.data as { kind?: unknown }).kind}`);
    }
  }
}
