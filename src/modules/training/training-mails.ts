import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { unscoped } from '../../core/database/scoped';
import { JobProducer, QueuedJob } from '../../core/queue/job-producer';
import { QUEUES, ViltMailQueueJob } from '../../core/queue/queues';
import type { InvitationEvent } from './invitation';

export type MailMethod = 'REQUEST' | 'CANCEL';

/** What a cancellation of deleted meetings shows: the session's title and the meetings as they were (times as ISO strings). */
export interface CancelledSnapshot {
  title: string;
  events: (Omit<InvitationEvent, 'starts_at' | 'ends_at'> & { post_registration_instructions: string; starts_at: string; ends_at: string })[];
}

/** Id of the job scheduler of the live-training mail sweeper. */
export const VILT_MAIL_SWEEP_SCHEDULER_ID = 'vilt-mail-requeue';

export const viltMailJobId = (mailId: string) => `vilt-mail-${mailId}`;

/**
 * Live-training mails, made durable as password-reset mails are (table vilt_session_mails): the
 * record is written in the transaction that causes it (a registration, its removal, a new
 * schedule), the job is queued after the commit within ENQUEUE_TIMEOUT_MS (job id
 * `vilt-mail-<record id>`), and the worker's sweeper queues any record whose job never reached
 * Redis. The worker builds the invitation from the session as it is when the mail goes out.
 */
@Injectable()
export class TrainingMails extends JobProducer<ViltMailQueueJob>(QUEUES.viltMail) {
  /** One mail to one learner (in the caller's transaction); returns the record id. */
  async record(m: EntityManager, organizationId: string, sessionId: string, userId: string, method: MailMethod): Promise<string> {
    const [row] = await m.query(`INSERT INTO vilt_session_mails (organization_id, session_id, user_id, method) VALUES ($1, $2, $3, $4) RETURNING id`, [
      organizationId,
      sessionId,
      userId,
      method,
    ]);
    return row.id;
  }

  /** One mail to every learner registered for the session (one statement). */
  async recordForSession(m: EntityManager, organizationId: string, sessionId: string, method: MailMethod): Promise<string[]> {
    const rows: { id: string }[] = await m.query(
      `INSERT INTO vilt_session_mails (organization_id, session_id, user_id, method)
       SELECT r.organization_id, r.session_id, r.user_id, $3 FROM vilt_session_registrations r WHERE r.organization_id = $1 AND r.session_id = $2
       RETURNING id`,
      [organizationId, sessionId, method],
    );
    return rows.map((r) => r.id);
  }

  /**
   * A cancellation to every learner registered for the session, of the meetings given (`snapshot`:
   * the session's title and the meetings as they are before their deletion, one statement). The
   * records point at no session: they outlive the deleted meetings and session.
   */
  async recordCancellations(m: EntityManager, organizationId: string, sessionId: string, snapshot: CancelledSnapshot): Promise<string[]> {
    const rows: { id: string }[] = await m.query(
      `INSERT INTO vilt_session_mails (organization_id, session_id, user_id, method, cancelled)
       SELECT r.organization_id, NULL, r.user_id, 'CANCEL', $3::jsonb FROM vilt_session_registrations r WHERE r.organization_id = $1 AND r.session_id = $2
       RETURNING id`,
      [organizationId, sessionId, JSON.stringify(snapshot)],
    );
    return rows.map((r) => r.id);
  }

  /** After the commit: queue the jobs (never holds the request longer than ENQUEUE_TIMEOUT_MS; the sweeper catches up). */
  async enqueue(organizationId: string, mailIds: string[]): Promise<void> {
    if (!mailIds.length) return;
    if (mailIds.length === 1) {
      await this.enqueueWithin(this.job(organizationId, mailIds[0]));
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const added = this.queue
      .addBulk(mailIds.map((id) => this.job(organizationId, id)))
      .then(() => true)
      .catch((err: Error) => {
        this.logger.warn({ msg: 'vilt mails not queued; the sweeper will queue them', err: err.message });
        return false;
      });
    const late = new Promise<boolean>((res) => (timer = setTimeout(() => res(false), this.config.ENQUEUE_TIMEOUT_MS)));
    await Promise.race([added, late]).finally(() => clearTimeout(timer));
  }

  /** The record's job, id `vilt-mail-<record id>`. */
  private job(organizationId: string, mailId: string): QueuedJob<ViltMailQueueJob> {
    return { name: 'vilt-mail', data: { kind: 'vilt-mail', organizationId, mailId }, opts: { jobId: viltMailJobId(mailId) } };
  }

  async isDone(mailId: string, organizationId: string): Promise<boolean> {
    const rows = await this.ds.query(`SELECT done_at FROM vilt_session_mails WHERE id = $1 AND organization_id = $2`, [mailId, organizationId]);
    return rows.length === 0 || rows[0].done_at !== null;
  }

  async markDone(mailId: string, organizationId: string): Promise<void> {
    await this.ds.query(`UPDATE vilt_session_mails SET done_at = now() WHERE id = $1 AND organization_id = $2 AND done_at IS NULL`, [mailId, organizationId]);
  }

  /** The sweep: queue every pending mail whose job is not in the queue; drop records done a week ago. */
  async requeuePending(): Promise<{ mails: number }> {
    const db = unscoped(this.ds, 'the live-training mail sweeper, across organizations');
    const rows: { id: string; organization_id: string }[] = await db.query(
      `SELECT id, organization_id FROM vilt_session_mails WHERE done_at IS NULL AND created_at <= now() - make_interval(secs => $1) ORDER BY created_at LIMIT 500`,
      [this.config.REQUEUE_AFTER_SECONDS],
    );
    const mails = await this.addMissing(rows.map((row) => this.job(row.organization_id, row.id)));
    await db.query(`DELETE FROM vilt_session_mails WHERE id IN (SELECT id FROM vilt_session_mails WHERE done_at < now() - interval '7 days' LIMIT 1000)`);
    if (mails) this.logger.warn({ msg: 'live-training mails re-queued by the sweeper', mails });
    return { mails };
  }
}
