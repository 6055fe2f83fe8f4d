import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../core/config/config';
import { decrypt } from '../../core/crypto/crypto';
import { eventBody } from './event-body';
import { nextDelayMs } from './schedule';
import { AttemptResult, sendOnce } from './sender';

export type DeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'DEAD';

export interface DeliverResult {
  /** when set, the job must run again at this time (a retry, or a job that fired early) */
  retryAt?: Date;
  status?: DeliveryStatus;
}

/**
 * Makes one attempt of one delivery (worker process). The delivery row is the state: an attempt is
 * recorded together with the new delivery status and any deactivation in ONE statement, after the
 * POST. A worker that dies in between leaves the row as it was, so the job (recovered by BullMQ's
 * stalled-job check) sends again, with the same webhook-id: at least once.
 */
@Injectable()
export class DeliveryService {
  private readonly logger = new Logger(DeliveryService.name);

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {}

  async deliver(deliveryId: string): Promise<DeliverResult> {
    const [row] = await this.ds.query(
      `SELECT d.status, d.attempt_count, d.retry_base, d.next_attempt_at, d.target_url, d.webhook_id,
              w.active, w.secret, w.basic_auth_username, w.basic_auth_password, w.additional_headers, e.payload
         FROM webhook_deliveries d
         JOIN webhooks w ON w.id = d.webhook_id
         JOIN outbox_events e ON e.id = d.event_id
        WHERE d.id = $1`,
      [deliveryId],
    );
    if (!row || row.status === 'SUCCEEDED' || row.status === 'DEAD') return {};
    if (!row.active) {
      await this.ds.query(
        `UPDATE webhook_deliveries SET status = 'DEAD', next_attempt_at = NULL, last_error = 'the webhook is not active', updated_at = now()
          WHERE id = $1 AND status IN ('PENDING', 'FAILED')`,
        [deliveryId],
      );
      return { status: 'DEAD' };
    }
    const due = row.next_attempt_at ? new Date(row.next_attempt_at) : new Date();
    if (due.getTime() > Date.now() + 50) return { retryAt: due };

    const payload = eventBody(row.payload);
    const body = JSON.stringify(payload);
    const result = await sendOnce(
      {
        targetUrl: row.target_url,
        secret: decrypt(this.config.APP_SECRET, row.secret),
        basicAuthUsername: row.basic_auth_username,
        basicAuthPassword: row.basic_auth_password ? decrypt(this.config.APP_SECRET, row.basic_auth_password) : null,
        additionalHeaders: row.additional_headers ?? {},
      },
      String(payload.id),
      body,
      { timeoutMs: this.config.WEBHOOK_TIMEOUT_MS, allowPrivate: this.config.ALLOW_PRIVATE_URLS },
    );
    return this.record(deliveryId, row.webhook_id, row.attempt_count + 1, row.attempt_count + 1 - row.retry_base, result);
  }

  /** Attempt row + delivery state + deactivation, atomically (one statement). */
  private async record(deliveryId: string, webhookId: string, attemptNo: number, inRound: number, r: AttemptResult): Promise<DeliverResult> {
    let status: DeliveryStatus;
    let retryAt: Date | null = null;
    let deactivate: string | null = null;
    if (r.outcome === 'success') status = 'SUCCEEDED';
    else if (r.outcome === 'client_error') {
      status = 'DEAD';
      deactivate = 'HTTP_4XX_RESPONSE';
    } else if (r.outcome === 'redirect') {
      status = 'DEAD';
      deactivate = 'TOO_MANY_REDIRECTS';
    } else {
      const delay = nextDelayMs(inRound, this.config.WEBHOOK_RETRY_SCALE);
      if (delay === null) {
        status = 'DEAD';
        deactivate = 'RETRY_COUNT';
      } else {
        status = 'FAILED';
        retryAt = new Date(Date.now() + delay);
      }
    }
    const [res] = await this.ds.query(
      `WITH d AS (
         UPDATE webhook_deliveries
            SET attempt_count = $2, status = $3, next_attempt_at = $4, last_status = $5, last_error = $6, updated_at = now()
          WHERE id = $1 AND status IN ('PENDING', 'FAILED') AND attempt_count = $2 - 1
          RETURNING id
       ), a AS (
         INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, http_status, latency_ms, error, response_excerpt)
         SELECT id, $2, $7, $5, $8, $6, $9 FROM d
       ), w AS (
         UPDATE webhooks SET active = false, deactivate_reason = $10, updated_at = now()
          WHERE id = $11 AND active AND $10::text IS NOT NULL AND EXISTS (SELECT 1 FROM d)
       )
       SELECT count(*)::int AS n FROM d`,
      [deliveryId, attemptNo, status, retryAt, r.httpStatus, r.error, r.startedAt, r.latencyMs, r.responseExcerpt, deactivate, webhookId],
    );
    if (!res?.n) {
      // someone else recorded this attempt number first (a retry requested meanwhile): leave it
      this.logger.warn({ msg: 'delivery changed during the attempt; result not recorded', deliveryId, attemptNo });
      return {};
    }
    if (deactivate) this.logger.warn({ msg: 'webhook deactivated', webhookId, reason: deactivate, httpStatus: r.httpStatus });
    return retryAt ? { retryAt, status } : { status };
  }
}
