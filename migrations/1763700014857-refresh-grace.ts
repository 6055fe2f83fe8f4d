import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refresh-token grace window: a rotated-out refresh token keeps its successor, encrypted with
 * APP_SECRET (AES-256-GCM, core/crypto), for REFRESH_TOKEN_GRACE_SECONDS, so that a retried or
 * concurrent refresh gets the same new pair instead of revoking the family. Erased after the window
 * (by the API, and by the clean-up sweep through the partial index).
 */
export class RefreshGrace1763700014857 implements MigrationInterface {
  name = 'RefreshGrace1763700014857';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refresh_tokens ADD COLUMN successor_enc text`);
    await q.query(`CREATE INDEX refresh_tokens_successor_idx ON refresh_tokens (rotated_at) WHERE successor_enc IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS refresh_tokens_successor_idx`);
    await q.query(`ALTER TABLE refresh_tokens DROP COLUMN IF EXISTS successor_enc`);
  }
}
