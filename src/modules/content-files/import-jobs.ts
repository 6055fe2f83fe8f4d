import { Injectable } from '@nestjs/common';
import { unscoped } from '../../core/database/scoped';
import { JobProducer } from '../../core/queue/job-producer';
import { AssetImportJob, ContentFileJob, QUEUES, WebPackageImportJob } from '../../core/queue/queues';

/** Import jobs retry transient download failures (connection, timeout) a few times. */
export const IMPORT_JOB_OPTIONS = { attempts: 3, backoff: { type: 'exponential', delay: 2000 } } as const;

/** Id of the job scheduler of the import sweeper (content-files queue). */
export const IMPORT_SWEEP_SCHEDULER_ID = 'content-files-requeue';

/**
 * One import job per row, with a deterministic job id: however often it is added (the API, a late
 * add flushed when Redis comes back, the sweeper), BullMQ keeps one job, and the importer only
 * works on a row still PROCESSING, so a job that runs twice does nothing the second time.
 */
export function assetImportJob(organizationId: string, assetId: string) {
  const data: AssetImportJob = { kind: 'asset-import', organizationId, assetId };
  return { name: 'asset-import', data, opts: { ...IMPORT_JOB_OPTIONS, jobId: `asset-${assetId}` } };
}

export function webPackageImportJob(organizationId: string, webPackageId: string) {
  const data: WebPackageImportJob = { kind: 'web-package-import', organizationId, webPackageId };
  return { name: 'web-package-import', data, opts: { ...IMPORT_JOB_OPTIONS, jobId: `web-package-${webPackageId}` } };
}

type ImportJob = ReturnType<typeof assetImportJob> | ReturnType<typeof webPackageImportJob>;

/**
 * Queues imports. The API saves the row first (PROCESSING) and gives Redis ENQUEUE_TIMEOUT_MS to
 * take the job, so a Redis outage never holds a request; the worker's sweeper (every
 * REQUEUE_SWEEP_SECONDS) queues the job of every row still PROCESSING after REQUEUE_AFTER_SECONDS
 * that has no job in the queue.
 */
@Injectable()
export class ImportJobs extends JobProducer<ContentFileJob>(QUEUES.contentFiles) {
  /** True when Redis took the job in time; false leaves it to the sweeper. Never throws. */
  enqueue(job: ImportJob): Promise<boolean> {
    return this.enqueueWithin(job);
  }

  /** The sweep: queue the job of every pending import whose job is not in the queue. */
  async requeuePending(): Promise<{ assets: number; webPackages: number }> {
    const after = this.config.REQUEUE_AFTER_SECONDS;
    // oldest first, a bounded batch per sweep (partial indexes on state = 'PROCESSING')
    const assets: { id: string; organization_id: string }[] = await unscoped(this.ds, 'the import sweeper, across organizations').query(
      `SELECT id, organization_id FROM assets
        WHERE state = 'PROCESSING' AND source_url IS NOT NULL AND created_at <= now() - make_interval(secs => $1)
        ORDER BY created_at LIMIT 500`,
      [after],
    );
    const packages: { id: string; organization_id: string }[] = await unscoped(this.ds, 'the import sweeper, across organizations').query(
      `SELECT id, organization_id FROM web_packages
        WHERE state = 'PROCESSING' AND created_at <= now() - make_interval(secs => $1)
        ORDER BY created_at LIMIT 500`,
      [after],
    );
    const done = {
      assets: await this.addMissing(assets.map((r) => assetImportJob(r.organization_id, r.id))),
      webPackages: await this.addMissing(packages.map((r) => webPackageImportJob(r.organization_id, r.id))),
    };
    if (done.assets || done.webPackages) this.logger.warn({ msg: 'imports re-queued by the sweeper', ...done });
    return done;
  }
}
