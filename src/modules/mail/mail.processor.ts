import { Processor } from '@nestjs/bullmq';
import { DataSource } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import { JobHandlers, QueueWorker, sweeper } from '../../core/queue/queue-worker';
import { MailJob, PasswordResetMailJob, QUEUES } from '../../core/queue/queues';
import { Mailer } from './mailer';
import { MAIL_SWEEP_SCHEDULER_ID, PasswordResetMails } from './password-reset-mails';
import { sendOnce } from './sent-once';
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
export class MailProcessor extends QueueWorker<MailJob>(QUEUES.mail, 'mail', sweeper(MAIL_SWEEP_SCHEDULER_ID, 'requeue-unsent')) {
  constructor(
    private readonly ds: DataSource,
    private readonly mailer: Mailer,
    private readonly resetMails: PasswordResetMails,
  ) {
    super();
  }

  protected readonly jobs: JobHandlers<MailJob> = {
    'password-reset': (data) => sendOnce(this.resetMails, data.requestId, data.organizationId, () => this.sendPasswordReset(data)),
    'requeue-unsent': () => this.resetMails.requeuePending(),
  };

  private async sendPasswordReset(data: PasswordResetMailJob): Promise<MailResult> {
    // users belong to the students module: a narrow, organization-scoped read of the recipient
    const [student] = await scoped(this.ds, data.organizationId).query<{ email: string; first_name: string; is_anonymized: boolean }[]>(
      `SELECT email, first_name, is_anonymized FROM users WHERE id = $1 AND organization_id = $org`,
      [data.studentId],
    );
    if (!student || student.is_anonymized || !student.email) {
      this.logger.log({ msg: 'password-reset mail skipped: no recipient', studentId: data.studentId });
      return { sent: false, reason: 'no-recipient' };
    }
    const sent = await this.mailer.send({ to: student.email, ...passwordResetMail({ firstName: student.first_name, domainName: data.domainName, resetUrl: data.resetUrl }) });
    this.logger.log({ msg: 'password-reset mail sent', studentId: data.studentId, via: sent.via });
    return { sent: true, via: sent.via };
  }
}
