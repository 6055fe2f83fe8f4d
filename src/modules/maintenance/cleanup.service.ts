import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../core/config/config';
import { unscoped } from '../../core/database/scoped';

export interface CleanupResult {
  refreshTokens: number;
  tokenFamilies: number;
  authCodes: number;
  outboxEvents: number;
  idempotencyKeys: number;
}

export interface CleanupOptions {
  /** rows deleted per statement (default 1000) */
  batchSize?: number;
  /** statements per table per run (default 100); what is left waits for the next run */
  maxBatches?: number;
}

/**
 * Deletes what the OAuth server no longer needs, set-wise and in bounded batches (each batch is
 * one short statement, so a large backlog never holds long locks; rows locked by a token request
 * in flight are skipped and picked up next time):
 * - refresh tokens past their expiry (rotated-out ones too: reuse detection ends with expiry);
 * - token families older than REFRESH_TOKEN_TTL that hold no live refresh token;
 * - authorization codes past their expiry (used or not);
 * - outbox events relayed more than OUTBOX_RETENTION_DAYS ago whose deliveries are all finished
 *   (SUCCEEDED or DEAD): their deliveries and attempts go with them (ON DELETE CASCADE). An event
 *   with a delivery still pending or due for a retry is kept whatever its age;
 * - Idempotency-Key records past their expiry (IDEMPOTENCY_KEY_TTL_SECONDS, src/core/idempotency).
 *
 * When ACCESS_TOKEN_TTL is longer than REFRESH_TOKEN_TTL, an access token can outlive the last
 * refresh token of its family; expired refresh tokens (and so their family, which access tokens
 * are checked against) are then kept for the difference, so no valid access token is cut short.
 */
@Injectable()
export class CleanupService {
  private readonly logger = new Logger(CleanupService.name);

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {}

  async run(opts: CleanupOptions = {}): Promise<CleanupResult> {
    const batch = opts.batchSize ?? 1000;
    const maxBatches = opts.maxBatches ?? 100;
    const graceSeconds = Math.max(0, this.config.ACCESS_TOKEN_TTL - this.config.REFRESH_TOKEN_TTL);

    const refreshTokens = await this.inBatches(
      `DELETE FROM refresh_tokens WHERE id IN (
         SELECT id FROM refresh_tokens
          WHERE expires_at < now() - make_interval(secs => $2)
          LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [batch, graceSeconds],
      batch,
      maxBatches,
    );
    const tokenFamilies = await this.inBatches(
      `DELETE FROM token_families WHERE id IN (
         SELECT f.id FROM token_families f
          WHERE f.created_at < now() - make_interval(secs => $2)
            AND NOT EXISTS (SELECT 1 FROM refresh_tokens r
                             WHERE r.family_id = f.id AND r.expires_at >= now() - make_interval(secs => $3))
          LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [batch, this.config.REFRESH_TOKEN_TTL, graceSeconds],
      batch,
      maxBatches,
    );
    const authCodes = await this.inBatches(
      `DELETE FROM auth_codes WHERE id IN (
         SELECT id FROM auth_codes WHERE expires_at < now() LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [batch],
      batch,
      maxBatches,
    );
    const outboxEvents = await this.inBatches(
      `DELETE FROM outbox_events WHERE id IN (
         SELECT e.id FROM outbox_events e
          WHERE e.relayed_at < now() - make_interval(days => $2)
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status IN ('PENDING', 'FAILED'))
          LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [batch, this.config.OUTBOX_RETENTION_DAYS],
      batch,
      maxBatches,
    );
    await this.eraseRefreshSuccessors();
    const idempotencyKeys = await this.inBatches(
      `DELETE FROM idempotency_keys WHERE (organization_id, lookup) IN (
         SELECT organization_id, lookup FROM idempotency_keys WHERE expires_at < now() LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [batch],
      batch,
      maxBatches,
    );
    const result = { refreshTokens, tokenFamilies, authCodes, outboxEvents, idempotencyKeys };
    if (refreshTokens || tokenFamilies || authCodes || outboxEvents || idempotencyKeys) this.logger.log({ msg: 'expired rows deleted', ...result });
    return result;
  }

  /**
   * Erase the encrypted successors that rotated-out refresh tokens keep for the grace window
   * (REFRESH_TOKEN_GRACE_SECONDS, see TokenService.refresh) once the window is over; the API erases
   * them itself a second after the window, this catches those a stopped API process left behind.
   */
  async eraseRefreshSuccessors(): Promise<number> {
    const [, affected] = (await unscoped(this.ds, 'clean-up across organizations').query(
      `UPDATE refresh_tokens SET successor_enc = NULL
        WHERE successor_enc IS NOT NULL AND rotated_at < clock_timestamp() - make_interval(secs => $1)`,
      [this.config.REFRESH_TOKEN_GRACE_SECONDS],
    )) as [unknown[], number];
    if (affected) this.logger.log({ msg: 'refresh-token successors erased after the grace window', count: affected });
    return affected;
  }

  /** Repeat one batched DELETE until a batch comes back short or the cap is reached. */
  private async inBatches(sql: string, params: unknown[], batch: number, maxBatches: number): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxBatches; i++) {
      // pg answers a DELETE through TypeORM's query() as [rows, affected count]
      const [, affected] = (await unscoped(this.ds, 'clean-up across organizations').query(sql, params)) as [unknown[], number];
      total += affected;
      if (affected < batch) break;
    }
    return total;
  }
}
