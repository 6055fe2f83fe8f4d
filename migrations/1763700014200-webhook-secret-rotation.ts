import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Secret rotation: the secret a rotation replaced stays usable for signing until
 * `previous_secret_expires_at` (sealed with APP_SECRET like `secret`; both are needed in plain
 * text to compute HMACs, so they cannot be hashed).
 */
export class WebhookSecretRotation1763700014200 implements MigrationInterface {
  name = 'WebhookSecretRotation1763700014200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks ADD COLUMN previous_secret text, ADD COLUMN previous_secret_expires_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks DROP COLUMN IF EXISTS previous_secret, DROP COLUMN IF EXISTS previous_secret_expires_at`);
  }
}
