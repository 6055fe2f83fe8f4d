import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DataSource, MoreThanOrEqual, Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { decrypt, encrypt } from '../../core/crypto/crypto';
import type { EventType } from '../../core/events/outbox';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId, encodeId, newUuid } from '../../core/ids/ids';
import { isBlockedAddress } from '../../core/net/address-policy';
import { isDryRun } from '../../core/dry-run/dry-run';
import { checkUrl, OutboundError } from '../../core/net/guarded-http';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { QUEUES, WebhookDeliveryJob } from '../../core/queue/queues';
import { WebhookDto, WebhookPatchDto } from './dto/webhook.dto';
import { eventBody } from './event-body';
import { deliveryJobOptions, deliveryJobs, markQueued } from './relay.service';
import { EVENT_TYPES } from '../../core/events/outbox';
import { dateTimeParam } from '../../core/http/query-params';
import { sampleEvent } from './samples';
import { isReservedHeader, sendOnce } from './sender';
import { newSigningSecret } from './signing';
import { Webhook } from './webhook.entity';
import { AttemptRow, DeliveryRow, PASSWORD_MASK, type PingResult, type Replayed } from './webhooks.shape';
import { OrgRowsService } from '../../core/pagination/org-rows';
import { omitEmpty } from '../../core/http/optional-members';
import { scoped } from '../../core/database/scoped';

/** The columns of a DeliveryRow (webhook_deliveries d joined with its outbox event e). */
const DELIVERY_COLUMNS = `d.id, d.event_id, e.event_type, d.target_url, d.status, d.attempt_count, d.next_attempt_at, d.last_status, d.last_error, d.created_at, d.updated_at`;

const fieldError = (field: string, message: string) => new ValidationFailed([{ field, pointer: `/${field}`, message }], 400);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const MAX_HEADERS = 50;
const MAX_HEADER_VALUE = 4096;
const DNS_TIMEOUT_MS = 3000;
/** Events one replay request may queue again. */
export const REPLAY_MAX = 10_000;
const WEBHOOK_EVENT_TYPES: string[] = [...EVENT_TYPES];

/** A replay bound: an RFC 3339 date-time with an offset; 400 naming it otherwise. */
function replayTime(v: unknown, field: string, required: boolean): Date | undefined {
  if (v === undefined || v === null) {
    if (required) throw fieldError(field, 'This field is required.');
    return undefined;
  }
  if (typeof v !== 'string') throw fieldError(field, 'Datetime has wrong format. Use an RFC 3339 date-time with an offset, e.g. 2026-01-01T00:00:00Z.');
  try {
    return dateTimeParam({ [field]: v }, field, true);
  } catch {
    throw fieldError(field, 'Datetime has wrong format. Use an RFC 3339 date-time with an offset, e.g. 2026-01-01T00:00:00Z.');
  }
}

/** /v1 webhooks: configuration, ping, sample events, deliveries and their attempts. Org-scoped. */
@Injectable()
export class WebhooksService extends OrgRowsService<Webhook> {
  private readonly logger = new Logger(WebhooksService.name);

  constructor(
    @InjectRepository(Webhook) repo: Repository<Webhook>,
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    @InjectQueue(QUEUES.webhookDelivery) private readonly deliveries: Queue<WebhookDeliveryJob>,
  ) {
    super(repo, 'webhook');
  }

  /** Create: answers the webhook and its whsec_ signing secret (shown this once only). */
  async create(p: Principal, dto: WebhookDto): Promise<{ webhook: Webhook; secret: string }> {
    this.checkMembers(dto, true);
    const targetUrl = await this.checkTarget(dto.target_url);
    const headers = this.checkHeaders(dto.additional_headers);
    const secret = newSigningSecret();
    const password = dto.basic_auth_password ?? '';
    // insert, not save: save() with the id set first looks the id up in every organization (and
    // would set the nullable members it was not given to null, as they are here)
    const webhook = this.repo.create({
      id: newUuid(),
      organizationId: p.organizationId,
      targetUrl,
      eventType: dto.event_type ?? null,
      active: dto.active ?? true,
      deactivateReason: null,
      basicAuthUsername: dto.basic_auth_username ?? '',
      basicAuthPassword: password ? encrypt(this.config.APP_SECRET, password) : null,
      additionalHeaders: headers ?? {},
      secret: encrypt(this.config.APP_SECRET, secret),
      previousSecret: null,
      previousSecretExpiresAt: null,
    });
    await this.repo.insert(webhook);
    return { webhook, secret };
  }

  /**
   * PUT and PATCH (both partial). Re-activating clears deactivate_reason. Only the members sent are
   * written (one UPDATE), so a deactivation the worker records meanwhile is never overwritten.
   */
  async update(p: Principal, publicId: string, dto: WebhookDto | WebhookPatchDto, put: boolean): Promise<Webhook> {
    const w = await this.get(p, publicId);
    this.checkMembers(dto, put);
    const patch: Partial<Webhook> = {};
    if (dto.target_url !== undefined) patch.targetUrl = await this.checkTarget(dto.target_url);
    const headers = this.checkHeaders(dto.additional_headers);
    if (headers !== undefined) patch.additionalHeaders = headers;
    if (dto.event_type !== undefined) patch.eventType = dto.event_type;
    if (dto.basic_auth_username !== undefined) patch.basicAuthUsername = dto.basic_auth_username ?? '';
    // the masked value read back from GET means "unchanged", so a read-modify-write keeps the password
    if (dto.basic_auth_password !== undefined && dto.basic_auth_password !== PASSWORD_MASK) {
      patch.basicAuthPassword = dto.basic_auth_password ? encrypt(this.config.APP_SECRET, dto.basic_auth_password) : null;
    }
    if (dto.active === true) Object.assign(patch, { active: true, deactivateReason: null });
    else if (dto.active === false) patch.active = false;
    if (Object.keys(patch).length) await this.repo.update({ id: w.id, organizationId: p.organizationId }, patch);
    return this.get(p, publicId);
  }

  async remove(p: Principal, publicId: string): Promise<void> {
    const w = await this.get(p, publicId);
    await this.repo.delete({ id: w.id, organizationId: p.organizationId });
  }

  /**
   * A new whsec_ secret, answered once. The replaced one is kept (sealed) and deliveries are signed
   * with both until WEBHOOK_SECRET_OVERLAP_SECONDS have passed. A second rotation within the window
   * replaces the kept one: at most two secrets sign at a time. One UPDATE, so a concurrent rotation
   * cannot lose a secret that already signed deliveries.
   */
  async rotateSecret(p: Principal, publicId: string): Promise<{ webhook: Webhook; secret: string; previousSecretExpiresAt: Date }> {
    const w = await this.get(p, publicId);
    const secret = newSigningSecret();
    // TypeORM answers an UPDATE ... RETURNING on PostgreSQL as [rows, affected]
    const [[row]] = await scoped(this.ds, p.organizationId).query<[{ previous_secret_expires_at: Date }[], number]>(
      `UPDATE webhooks SET previous_secret = secret, secret = $2,
              previous_secret_expires_at = now() + make_interval(secs => $3), updated_at = now()
        WHERE id = $1 AND organization_id = $org
        RETURNING previous_secret_expires_at`,
      [w.id, encrypt(this.config.APP_SECRET, secret), this.config.WEBHOOK_SECRET_OVERLAP_SECONDS],
    );
    if (!row) throw notFound();
    return { webhook: await this.get(p, publicId), secret, previousSecretExpiresAt: new Date(row.previous_secret_expires_at) };
  }

  /** The replaced secret while its overlap lasts (opened), else null. */
  private previousSecretOf(w: Webhook): string | null {
    if (!w.previousSecret || !w.previousSecretExpiresAt || new Date(w.previousSecretExpiresAt).getTime() <= Date.now()) return null;
    return decrypt(this.config.APP_SECRET, w.previousSecret);
  }

  /** One signed test POST of a PING event, at once; no retry, no deactivation, nothing recorded. */
  async ping(p: Principal, publicId: string): Promise<PingResult> {
    const w = await this.get(p, publicId);
    const event = { id: encodeId('event', newUuid()), event_type: 'PING', timestamp: new Date().toISOString() };
    const r = await sendOnce(
      {
        targetUrl: w.targetUrl,
        secret: decrypt(this.config.APP_SECRET, w.secret),
        previousSecret: this.previousSecretOf(w),
        basicAuthUsername: w.basicAuthUsername,
        basicAuthPassword: w.basicAuthPassword ? decrypt(this.config.APP_SECRET, w.basicAuthPassword) : null,
        additionalHeaders: w.additionalHeaders ?? {},
      },
      event.id,
      JSON.stringify(event),
      { timeoutMs: this.config.WEBHOOK_TIMEOUT_MS, allowPrivate: this.config.ALLOW_PRIVATE_URLS },
    );
    const succeeded = r.outcome === 'success';
    return omitEmpty(
      {
        succeeded,
        http_status_code: r.httpStatus,
        message: succeeded ? `The endpoint answered ${r.httpStatus}.` : `The ping failed: ${r.error}.`,
      },
      ['http_status_code'],
    );
  }

  /** The most recent real event of the type for the organization, else a generated one. */
  async sample(p: Principal, type: EventType): Promise<{ results: Record<string, unknown>[] }> {
    const [row] = await scoped(this.ds, p.organizationId).query<{ payload: Record<string, unknown> }[]>(
      `SELECT payload FROM outbox_events WHERE organization_id = $org AND event_type = $1 ORDER BY created_at DESC LIMIT 1`,
      [type],
    );
    return { results: [row ? eventBody(row.payload) : sampleEvent(type)] };
  }

  /** Deliveries that the webhook carried, newest first, each with its attempts (two queries a page). */
  /**
   * `updatedSince` (/v1 `updated_since`): the webhooks changed at or after it, ordered by last change
   * (updated_at, id) on webhooks_org_updated_idx (docs/decisions/data-out.md); without it, oldest first.
   */
  override list(p: Principal, page: V1PageRequest, updatedSince?: Date): Promise<{ rows: Webhook[]; count: number }> {
    if (!updatedSince) return super.list(p, page);
    return this.repo
      .findAndCount({
        where: { organizationId: p.organizationId, updatedAt: MoreThanOrEqual(updatedSince) },
        order: { updatedAt: 'ASC', id: 'ASC' },
        skip: page.offset,
        take: page.pageSize,
      })
      .then(([rows, count]) => ({ rows, count }));
  }

  /**
   * A webhook's deliveries, newest first; with `updatedSince` (/v1 `updated_since`) the deliveries
   * changed at or after it (a new attempt, a retry, a replay), ordered by last change (updated_at, id)
   * on webhook_deliveries_webhook_updated_idx (docs/decisions/data-out.md).
   */
  async listDeliveries(p: Principal, publicId: string, page: V1PageRequest, updatedSince?: Date): Promise<{ rows: DeliveryRow[]; attempts: Map<string, AttemptRow[]>; count: number }> {
    const w = await this.get(p, publicId);
    const db = scoped(this.ds, p.organizationId);
    const [rows, [{ count }]] = await Promise.all(
      updatedSince
        ? [
            db.query<DeliveryRow[]>(
              `SELECT ${DELIVERY_COLUMNS}
                 FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
                WHERE d.webhook_id = $1 AND d.organization_id = $org AND d.updated_at >= $4
                ORDER BY d.updated_at, d.id
                OFFSET $2 LIMIT $3`,
              [w.id, page.offset, page.pageSize, updatedSince],
            ),
            db.query<{ count: number }[]>(`SELECT count(*)::int AS count FROM webhook_deliveries WHERE webhook_id = $1 AND organization_id = $org AND updated_at >= $2`, [w.id, updatedSince]),
          ]
        : [
            db.query<DeliveryRow[]>(
              `SELECT ${DELIVERY_COLUMNS}
           FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
          WHERE d.webhook_id = $1 AND d.organization_id = $org
          ORDER BY d.created_at DESC, d.id DESC
          OFFSET $2 LIMIT $3`,
              [w.id, page.offset, page.pageSize],
            ),
            db.query<{ count: number }[]>(`SELECT count(*)::int AS count FROM webhook_deliveries WHERE webhook_id = $1 AND organization_id = $org`, [w.id]),
          ],
    );
    const attempts = await this.attemptsOf(rows.map((r) => r.id));
    return { rows, attempts, count };
  }

  async getDelivery(p: Principal, webhookPublicId: string, deliveryPublicId: string): Promise<{ row: DeliveryRow; attempts: AttemptRow[]; webhook: Webhook }> {
    const w = await this.get(p, webhookPublicId);
    const id = decodeId('delivery', deliveryPublicId);
    const [row] = id
      ? await scoped(this.ds, p.organizationId).query<DeliveryRow[]>(
          `SELECT ${DELIVERY_COLUMNS}
             FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
            WHERE d.id = $1 AND d.webhook_id = $2 AND d.organization_id = $org`,
          [id, w.id],
        )
      : [];
    if (!row) throw notFound();
    return { row, attempts: (await this.attemptsOf([row.id])).get(row.id) ?? [], webhook: w };
  }

  /**
   * Re-queue a delivery at once. A pending or failed one gets its next attempt now (the schedule
   * goes on); a succeeded or dead one is revived with a fresh schedule. The webhook must be active.
   */
  async retryDelivery(p: Principal, webhookPublicId: string, deliveryPublicId: string) {
    const { row, webhook } = await this.getDelivery(p, webhookPublicId, deliveryPublicId);
    if (!webhook.active) throw fieldError('non_field_errors', 'The webhook is not active: activate it before retrying its deliveries.');
    if (webhook.targetUrl !== row.target_url) throw fieldError('non_field_errors', "The webhook's target_url has changed since this delivery: it cannot be retried.");
    await scoped(this.ds, p.organizationId).query(
      `UPDATE webhook_deliveries
          SET status = CASE WHEN status IN ('SUCCEEDED', 'DEAD') THEN 'PENDING' ELSE status END,
              retry_base = CASE WHEN status IN ('SUCCEEDED', 'DEAD') THEN attempt_count ELSE retry_base END,
              next_attempt_at = now(), awaiting_enqueue = true, updated_at = now()
        WHERE id = $1 AND organization_id = $org`,
      [row.id],
    );
    // the answer (202) shows the delivery as queued: read before the job can run and change it
    const queued = await this.getDelivery(p, webhookPublicId, deliveryPublicId);
    // a dry run (core/dry-run) touches no queue: the row above is rolled back
    if (isDryRun()) return queued;
    try {
      const job = await this.deliveries.getJob(row.id);
      const state = job ? await job.getState() : 'unknown';
      if (job && state === 'delayed') await job.promote();
      else if (state === 'waiting' || state === 'active' || state === 'prioritized') {
        /* it runs soon anyway */
      } else {
        if (job) await job.remove();
        await this.deliveries.add('deliver', { deliveryId: row.id }, deliveryJobOptions(row.id));
      }
      await markQueued(this.ds, [row.id]);
    } catch (err) {
      // the row says "due now" and stays marked awaiting_enqueue: the worker's quick sweep enqueues
      // it once Redis answers (or if this process dies before the enqueue)
      this.logger.error({ msg: 'could not enqueue a webhook retry', deliveryId: row.id, err: (err as Error).message });
    }
    return queued;
  }

  /**
   * Replay (CONVENTIONS §20): the organization's webhook events recorded from `since` (inclusive)
   * to `until` (exclusive, default now) that this webhook subscribes to are delivered to it again:
   * each event's delivery to this webhook is created, or revived with a fresh schedule, and queued.
   * The body and `webhook-id` are the event's own (the same as the first time); the signature and
   * `webhook-timestamp` are made anew at send time with the webhook's current secret(s). At most
   * REPLAY_MAX events per request (400 naming `until` beyond that). Sync events (user.updated, ...)
   * are the event log's only and are not replayed.
   */
  async replay(p: Principal, publicId: string, body: unknown): Promise<Replayed> {
    const w = await this.get(p, publicId);
    const b = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    const since = replayTime(b.since, 'since', true)!;
    const until = replayTime(b.until, 'until', false) ?? new Date();
    if (until.getTime() <= since.getTime()) throw fieldError('until', 'Must be later than since.');
    if (!w.active) throw fieldError('non_field_errors', 'The webhook is not active: activate it before replaying events to it.');
    const types = WEBHOOK_EVENT_TYPES.filter((t) => !w.eventType || t === w.eventType);
    const rows = await scoped(this.ds, p.organizationId).transaction(async (tx) => {
      const [{ n }] = await tx.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM outbox_events WHERE organization_id = $org AND event_type = ANY($1::text[]) AND created_at >= $2 AND created_at < $3`,
        [types, since, until],
      );
      if (n > REPLAY_MAX) throw fieldError('until', `The range holds ${n} events; replay at most ${REPLAY_MAX} at a time (choose an earlier until).`);
      return tx.query<{ id: string }[]>(
        `INSERT INTO webhook_deliveries AS d (organization_id, webhook_id, event_id, target_url, next_attempt_at, awaiting_enqueue)
         SELECT e.organization_id, $4, e.id, $5, now(), true
           FROM outbox_events e
          WHERE e.organization_id = $org AND e.event_type = ANY($1::text[]) AND e.created_at >= $2 AND e.created_at < $3
          ORDER BY e.created_at, e.seq
         ON CONFLICT (event_id, webhook_id) DO UPDATE
            SET status = 'PENDING', retry_base = d.attempt_count, target_url = EXCLUDED.target_url, next_attempt_at = now(),
                last_error = NULL, awaiting_enqueue = true, updated_at = now()
         RETURNING d.id`,
        [types, since, until, w.id, w.targetUrl],
      );
    });
    const ids = rows.map((r) => r.id);
    if (ids.length) {
      try {
        await this.deliveries.addBulk(
          deliveryJobs(
            ids,
            ids.map(() => p.organizationId),
          ) as never,
        );
        await markQueued(this.ds, ids);
      } catch (err) {
        // committed and still marked awaiting_enqueue: the worker's quick sweep queues them
        this.logger.error({ msg: 'could not enqueue replayed deliveries', count: ids.length, err: (err as Error).message });
      }
    }
    return { replayed: ids.length, since: since.toISOString(), until: until.toISOString() };
  }

  private async attemptsOf(deliveryIds: string[]): Promise<Map<string, AttemptRow[]>> {
    const map = new Map<string, AttemptRow[]>();
    if (!deliveryIds.length) return map;
    const rows: AttemptRow[] = await this.ds.query(
      `SELECT delivery_id, attempt_no, started_at, http_status, latency_ms, error, response_excerpt
         FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, attempt_no`,
      [deliveryIds],
    );
    for (const a of rows) {
      const list = map.get(a.delivery_id) ?? [];
      list.push(a);
      map.set(a.delivery_id, list);
    }
    return map;
  }

  /** The string members, one message each (DRF's wording). */
  private checkMembers(dto: WebhookPatchDto, urlRequired: boolean) {
    const problems: { field: string; pointer: string; message: string }[] = [];
    const check = (field: 'target_url' | 'basic_auth_username' | 'basic_auth_password', max: number, required: boolean, nullable: boolean) => {
      const v = dto[field];
      let message: string | null = null;
      if (v === undefined) message = required ? 'This field is required.' : null;
      else if (v === null) message = nullable ? null : 'This field may not be null.';
      else if (typeof v !== 'string') message = 'Not a valid string.';
      else if (field === 'target_url' && !v.trim()) message = 'This field may not be blank.';
      else if (v.length > max) message = `Ensure this field has no more than ${max} characters.`;
      else if (field === 'basic_auth_username' && v.includes(':')) message = 'May not contain a colon (HTTP Basic user names cannot).';
      else if (field !== 'target_url' && /[\r\n\0]/.test(v)) message = 'May not contain line breaks or NUL characters.';
      if (message) problems.push({ field, pointer: `/${field}`, message });
    };
    check('target_url', 1024, urlRequired, false);
    check('basic_auth_username', 255, false, true);
    check('basic_auth_password', 255, false, true);
    if (problems.length) throw new ValidationFailed(problems, 400);
  }

  /**
   * target_url: http(s), no credentials, and (unless ALLOW_PRIVATE_URLS) not a loopback, private,
   * link-local or metadata address, literally or by what the name resolves to now. A name that
   * does not resolve is accepted: every delivery checks again at connect time.
   */
  private async checkTarget(raw: string): Promise<string> {
    const allow = this.config.ALLOW_PRIVATE_URLS;
    let url: URL;
    try {
      url = checkUrl(raw, allow);
    } catch (err) {
      const e = err as OutboundError;
      throw fieldError(
        'target_url',
        e.reason === 'blocked_address' ? 'This URL points to a loopback, private, link-local or reserved address, which is not allowed.' : `Enter a valid URL: ${e.message}.`,
      );
    }
    if (/[\s<>"{}|\\^`]/.test(raw)) throw fieldError('target_url', 'Enter a valid URL.');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!allow && !isIP(host)) {
      const addrs = await Promise.race([
        lookup(host, { all: true, verbatim: true }).catch(() => [] as { address: string }[]),
        new Promise<{ address: string }[]>((r) => setTimeout(() => r([]), DNS_TIMEOUT_MS).unref()),
      ]);
      if (addrs.some((a) => isBlockedAddress(a.address))) {
        throw fieldError('target_url', 'This URL resolves to a loopback, private, link-local or reserved address, which is not allowed.');
      }
    }
    return raw;
  }

  /** additional_headers: an object of string values; names are HTTP tokens; reserved names refused. */
  private checkHeaders(value: unknown): Record<string, string> | undefined {
    if (value === undefined) return undefined;
    if (value === null) return {};
    if (typeof value !== 'object' || Array.isArray(value)) throw fieldError('additional_headers', 'Must be an object of header names to string values.');
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length > MAX_HEADERS) throw fieldError('additional_headers', `At most ${MAX_HEADERS} headers.`);
    const seen = new Set<string>();
    const out: Record<string, string> = {};
    for (const [name, v] of entries) {
      if (!HEADER_NAME.test(name)) throw fieldError('additional_headers', `"${name.slice(0, 100)}" is not a valid header name.`);
      if (isReservedHeader(name)) throw fieldError('additional_headers', `The header "${name}" cannot be set: the platform sets it.`);
      if (seen.has(name.toLowerCase())) throw fieldError('additional_headers', `The header "${name}" is given twice.`);
      seen.add(name.toLowerCase());
      if (typeof v !== 'string') throw fieldError('additional_headers', `The value of "${name}" must be a string.`);
      if (v.length > MAX_HEADER_VALUE || !/^[\t\x20-\x7e\x80-\xff]*$/.test(v)) throw fieldError('additional_headers', `The value of "${name}" is not a valid header value.`);
      out[name] = v;
    }
    return out;
  }
}
