import { Logger } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import { isDryRun } from '../dry-run/dry-run';

const logger = new Logger('Enqueue');

/**
 * Add a job, waiting at most `timeoutMs` for Redis to take it. Resolves true when it was queued,
 * false when Redis did not answer in time or refused (logged); never throws.
 *
 * Why: BullMQ's connections use `maxRetriesPerRequest: null` (BullMQ requires it), so while Redis
 * is down `Queue.add` waits in ioredis's offline queue until Redis is back, however long that is.
 * A request must not hang on that. The caller has already saved its row (the row is the truth);
 * the worker's sweeper queues the job of any row still pending later. The job id must be
 * deterministic (`opts.jobId`) so that the late add (the command stays in the offline queue and is
 * sent once Redis is back) and the sweeper's add collapse into one job.
 */
export async function addWithin<T>(queue: Queue<T>, name: string, data: T, opts: JobsOptions & { jobId: string }, timeoutMs: number): Promise<boolean> {
  // a dry run (core/dry-run) emits nothing: its rows are rolled back, and it answers as if the job were queued
  if (isDryRun()) return true;
  let timer: NodeJS.Timeout | undefined;
  const added = (queue as Queue).add(name, data, opts).then(
    () => true,
    (err: Error) => {
      logger.warn({ msg: 'job not queued; the sweeper will queue it', queue: queue.name, jobId: opts.jobId, err: err.message });
      return false;
    },
  );
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => {
      logger.warn({ msg: 'Redis did not take the job in time; the sweeper will queue it', queue: queue.name, jobId: opts.jobId, timeoutMs });
      resolve(false);
    }, timeoutMs);
  });
  try {
    return await Promise.race([added, late]);
  } finally {
    clearTimeout(timer);
  }
}
