import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { unscoped, scoped } from '../../core/database/scoped';
import type { ViltSessionMailRow } from './vilt-session-mails.store';
import { JobProducer, QueuedJob } from '../../core/queue/job-producer';
import { QUEUES, ViltMailQueueJob } from '../../core/queue/queues';
import type { InvitationEvent } from './invitation';

export type MailMethod = 'REQUEST' | 'CANCEL';

/** Why a mail goes out, which decides its wording (vilt_session_mails.reason; null on records made before it existed). */
export type MailReason = 'registered' | 'rescheduled' | 'added' | 'unregistered' | 'meeting-cancelled' | 'session-cancelled';

/** What a cancellation shows: the session's title and the meeting as it was (times as ISO strings); one meeting in the records written since issue 25. */
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
 * schedule), one record per learner and meeting: an iTIP message carries one UID (RFC 5546
 * section 3.2.2), and a meeting's UID its own SEQUENCE, taken when the record is written. The job is queued after the commit within ENQUEUE_TIMEOUT_MS (job id
 * `vilt-mail-<record id>`), and the worker's sweeper queues any record whose job never reached
 * Redis. The worker builds the invitation from the session as it is when the mail goes out.
 */
@Injectable()
export class TrainingMails extends JobProducer<ViltMailQueueJob>(QUEUES.viltMail) {
  /**
   * An invitation or update of one meeting to every learner registered for its session (one
   * statement, in the caller's transaction): the meeting's next SEQUENCE is taken with the
   * records (or `bump` false: the one the caller has just set, as a reschedule does), so every
   * message of a UID carries a number above those recorded before it.
   */
  async recordForEvent(m: EntityManager, organizationId: string, eventId: string, reason: 'rescheduled' | 'added', bump: boolean): Promise<string[]> {
    const rows: { id: string }[] = await scoped(m, organizationId).query(
      `WITH ev AS (
         UPDATE vilt_session_events SET sequence = sequence + $2 WHERE id = $1 AND organization_id = $org RETURNING id, session_id, sequence)
       INSERT INTO vilt_session_mails (organization_id, session_id, event_id, user_id, method, sequence, reason)
       SELECT r.organization_id, r.session_id, ev.id, r.user_id, 'REQUEST', ev.sequence, $3
         FROM ev JOIN vilt_session_registrations r ON r.organization_id = $org AND r.session_id = ev.session_id
       RETURNING id`,
      [eventId, bump ? 1 : 0, reason],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The cancellations of a removed registration: one message per meeting of the session (one UID
   * each), every meeting taking its next SEQUENCE, so each CANCEL is above the REQUESTs the
   * learner got. Snapshots (`cancelled`, the meeting as it is now), so a meeting deleted before the
   * send is still cancelled. One statement, in the removal's transaction.
   */
  async recordUnregistered(m: EntityManager, organizationId: string, sessionId: string, userId: string): Promise<string[]> {
    const rows: { id: string }[] = await scoped(m, organizationId).query(
      `WITH ev AS (
         UPDATE vilt_session_events SET sequence = sequence + 1 WHERE organization_id = $org AND session_id = $1
         RETURNING id, display_name, description, post_registration_instructions, starts_at, ends_at, timezone, location, event_link, instructor_email, instructor_name, sequence)
       INSERT INTO vilt_session_mails (organization_id, session_id, user_id, method, sequence, reason, cancelled)
       SELECT $org, NULL, $2, 'CANCEL', ev.sequence, 'unregistered', jsonb_build_object('title', s.display_name, 'events', jsonb_build_array(to_jsonb(ev)))
         FROM ev JOIN vilt_sessions s ON s.id = $1 AND s.organization_id = $org
       RETURNING id`,
      [sessionId, userId],
    );
    return rows.map((r) => r.id);
  }

  /**
   * A cancellation to every learner registered for the session, of the one meeting given
   * (`snapshot`: the session's title and the meeting as it is before its deletion, its SEQUENCE
   * already the next one; one statement). The records point at no session: they outlive the
   * deleted meeting and session. `reason`: the session is gone with it (session-cancelled), or only
   * this meeting of a multi-session event, the registrations standing (meeting-cancelled).
   */
  async recordCancellations(m: EntityManager, organizationId: string, sessionId: string, snapshot: CancelledSnapshot, reason: 'meeting-cancelled' | 'session-cancelled'): Promise<string[]> {
    const rows: { id: string }[] = await scoped(m, organizationId).query(
      `INSERT INTO vilt_session_mails (organization_id, session_id, user_id, method, sequence, reason, cancelled)
       SELECT r.organization_id, NULL, r.user_id, 'CANCEL', $3, $4, $2::jsonb FROM vilt_session_registrations r WHERE r.organization_id = $org AND r.session_id = $1
       RETURNING id`,
      [sessionId, JSON.stringify(snapshot), snapshot.events[0].sequence, reason],
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
    const rows = await scoped(this.ds, organizationId).query<Pick<ViltSessionMailRow, 'done_at'>[]>(`SELECT done_at FROM vilt_session_mails WHERE id = $1 AND organization_id = $org`, [mailId]);
    return rows.length === 0 || rows[0].done_at !== null;
  }

  async markDone(mailId: string, organizationId: string): Promise<void> {
    await scoped(this.ds, organizationId).query(`UPDATE vilt_session_mails SET done_at = now() WHERE id = $1 AND organization_id = $org AND done_at IS NULL`, [mailId]);
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
