import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invite tokens are secrets: keep only their SHA-256 (as refresh tokens, client secrets and API
 * keys are kept). Existing rows are hashed in place; the plaintext column is dropped. `down`
 * cannot restore a plaintext it no longer has: it gives every invite an unusable random token.
 */
export class HashInviteTokens1763700014300 implements MigrationInterface {
  name = 'HashInviteTokens1763700014300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE domain_user_invites ADD COLUMN token_hash bytea`);
    await q.query(`UPDATE domain_user_invites SET token_hash = sha256(convert_to(token, 'UTF8'))`);
    await q.query(`ALTER TABLE domain_user_invites ALTER COLUMN token_hash SET NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX domain_user_invites_token_hash_uq ON domain_user_invites (token_hash)`);
    await q.query(`ALTER TABLE domain_user_invites DROP COLUMN token`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE domain_user_invites ADD COLUMN token text`);
    await q.query(`UPDATE domain_user_invites SET token = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`);
    await q.query(`ALTER TABLE domain_user_invites ALTER COLUMN token SET NOT NULL`);
    await q.query(`ALTER TABLE domain_user_invites ADD CONSTRAINT domain_user_invites_token_key UNIQUE (token)`);
    await q.query(`DROP INDEX IF EXISTS domain_user_invites_token_hash_uq`);
    await q.query(`ALTER TABLE domain_user_invites DROP COLUMN token_hash`);
  }
}
