import { OnWorkerEvent, Processor } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { JobHandlers, QueueWorker, WorkerSchedule } from '../../core/queue/queue-worker';
import { QUEUES, ReenrollmentTickJob } from '../../core/queue/queues';
import { ReenrollmentRunner } from './reenrollment.runner';

/** The tick: every REENROLLMENT_TICK_SECONDS, the due rules run (one scheduler per deployment, however many workers). */
const tick: WorkerSchedule<ReenrollmentTickJob> = { id: 'reenrollment-due-rules', name: 'run-due-rules', data: { kind: 'run-due-rules' }, everySeconds: (config) => config.REENROLLMENT_TICK_SECONDS };

@Processor(QUEUES.reenrollment, { concurrency: 1 })
export class ReenrollmentProcessor extends QueueWorker<ReenrollmentTickJob>(QUEUES.reenrollment, 'reenrollment', tick) {
  constructor(private readonly runner: ReenrollmentRunner) {
    super();
  }

  protected readonly jobs: JobHandlers<ReenrollmentTickJob> = {
    'run-due-rules': () => this.runner.runDue(),
  };

  @OnWorkerEvent('failed')
  onFailed(job: Job<ReenrollmentTickJob> | undefined, err: Error) {
    this.logger.error({ msg: 're-enrollment tick failed', jobId: job?.id, err: err.message });
  }
}
