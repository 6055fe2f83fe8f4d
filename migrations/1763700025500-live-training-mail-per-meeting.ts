import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Live-training mails, one per meeting (issue 25 item 10; docs/decisions/training.md, "iTIP"):
 *
 * - `event_id`: the meeting (the UID) an invitation or update is about. An iTIP message carries one
 *   UID (RFC 5546 section 3.2.2), so a registration for a multi-session event is one mail per
 *   meeting, each its own record. A pending invitation of a deleted meeting goes with it (cascade).
 *   Cancellations keep carrying their snapshot (`cancelled`, one meeting) and no session or meeting.
 * - `sequence`: the SEQUENCE the message carries, taken from its meeting's counter
 *   (vilt_session_events.sequence, incremented for every message recorded for the meeting) in the
 *   transaction that records it, so a CANCEL is always above the REQUESTs sent before it and the
 *   order the worker sends them in no longer matters.
 * - `reason`: why the mail goes out (its wording): registered, rescheduled, added, unregistered,
 *   meeting-cancelled, session-cancelled.
 *
 * Pending records of the earlier form (a session's every meeting in one message) become one record
 * per meeting, a pending cancellation taking the meeting's next sequence; their queued jobs then
 * find no record and send nothing, and the sweeper queues the new ones.
 */
export class LiveTrainingMailPerMeeting1763700025500 implements MigrationInterface {
  name = 'LiveTrainingMailPerMeeting1763700025500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE vilt_session_mails ADD COLUMN event_id uuid, ADD COLUMN sequence integer, ADD COLUMN reason varchar(32)`);
    await q.query(
      `ALTER TABLE vilt_session_mails ADD CONSTRAINT vilt_session_mails_event_id_fkey
         FOREIGN KEY (organization_id, event_id) REFERENCES vilt_session_events (organization_id, id) ON DELETE CASCADE`,
    );
    await q.query(
      `ALTER TABLE vilt_session_mails ADD CONSTRAINT vilt_session_mails_reason_check
         CHECK (reason IS NULL OR reason IN ('registered', 'rescheduled', 'added', 'unregistered', 'meeting-cancelled', 'session-cancelled'))`,
    );
    await q.query(`CREATE INDEX vilt_session_mails_event_idx ON vilt_session_mails (organization_id, event_id) WHERE event_id IS NOT NULL`);
    // pending cancellations of the earlier form: the meetings they cancel take their next sequence
    await q.query(
      `UPDATE vilt_session_events e SET sequence = e.sequence + n.n
         FROM (SELECT organization_id, session_id, count(*)::int AS n FROM vilt_session_mails
                WHERE done_at IS NULL AND session_id IS NOT NULL AND event_id IS NULL AND method = 'CANCEL' GROUP BY 1, 2) n
        WHERE e.organization_id = n.organization_id AND e.session_id = n.session_id`,
    );
    await q.query(
      `INSERT INTO vilt_session_mails (organization_id, session_id, event_id, user_id, method, sequence, created_at)
       SELECT m.organization_id, m.session_id, e.id, m.user_id, m.method, e.sequence, m.created_at
         FROM vilt_session_mails m
         JOIN vilt_session_events e ON e.organization_id = m.organization_id AND e.session_id = m.session_id
        WHERE m.done_at IS NULL AND m.session_id IS NOT NULL AND m.event_id IS NULL`,
    );
    await q.query(`DELETE FROM vilt_session_mails WHERE done_at IS NULL AND session_id IS NOT NULL AND event_id IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX vilt_session_mails_event_idx`);
    await q.query(`ALTER TABLE vilt_session_mails DROP CONSTRAINT vilt_session_mails_reason_check`);
    await q.query(`ALTER TABLE vilt_session_mails DROP CONSTRAINT vilt_session_mails_event_id_fkey`);
    await q.query(`ALTER TABLE vilt_session_mails DROP COLUMN reason, DROP COLUMN sequence, DROP COLUMN event_id`);
  }
}
