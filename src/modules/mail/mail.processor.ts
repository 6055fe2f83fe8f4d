import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job, Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../core/config/config';
import { JobSchedulers } from '../../core/queue/job-schedulers';
import { MailJob, PasswordResetMailJob, QUEUES } from '../../core/queue/queues';
import { Mailer } from './mailer';
import { MAIL_SWEEP_SCHEDULER_ID, PasswordResetMails } from './password-reset-mails';
import { passwordResetMail } from './templates';

export type MailResult = { sent: true; via: 'smtp' | 'outbox' } | { sent: false; reason: 'no-recipient' | 'already-sent' };

/**
 * Consumer of the mail queue (worker process only). The job carries ids and the signed link, never
 * the address: the student's email is read at send time, scoped to the job's organization, so a
 * student anonymized (or deleted) since the request gets nothing and the job still completes.
 * A job of a recorded mail (requestId) sends once: the record is marked done after the send (or the
 * skip), and a job of a record already done sends nothing. The mail sweeper (a job scheduler every
 * REQUEUE_SWEEP_SECONDS) queues recorded mails whose job never reached Redis.
 */
@Processor(QUEUES.mail, { concurrency: 5 })
export class MailProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(MailProcessor.name);

  constructor(
    private readonly ds: DataSource,
    private readonly mailer: Mailer,
    private readonly resetMails: PasswordResetMails,
    private readonly config: AppConfig,
    private readonly schedulers: JobSchedulers,
    @InjectQueue(QUEUES.mail) private readonly queue: Queue<MailJob>,
  ) {
    super();
  }

  async onApplicationBootstrap() {
    await this.schedulers.register({
      queue: this.queue,
      id: MAIL_SWEEP_SCHEDULER_ID,
      every: this.config.REQUEUE_SWEEP_SECONDS * 1000,
      name: 'requeue-unsent',
      data: { kind: 'requeue-unsent' },
      opts: { attempts: 1, removeOnComplete: 100, removeOnFail: 100 },
    });
  }

  async process(job: Job<MailJob>): Promise<MailResult | { mails: number }> {
    switch (job.data.kind) {
      case 'password-reset':
        return this.passwordReset(job.data);
      case 'requeue-unsent':
        return this.resetMails.requeuePending();
      default:
        throw new Error(`unknown mail job kind: ${(job.data as { kind?: unknown }).kind}`);
    }
  }

  private async passwordReset(data: PasswordResetMailJob): Promise<MailResult> {
    if (data.requestId && (await this.resetMails.isDone(data.requestId, data.organizationId))) return { sent: false, reason: 'already-sent' };
    const result = await this.sendPasswordReset(data);
    if (data.requestId) await this.resetMails.markDone(data.requestId, data.organizationId);
    return result;
  }

  private async sendPasswordReset(data: PasswordResetMailJob): Promise<MailResult> {
    // users belong to the students module: a narrow, organization-scoped read of the recipient
    const [student] = await this.ds.query(`SELECT email, first_name, is_anonymized FROM users WHERE id = $1 AND organization_id = $2`, [
      data.studentId,
      data.organizationId,
    ]);
    if (!student || student.is_anonymized || !student.email) {
      this.logger.log({ msg: 'password-reset mail skipped: no recipient', studentId: data.studentId });
      return { sent: false, reason: 'no-recipient' };
    }
    const sent = await this.mailer.send({ to: student.email, ...passwordResetMail({ firstName: student.first_name, domainName: data.domainName, resetUrl: data.resetUrl }) });
    this.logger.log({ msg: 'password-reset mail sent', studentId: data.studentId, via: sent.via });
    return { sent: true, via: sent.via };
  }

  /** Connection trouble (Redis restarting): logged, the worker carries on. */
  @OnWorkerEvent('error')
  onError(err: Error) {
    this.logger.warn({ msg: 'mail worker error', err: err.message });
  }
}
