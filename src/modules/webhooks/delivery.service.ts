import { Injectable, Logger, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../core/config/config';
import { Metrics } from '../../core/metrics/metrics';
import { decrypt } from '../../core/crypto/crypto';
import { eventBody } from './event-body';
import { GroupCommit } from './group-commit';
import { nextDelayMs } from './schedule';
import type { SlotKey } from './delivery-slots';
import { AttemptResult, sendOnce } from './sender';
import { unscopedMarker } from '../../core/database/scoped';
import { poolQuery, PoolStatement } from '../../core/database/pool-reads';

/** A delivery job carries the delivery id only: its statements address deliveries by id, in any organization. */
const BY_DELIVERY_ID = unscopedMarker('a delivery job addresses its delivery by id');

export type DeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'DEAD';

/**
 * Runs the POST of one delivery in the worker's slots (DeliverySlots.run): `fn` when the key's turn
 * comes, or `defer(delayMs)` without a slot when its endpoint is degraded and busy.
 */
export type Gate = <T>(key: SlotKey, fn: () => Promise<T>, defer: (delayMs: number) => T) => Promise<T>;

/**
 * A row read for a batch job is used for a POST only this long after it was read; later it is read
 * again, so the webhook's state (active, target_url, secrets) is never older than this when a
 * POST starts.
 */
export const PRELOAD_FRESH_MS = 500;

/** The rows of a batch job's deliveries (DeliveryService.preloader). */
export interface Preloaded {
  load(id: string): Promise<LoadedDelivery | undefined>;
}

export interface DeliverResult {
  /** when set, the job must run again at this time (a retry, a job that fired early, or a deferral) */
  retryAt?: Date;
  status?: DeliveryStatus;
  /** not attempted: its endpoint is degraded and busy (DeliverySlots); it runs again at retryAt */
  deferred?: boolean;
}

export interface LoadedDelivery {
  id: string;
  organization_id: string;
  status: DeliveryStatus;
  attempt_count: number;
  retry_base: number;
  next_attempt_at: Date | null;
  target_url: string;
  webhook_id: string;
  webhook_url: string;
  active: boolean;
  secret: string;
  /** the secret a rotation replaced, only while its overlap lasts */
  previous_secret: string | null;
  basic_auth_username: string;
  basic_auth_password: string | null;
  additional_headers: Record<string, string> | null;
  payload: Record<string, unknown>;
}

interface AttemptRecord {
  deliveryId: string;
  webhookId: string;
  attemptNo: number;
  status: DeliveryStatus;
  retryAt: Date | null;
  deactivate: string | null;
  result: AttemptResult;
}

/**
 * Makes one attempt of one delivery (worker process). The delivery row is the state: an attempt is
 * recorded together with the new delivery status and any deactivation in ONE statement, after the
 * POST. A worker that dies in between leaves the row as it was, so the job (recovered by BullMQ's
 * stalled-job check) sends again, with the same webhook-id: at least once.
 *
 * Loads and records of concurrent deliveries are grouped (GroupCommit): one query loads every
 * delivery that is starting, one statement records every attempt that has finished.
 */
@Injectable()
export class DeliveryService {
  private readonly logger = new Logger(DeliveryService.name);
  /** sealed secret -> plaintext (a sealed value never changes meaning; bounded) */
  private readonly opened = new Map<string, string>();
  private readonly loader = new GroupCommit<string, LoadedDelivery | undefined>((ids) => this.loadMany(ids));
  private readonly recorder = new GroupCommit<AttemptRecord, boolean>((recs) => this.recordMany(recs));

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  /**
   * The data source's own pg pool (core/database/pool-reads.ts poolQuery), for the two grouped
   * hot-path statements (a plain parameterised query; TypeORM's query runner adds nothing there but CPU).
   */
  private query<T>(q: PoolStatement): Promise<T[]> {
    return poolQuery<T>(this.ds, q);
  }

  /**
   * One attempt of one delivery. Its row is read first (grouped with the others starting, or from
   * `preloaded`, the batch job's rows read together); `gate` (the worker's delivery slots) then runs
   * the POST in its organization's and endpoint's turn (reading the row again if it got older than
   * PRELOAD_FRESH_MS while waiting), or defers it (`deferred`, `retryAt`: nothing attempted nor
   * recorded) when its endpoint is degraded and busy. The attempt record is written after the slot
   * is given back, grouped with the records of the other deliveries that finish meanwhile.
   */
  async deliver(deliveryId: string, opts: { gate?: Gate; preloaded?: Preloaded } = {}): Promise<DeliverResult> {
    const gate: Gate = opts.gate ?? ((_key, fn) => fn());
    const load = () => (opts.preloaded ? opts.preloaded.load(deliveryId) : this.loader.add(deliveryId));
    // the row first, outside the slots: its organization and endpoint decide its turn
    const first = await load();
    if (!first || first.status === 'SUCCEEDED' || first.status === 'DEAD') return {};
    // a job that fired early (or a retry request's job behind the schedule) waits without a slot
    const due = first.next_attempt_at ? new Date(first.next_attempt_at) : null;
    if (first.active && first.webhook_url === first.target_url && due && due.getTime() > Date.now() + 50) return { retryAt: due };
    const readAt = performance.now();
    const attempt = await gate<DeliverResult | { row: LoadedDelivery; result: AttemptResult }>(
      { org: first.organization_id, target: first.target_url },
      async () => {
        // never POST on a row older than PRELOAD_FRESH_MS (a batch's preloader reads again by itself)
        const row = opts.preloaded || performance.now() - readAt > PRELOAD_FRESH_MS ? await load() : first;
        return this.attempt(deliveryId, row);
      },
      (delayMs) => ({ retryAt: new Date(Date.now() + delayMs), deferred: true }),
    );
    return 'row' in attempt ? this.record(attempt.row, attempt.result) : attempt;
  }

  /**
   * The rows of a batch job's deliveries, read together: the first delivery to get its slot reads
   * its own row and those of the deliveries after it in one query, and the following ones use
   * those rows while fresh (PRELOAD_FRESH_MS; then the next one to start reads again).
   */
  preloader(ids: string[]): Preloaded {
    let at = -Infinity;
    let rows = new Map<string, LoadedDelivery | undefined>();
    let reading: Promise<unknown> | null = null;
    const load = async (id: string): Promise<LoadedDelivery | undefined> => {
      if (reading) await reading.catch(() => undefined); // deliveries starting together share one read
      if (performance.now() - at < PRELOAD_FRESH_MS && rows.has(id)) return rows.get(id);
      const rest = ids.slice(Math.max(0, ids.indexOf(id)));
      const sent = performance.now();
      const read = this.loadMany(rest);
      reading = read;
      try {
        const got = await read;
        at = sent;
        rows = new Map(rest.map((x, i) => [x, got[i]]));
      } finally {
        if (reading === read) reading = null;
      }
      return rows.get(id);
    };
    return { load };
  }

  /** Check and POST; answers what to record, or the job's outcome when there is nothing to send. */
  private async attempt(deliveryId: string, row: LoadedDelivery | undefined): Promise<DeliverResult | { row: LoadedDelivery; result: AttemptResult }> {
    if (!row || row.status === 'SUCCEEDED' || row.status === 'DEAD') return {};
    // never POST to a URL the webhook no longer has (it may belong to someone else by now)
    const giveUp = !row.active ? 'the webhook is not active' : row.webhook_url !== row.target_url ? "the webhook's target_url has changed" : null;
    if (giveUp) {
      await this.ds.query(
        `${BY_DELIVERY_ID}UPDATE webhook_deliveries SET status = 'DEAD', next_attempt_at = NULL, last_error = $2, updated_at = now()
          WHERE id = $1 AND status IN ('PENDING', 'FAILED')`,
        [deliveryId, giveUp],
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
        secret: this.open(row.secret),
        previousSecret: row.previous_secret ? this.open(row.previous_secret) : null,
        basicAuthUsername: row.basic_auth_username,
        basicAuthPassword: row.basic_auth_password ? this.open(row.basic_auth_password) : null,
        additionalHeaders: row.additional_headers ?? {},
      },
      String(payload.id),
      body,
      { timeoutMs: this.config.WEBHOOK_TIMEOUT_MS, allowPrivate: this.config.ALLOW_PRIVATE_URLS },
    );
    return { row, result };
  }

  private open(sealed: string): string {
    let plain = this.opened.get(sealed);
    if (plain === undefined) {
      plain = decrypt(this.config.APP_SECRET, sealed);
      if (this.opened.size > 10_000) this.opened.clear();
      this.opened.set(sealed, plain);
    }
    return plain;
  }

  private async loadMany(ids: string[]): Promise<(LoadedDelivery | undefined)[]> {
    const rows = await this.query<LoadedDelivery>({
      // a named (prepared) statement: parsed and planned once per connection
      name: 'webhook_deliveries_load_v2',
      text: `${BY_DELIVERY_ID}SELECT d.id, d.organization_id, d.status, d.attempt_count, d.retry_base, d.next_attempt_at, d.target_url, d.webhook_id,
              w.target_url AS webhook_url, w.active, w.secret,
              CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret END AS previous_secret, w.basic_auth_username, w.basic_auth_password, w.additional_headers, e.payload
         FROM webhook_deliveries d
         JOIN webhooks w ON w.id = d.webhook_id
         JOIN outbox_events e ON e.id = d.event_id
        WHERE d.id = ANY($1::uuid[])`,
      values: [ids],
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id));
  }

  /** What an attempt means for the delivery and its webhook. */
  private async record(row: LoadedDelivery, r: AttemptResult): Promise<DeliverResult> {
    const attemptNo = row.attempt_count + 1;
    const inRound = attemptNo - row.retry_base;
    let status: DeliveryStatus;
    let retryAt: Date | null = null;
    let deactivate: string | null = null;
    if (r.outcome === 'success') status = 'SUCCEEDED';
    else if (r.outcome === 'gone') {
      // only 410 Gone deactivates at once; any other 4xx is retried like any failure
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
        // a 429/503 Retry-After postpones the next attempt at least that long (capped at 24 h)
        retryAt = new Date(Date.now() + Math.max(delay, r.retryAfterMs ?? 0));
      }
    }
    const recorded = await this.recorder.add({ deliveryId: row.id, webhookId: row.webhook_id, attemptNo, status, retryAt, deactivate, result: r });
    if (!recorded) {
      // someone else recorded this attempt number first (a retry requested meanwhile): leave it
      this.logger.warn({ msg: 'delivery changed during the attempt; result not recorded', deliveryId: row.id, attemptNo });
      return {};
    }
    this.metrics?.webhookAttempt(r.outcome, status);
    if (deactivate) this.logger.warn({ msg: 'webhook deactivated', webhookId: row.webhook_id, reason: deactivate, httpStatus: r.httpStatus });
    return retryAt ? { retryAt, status } : { status };
  }

  /** Attempt rows + delivery states + deactivations of a group of attempts, in one statement. */
  private async recordMany(recs: AttemptRecord[]): Promise<boolean[]> {
    const col = <T>(f: (r: AttemptRecord) => T) => recs.map(f);
    const rows = await this.query<{ id: string }>({
      name: 'webhook_deliveries_record',
      text: `${BY_DELIVERY_ID}WITH i AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::timestamptz[], $5::int[], $6::text[], $7::timestamptz[], $8::int[], $9::text[], $10::text[], $11::uuid[])
           AS t(delivery_id, attempt_no, status, next_at, http_status, error, started_at, latency_ms, excerpt, deactivate, webhook_id)
       ), d AS (
         UPDATE webhook_deliveries wd
            SET attempt_count = i.attempt_no, status = i.status, next_attempt_at = i.next_at,
                last_status = i.http_status, last_error = i.error, updated_at = now()
           FROM i
          WHERE wd.id = i.delivery_id AND wd.status IN ('PENDING', 'FAILED') AND wd.attempt_count = i.attempt_no - 1
          RETURNING wd.id
       ), a AS (
         INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, http_status, latency_ms, error, response_excerpt)
         SELECT i.delivery_id, i.attempt_no, i.started_at, i.http_status, i.latency_ms, i.error, i.excerpt FROM i JOIN d ON d.id = i.delivery_id
       ), w AS (
         UPDATE webhooks SET active = false, deactivate_reason = x.deactivate, updated_at = now()
           FROM (SELECT DISTINCT ON (i.webhook_id) i.webhook_id, i.deactivate FROM i JOIN d ON d.id = i.delivery_id WHERE i.deactivate IS NOT NULL) x
          WHERE webhooks.id = x.webhook_id AND webhooks.active
       )
       -- an attempt record lost to a database crash only means one more (duplicate) delivery, which
       -- at-least-once allows: this commit does not wait for the WAL flush (set_config(.., true) is
       -- SET LOCAL for this statement's transaction)
       SELECT d.id FROM d CROSS JOIN (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit`,
      values: [
        col((r) => r.deliveryId),
        col((r) => r.attemptNo),
        col((r) => r.status),
        col((r) => r.retryAt),
        col((r) => r.result.httpStatus),
        col((r) => r.result.error),
        col((r) => r.result.startedAt),
        col((r) => r.result.latencyMs),
        col((r) => r.result.responseExcerpt),
        col((r) => r.deactivate),
        col((r) => r.webhookId),
      ],
    });
    const done = new Set(rows.map((r) => r.id));
    return recs.map((r) => done.has(r.deliveryId));
  }
}
