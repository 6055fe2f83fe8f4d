import type { DataSource } from 'typeorm';

/**
 * The denylist of revoked access tokens (table `revoked_access_tokens`, docs/decisions/oauth.md
 * "Revoking an access token"): the `jti` of each access token revoked at POST /v2/auth/revoke,
 * kept until the token's `exp`. AccessTokenStrategy asks `isAccessTokenRevoked` when it verifies a
 * token it has not cached (never on the hot path of a cached token); AuthService.revokeAccessToken
 * writes a row and drops the token's cached verification in every API process; the maintenance
 * clean-up deletes rows whose token has expired. The table is not organization-owned (a row names a
 * token, which carries its organization), so these statements need no organization predicate.
 */

export async function isAccessTokenRevoked(ds: DataSource, jti: string): Promise<boolean> {
  const rows: unknown[] = await ds.query(`SELECT 1 FROM revoked_access_tokens WHERE jti = $1`, [jti]);
  return rows.length > 0;
}

/** Deny a token until its expiry (`exp`, seconds since the epoch); revoking it again changes nothing. */
export async function denyAccessToken(ds: DataSource, jti: string, exp: number): Promise<void> {
  await ds.query(`INSERT INTO revoked_access_tokens (jti, expires_at) VALUES ($1, to_timestamp($2)) ON CONFLICT (jti) DO NOTHING`, [jti, exp]);
}

/**
 * Rows are kept this long past their token's `exp`: the API processes check `exp` with their own
 * clocks, the clean-up compares with the database's, and a process whose clock lags must not find the
 * row gone while it still takes the token as unexpired.
 */
export const REVOKED_ACCESS_TOKEN_MARGIN_SECONDS = 300;

/** One bounded batch of denylist rows whose token has expired (refused by its `exp` from then on); run by the maintenance clean-up. */
export async function deleteExpiredRevokedAccessTokens(ds: DataSource, batch: number): Promise<number> {
  const [, affected] = (await ds.query(
    `DELETE FROM revoked_access_tokens WHERE jti IN (
       SELECT jti FROM revoked_access_tokens WHERE expires_at < now() - make_interval(secs => $2) LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    [batch, REVOKED_ACCESS_TOKEN_MARGIN_SECONDS],
  )) as [unknown[], number];
  return affected;
}
