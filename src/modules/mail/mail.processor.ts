import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { MailJob, PasswordResetMailJob, QUEUES } from '../../core/queue/queues';
import { Mailer } from './mailer';
import { passwordResetMail } from './templates';

export type MailResult = { sent: true; via: 'smtp' | 'outbox' } | { sent: false; reason: 'no-recipient' };

/**
 * Consumer of the mail queue (worker process only). The job carries ids and the signed link, never
 * the address: the student's email is read at send time, scoped to the job's organization, so a
 * student anonymized (or deleted) since the request gets nothing and the job still completes.
 */
@Processor(QUEUES.mail, { concurrency: 5 })
export class MailProcessor extends WorkerHost {
  private readonly logger = new Logger(MailProcessor.name);

  constructor(
    private readonly ds: DataSource,
    private readonly mailer: Mailer,
  ) {
    super();
  }

  async process(job: Job<MailJob>): Promise<MailResult> {
    switch (job.data.kind) {
      case 'password-reset':
        return this.passwordReset(job.data);
      default:
        throw new Error(`unknown mail job kind: ${(job.data as { kind?: unknown }).kind}`);
    }
  }

  private async passwordReset(data: PasswordResetMailJob): Promise<MailResult> {
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
}
