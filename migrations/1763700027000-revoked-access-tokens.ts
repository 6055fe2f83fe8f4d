import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Revocable access tokens (issue 25 item 3, CONVENTIONS §3; docs/decisions/oauth.md, "Revoking an
 * access token"): the `jti` of every access token revoked at POST /v2/auth/revoke, kept until the
 * token's own expiry (`expires_at`, its `exp`), after which the token is refused anyway and the
 * maintenance clean-up deletes the row (index on `expires_at`). AccessTokenStrategy reads it when it
 * verifies a token it has not cached. No organization_id: a row names one token, which already
 * carries its organization, and the look-up is by `jti` alone.
 */
export class RevokedAccessTokens1763700027000 implements MigrationInterface {
  name = 'RevokedAccessTokens1763700027000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE revoked_access_tokens (
      jti text PRIMARY KEY,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX revoked_access_tokens_expires_idx ON revoked_access_tokens (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS revoked_access_tokens`);
  }
}
