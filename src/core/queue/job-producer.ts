import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { addWithin } from './enqueue';
import { QueueName } from './queues';

/** A job as it is added: name, data and options with its deterministic id. */
export interface QueuedJob<J> {
  name: string;
  data: J;
  opts: JobsOptions & { jobId: string };
}

/**
 * The base of a service that records work in a table and queues a job per row (imports, mails):
 * the API saves the row first and gives Redis ENQUEUE_TIMEOUT_MS to take the job (`enqueueWithin`,
 * so a Redis outage never holds a request), and the worker's sweeper queues the job of every row
 * still pending that has none in the queue (`addMissing`). Job ids are deterministic, so however
 * often a row's job is added, BullMQ keeps one. The subclass needs no constructor.
 */
export function JobProducer<J>(queue: QueueName) {
  @Injectable()
  abstract class Producer {
    protected readonly logger = new Logger(this.constructor.name);

    constructor(
      protected readonly ds: DataSource,
      protected readonly config: AppConfig,
      @InjectQueue(queue) protected readonly queue: Queue<J>,
    ) {}

    /** True when Redis took the job in time; false leaves it to the sweeper. Never throws. */
    protected enqueueWithin(job: QueuedJob<J>): Promise<boolean> {
      return addWithin(this.queue, job.name, job.data, job.opts, this.config.ENQUEUE_TIMEOUT_MS);
    }

    /** Add each job not known to BullMQ (a job waiting, active, delayed, completed or failed is left alone); returns how many were added. */
    protected async addMissing(jobs: QueuedJob<J>[]): Promise<number> {
      let added = 0;
      for (const job of jobs) {
        if (await this.queue.getJob(job.opts.jobId)) continue;
        await (this.queue as Queue).add(job.name, job.data, job.opts);
        added++;
      }
      return added;
    }
  }
  return Producer;
}
