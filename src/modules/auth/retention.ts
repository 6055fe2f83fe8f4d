import type { DataSource } from 'typeorm';
import { unscoped } from '../../core/database/scoped';

/**
 * What the OAuth server no longer needs, deleted one bounded batch per call (the maintenance
 * clean-up schedules and repeats them; each returns the number of rows it changed). The tables
 * are this module's; rows locked by a token request in flight are skipped and picked up next time.
 */

const run = async (ds: DataSource, sql: string, params: unknown[]): Promise<number> => {
  // pg answers a DELETE or UPDATE through TypeORM's query() as [rows, affected count]
  const [, affected] = (await unscoped(ds, 'clean-up across organizations').query(sql, params)) as [unknown[], number];
  return affected;
};

/** Refresh tokens past their expiry (rotated-out ones too: reuse detection ends with expiry), kept `graceSeconds` longer. */
export const deleteExpiredRefreshTokens = (ds: DataSource, batch: number, graceSeconds: number) =>
  run(
    ds,
    `DELETE FROM refresh_tokens WHERE id IN (
       SELECT id FROM refresh_tokens
        WHERE expires_at < now() - make_interval(secs => $2)
        LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    [batch, graceSeconds],
  );

/** Token families older than `ttlSeconds` that hold no live refresh token (counting the grace). */
export const deleteStaleTokenFamilies = (ds: DataSource, batch: number, ttlSeconds: number, graceSeconds: number) =>
  run(
    ds,
    `DELETE FROM token_families WHERE id IN (
       SELECT f.id FROM token_families f
        WHERE f.created_at < now() - make_interval(secs => $2)
          AND NOT EXISTS (SELECT 1 FROM refresh_tokens r
                           WHERE r.family_id = f.id AND r.expires_at >= now() - make_interval(secs => $3))
        LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    [batch, ttlSeconds, graceSeconds],
  );

/** Authorization codes past their expiry, used or not. */
export const deleteExpiredAuthCodes = (ds: DataSource, batch: number) =>
  run(
    ds,
    `DELETE FROM auth_codes WHERE id IN (
       SELECT id FROM auth_codes WHERE expires_at < now() LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    [batch],
  );

/** Erase the encrypted successors rotated-out refresh tokens keep for the grace window, once it is over. */
export const eraseRefreshSuccessors = (ds: DataSource, graceSeconds: number) =>
  run(
    ds,
    `UPDATE refresh_tokens SET successor_enc = NULL
      WHERE successor_enc IS NOT NULL AND rotated_at < clock_timestamp() - make_interval(secs => $1)`,
    [graceSeconds],
  );
