import { InjectQueue, OnWorkerEvent, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { AppConfig } from '../config/config';
import { isUnreachable } from '../runtime/startup';
import { JobSchedulers } from './job-schedulers';
import { QueueName } from './queues';

/** What a worker does with each kind of job of its queue: the job's data (narrowed to its kind) and the job. */
export type JobHandlers<J extends { kind: string }> = { [K in J['kind']]: (data: Extract<J, { kind: K }>, job: Job<J>) => Promise<unknown> };

/** The repeatable job a worker keeps on its queue (a sweeper or a periodic task): scheduler id, job name and data, period. */
export interface WorkerSchedule<J> {
  id: string;
  name: string;
  data: J;
  everySeconds: (config: AppConfig) => number;
}

/** A sweeper: the job `kind` (its name too) every REQUEUE_SWEEP_SECONDS, queueing again what never reached Redis. */
export const sweeper = <J extends { kind: string }>(id: string, kind: J['kind']): WorkerSchedule<J> => ({
  id,
  name: kind,
  data: { kind } as J,
  everySeconds: (config) => config.REQUEUE_SWEEP_SECONDS,
});

/**
 * The base of a queue's consumer (worker process only), for a queue whose jobs are told apart by
 * `kind`: on boot it registers the queue's repeatable job with JobSchedulers (kept alive: restored
 * within seconds if Redis loses it, after a restart or a flush), it runs each job with the handler
 * of its kind (a job of an unknown kind fails: `unknown <label> job kind: <kind>`), and it logs
 * connection trouble (Redis restarting) as a warning, `<label> worker error`, and carries on.
 * The subclass carries @Processor (queue name and concurrency) and its own constructor.
 */
export function QueueWorker<J extends { kind: string }>(queue: QueueName, label: string, schedule: WorkerSchedule<J>) {
  abstract class Worker extends WorkerHost implements OnApplicationBootstrap {
    protected readonly logger = new Logger(this.constructor.name);
    @Inject(AppConfig) protected readonly config: AppConfig;
    @Inject(JobSchedulers) private readonly schedulers: JobSchedulers;
    @InjectQueue(queue) private readonly queue: Queue<J>;

    protected abstract readonly jobs: JobHandlers<J>;

    async onApplicationBootstrap() {
      await this.schedulers.register({
        queue: this.queue,
        id: schedule.id,
        every: schedule.everySeconds(this.config) * 1000,
        name: schedule.name,
        data: schedule.data,
        opts: { attempts: 1, removeOnComplete: 100, removeOnFail: 100 },
      });
    }

    async process(job: Job<J>): Promise<unknown> {
      const kind = job.data.kind as J['kind'];
      if (!Object.hasOwn(this.jobs, kind)) throw new Error(`unknown ${label} job kind: ${kind}`);
      return (this.jobs[kind] as (data: J, job: Job<J>) => Promise<unknown>)(job.data, job);
    }

    @OnWorkerEvent('error')
    onError(err: Error) {
      if (isUnreachable(err)) return; // Redis unreachable: reported once per attempt by the process's Redis connection (core/redis)
      this.logger.warn({ msg: `${label} worker error`, err: err.message });
    }
  }
  return Worker;
}
