import { Injectable, Module } from '@nestjs/common';
import { JobProducer, QueuedJob } from '../../core/queue/job-producer';
import { MailJob, PasswordResetMailJob, QUEUES } from '../../core/queue/queues';
import { resetUrl, signResetToken } from './password-reset-token';
import { scoped, unscoped } from '../../core/database/scoped';

/** Id of the job scheduler of the mail sweeper (mail queue). */
export const MAIL_SWEEP_SCHEDULER_ID = 'mail-requeue';

interface Row {
  id: string;
  organization_id: string;
  user_id: string;
  domain_name: string;
  expires_at: Date;
  password_changed_at: string | null;
}

/**
 * Password-reset mails, made durable (table password_reset_mails, owned by the mail module).
 * The API records the mail asked for, then gives Redis ENQUEUE_TIMEOUT_MS to take its job (job id
 * `password-reset-<record id>`), so a Redis outage never holds the request. The worker marks the
 * record done once the mail is sent (or skipped); its sweeper (every REQUEUE_SWEEP_SECONDS) queues
 * again every record not done after REQUEUE_AFTER_SECONDS whose link has not expired and whose job
 * is not in the queue. The link is signed from the record's claims each time (HMAC, deterministic),
 * so the record holds no credential and a re-queued job carries the very same link.
 */
@Injectable()
export class PasswordResetMails extends JobProducer<MailJob>(QUEUES.mail) {
  /** Record the mail and try to queue it; returns the job (queued now or later by the sweeper). */
  async request(input: { organizationId: string; studentId: string; domainName: string; exp: number; pca: string | null }): Promise<PasswordResetMailJob> {
    const [row]: Row[] = await scoped(this.ds, input.organizationId).query(
      `INSERT INTO password_reset_mails (organization_id, user_id, domain_name, expires_at, password_changed_at)
       VALUES ($org, $1, $2, to_timestamp($3), $4)
       RETURNING id, organization_id, user_id, domain_name, expires_at, password_changed_at`,
      [input.studentId, input.domainName, input.exp, input.pca],
    );
    const job = this.jobOf(row);
    await this.enqueueWithin(job);
    return job.data;
  }

  /** Whether the record's mail was already sent or skipped (a job that runs twice sends once). */
  async isDone(requestId: string, organizationId: string): Promise<boolean> {
    const rows = await scoped(this.ds, organizationId).query<{ done_at: Date | null }[]>(`SELECT done_at FROM password_reset_mails WHERE id = $1 AND organization_id = $org`, [requestId]);
    return rows.length > 0 && rows[0].done_at !== null;
  }

  async markDone(requestId: string, organizationId: string): Promise<void> {
    await scoped(this.ds, organizationId).query(`UPDATE password_reset_mails SET done_at = now() WHERE id = $1 AND organization_id = $org AND done_at IS NULL`, [requestId]);
  }

  /** The sweep: queue every pending, unexpired mail whose job is not in the queue; drop records expired a day ago. */
  async requeuePending(): Promise<{ mails: number }> {
    const rows: Row[] = await unscoped(this.ds, 'the mail sweeper, across organizations').query(
      `SELECT id, organization_id, user_id, domain_name, expires_at, password_changed_at FROM password_reset_mails
        WHERE done_at IS NULL AND created_at <= now() - make_interval(secs => $1) AND expires_at > now()
        ORDER BY created_at LIMIT 500`,
      [this.config.REQUEUE_AFTER_SECONDS],
    );
    const mails = await this.addMissing(rows.map((row) => this.jobOf(row)));
    await unscoped(this.ds, 'the mail sweeper, across organizations').query(
      `DELETE FROM password_reset_mails WHERE id IN (SELECT id FROM password_reset_mails WHERE expires_at < now() - interval '1 day' LIMIT 1000)`,
    );
    if (mails) this.logger.warn({ msg: 'password-reset mails re-queued by the sweeper', mails });
    return { mails };
  }

  /** The record's job, id `password-reset-<record id>`. */
  private jobOf(row: Row): QueuedJob<PasswordResetMailJob> {
    const exp = Math.round(new Date(row.expires_at).getTime() / 1000);
    const token = signResetToken(this.config.APP_SECRET, { sid: row.user_id, exp, pca: row.password_changed_at });
    const data: PasswordResetMailJob = {
      kind: 'password-reset',
      organizationId: row.organization_id,
      studentId: row.user_id,
      domainName: row.domain_name,
      resetUrl: resetUrl(row.domain_name, token),
      requestId: row.id,
    };
    return { name: 'password-reset', data, opts: { jobId: `password-reset-${row.id}` } };
  }
}

/** Records and queues password-reset mails; imported by the students module (API) and the mail module (worker). */
@Module({ providers: [PasswordResetMails], exports: [PasswordResetMails] })
export class PasswordResetMailsModule {}
