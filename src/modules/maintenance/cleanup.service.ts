import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../core/config/config';
import { deleteRelayedEvents } from '../../core/events/retention';
import { deleteExpiredIdempotencyKeys } from '../../core/idempotency/retention';
import { deleteExpiredRevokedAccessTokens } from '../../core/auth/revoked-tokens';
import { deleteOldAuditEvents } from '../audit/audit.service';
import { deleteExpiredAuthCodes, deleteExpiredRefreshTokens, deleteStaleTokenFamilies, eraseRefreshSuccessors } from '../auth/retention';

export interface CleanupResult {
  refreshTokens: number;
  tokenFamilies: number;
  authCodes: number;
  outboxEvents: number;
  idempotencyKeys: number;
  revokedAccessTokens: number;
}

export interface CleanupOptions {
  /** rows deleted per statement (default 1000) */
  batchSize?: number;
  /** statements per table per run (default 100); what is left waits for the next run */
  maxBatches?: number;
}

/**
 * Schedules the retention rules of the tables' owners (oauth/retention.ts, core/events/retention.ts,
 * core/idempotency/retention.ts, core/auth/revoked-tokens.ts) and repeats each batch. Deletes what the OAuth server no longer needs, set-wise and in bounded batches (each batch is
 * one short statement, so a large backlog never holds long locks; rows locked by a token request
 * in flight are skipped and picked up next time):
 * - refresh tokens past their expiry (rotated-out ones too: reuse detection ends with expiry);
 * - token families older than REFRESH_TOKEN_TTL that hold no live refresh token;
 * - authorization codes past their expiry (used or not);
 * - outbox events relayed more than OUTBOX_RETENTION_DAYS ago whose deliveries are all finished
 *   (SUCCEEDED or DEAD): their deliveries and attempts go with them (ON DELETE CASCADE). An event
 *   with a delivery still pending or due for a retry is kept whatever its age;
 * - Idempotency-Key records past their expiry (IDEMPOTENCY_KEY_TTL_SECONDS, src/core/idempotency);
 * - revoked access tokens' denylist rows once the token has expired (core/auth/revoked-tokens.ts, a
 *   few minutes' margin for clock skew): an expired token is refused by its `exp` alone.
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

    const ttl = this.config.REFRESH_TOKEN_TTL;
    const refreshTokens = await this.inBatches(() => deleteExpiredRefreshTokens(this.ds, batch, graceSeconds), batch, maxBatches);
    const tokenFamilies = await this.inBatches(() => deleteStaleTokenFamilies(this.ds, batch, ttl, graceSeconds), batch, maxBatches);
    const authCodes = await this.inBatches(() => deleteExpiredAuthCodes(this.ds, batch), batch, maxBatches);
    const outboxEvents = await this.inBatches(() => deleteRelayedEvents(this.ds, batch, this.config.OUTBOX_RETENTION_DAYS), batch, maxBatches);
    await this.eraseRefreshSuccessors();
    const idempotencyKeys = await this.inBatches(() => deleteExpiredIdempotencyKeys(this.ds, batch), batch, maxBatches);
    const revokedAccessTokens = await this.inBatches(() => deleteExpiredRevokedAccessTokens(this.ds, batch), batch, maxBatches);
    // the audit log keeps 365 days (CONVENTIONS §19)
    const auditEvents = await this.inBatches(() => deleteOldAuditEvents(this.ds, batch), batch, maxBatches);
    if (auditEvents) this.logger.log({ msg: 'audit events past 365 days deleted', auditEvents });
    const result = { refreshTokens, tokenFamilies, authCodes, outboxEvents, idempotencyKeys, revokedAccessTokens };
    if (refreshTokens || tokenFamilies || authCodes || outboxEvents || idempotencyKeys || revokedAccessTokens) this.logger.log({ msg: 'expired rows deleted', ...result });
    return result;
  }

  /**
   * Erase the encrypted successors that rotated-out refresh tokens keep for the grace window
   * (REFRESH_TOKEN_GRACE_SECONDS, see TokenService.refresh) once the window is over; the API erases
   * them itself a second after the window, this catches those a stopped API process left behind.
   */
  async eraseRefreshSuccessors(): Promise<number> {
    const affected = await eraseRefreshSuccessors(this.ds, this.config.REFRESH_TOKEN_GRACE_SECONDS);
    if (affected) this.logger.log({ msg: 'refresh-token successors erased after the grace window', count: affected });
    return affected;
  }

  /** Repeat one batch (a function of the table's owner) until a batch comes back short or the cap is reached. */
  private async inBatches(oneBatch: () => Promise<number>, batch: number, maxBatches: number): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxBatches; i++) {
      const affected = await oneBatch();
      total += affected;
      if (affected < batch) break;
    }
    return total;
  }
}
