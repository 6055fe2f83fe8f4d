import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored Idempotency-Key answers that carry a secret (a client's `client_secret`, a webhook's
 * `secret`, an invite's `token`...) are kept encrypted (AES-256-GCM, key from APP_SECRET): `sealed`
 * says which. Secrets are never at rest in plain text, not even for the 24 h of a replay.
 */
export class IdempotencySealedAnswers1763700014600 implements MigrationInterface {
  name = 'IdempotencySealedAnswers1763700014600';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys ADD COLUMN sealed boolean NOT NULL DEFAULT false`);
    // answers stored before this migration may hold a secret in plain text: forget them (a retry runs again)
    await q.query(`DELETE FROM idempotency_keys WHERE body IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM idempotency_keys WHERE sealed`);
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN sealed`);
  }
}
