import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cancellations of deleted meetings (issue 13; docs/decisions/training.md): a mail record may carry
 * the snapshot of what it cancels (`cancelled`: the title and the meetings as they were) instead of
 * pointing at a session, because deleting a lesson-based ILT session deletes its session row (and,
 * by cascade, its registrations and pending mails) in the same transaction that records the
 * cancellations. Such a record has no session_id; every record has one or the other.
 */
export class LiveTrainingCancellations1763700019100 implements MigrationInterface {
  name = 'LiveTrainingCancellations1763700019100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE vilt_session_mails ALTER COLUMN session_id DROP NOT NULL`);
    await q.query(`ALTER TABLE vilt_session_mails ADD COLUMN cancelled jsonb`);
    await q.query(
      `ALTER TABLE vilt_session_mails ADD CONSTRAINT vilt_session_mails_target_check
         CHECK ((session_id IS NOT NULL AND cancelled IS NULL) OR (session_id IS NULL AND cancelled IS NOT NULL AND method = 'CANCEL'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM vilt_session_mails WHERE session_id IS NULL`);
    await q.query(`ALTER TABLE vilt_session_mails DROP CONSTRAINT vilt_session_mails_target_check`);
    await q.query(`ALTER TABLE vilt_session_mails DROP COLUMN cancelled`);
    await q.query(`ALTER TABLE vilt_session_mails ALTER COLUMN session_id SET NOT NULL`);
  }
}
