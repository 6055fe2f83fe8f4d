import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency-Key claims that survive a crash (issue 25 item 11; docs/decisions/idempotency.md,
 * "A crash between the work and the answer"):
 * - `owner`: the advisory-lock key of the API process holding the claim (its lease, a session-level
 *   advisory lock held on a connection of its own): while the lock is held the first request is in
 *   flight (409); once PostgreSQL has released it (the process died, its sessions with it) an
 *   unanswered, uncommitted claim runs again at once.
 * - `committed_at`: set by the work's own transaction, just before its COMMIT: a key whose work
 *   committed never runs again.
 * - `answer_ref`: what that transaction noted to rebuild the answer from (e.g. the purchase created)
 *   when the process died before storing it.
 */
export class IdempotencyCommitMarker1763700026100 implements MigrationInterface {
  name = 'IdempotencyCommitMarker1763700026100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys ADD COLUMN owner bigint, ADD COLUMN committed_at timestamptz, ADD COLUMN answer_ref jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN owner, DROP COLUMN committed_at, DROP COLUMN answer_ref`);
  }
}
