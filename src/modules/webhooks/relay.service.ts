import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../core/config/config';
import { QUEUES, WebhookDeliveryJob } from '../../core/queue/queues';
import { unscoped } from '../../core/database/scoped';

export const RELAY_BATCH = 500;
/** Batches per relay run; what is left waits for the next run. */
const MAX_BATCHES = 200;
const SWEEP_EVERY_MS = 30_000;
const SWEEP_LIMIT = 200;
/**
 * The quick sweep: deliveries still marked `awaiting_enqueue` this long after they were written
 * (a relay or retry request killed between its commit and its enqueue, or Redis refused the
 * enqueue) are queued by the next relay run after QUICK_SWEEP_EVERY_MS.
 */
export const QUICK_SWEEP_AFTER_MS = 2_000;
const QUICK_SWEEP_EVERY_MS = 1_000;
const QUICK_SWEEP_LIMIT = 500;
const LIVE_STATES = new Set(['waiting', 'active', 'prioritized', 'waiting-children']);

/**
 * Deliveries per delivery job when the relay queues them: one job (two BullMQ scripts in Redis)
 * carries up to this many deliveries of one relay batch, in outbox order. Each delivery is still
 * attempted, recorded and retried on its own; a retry is a job of its own (job id = delivery id).
 */
export const DELIVERIES_PER_JOB = 25;

/**
 * BullMQ priority of a delivery re-queued by the worker (a retry after a failure, or a delivery
 * deferred because its endpoint is degraded): behind every organization's first few relay jobs,
 * so that one organization's failing or slow deliveries do not hold back the others' new ones.
 * (BullMQ takes jobs without a priority first, then the lowest priority number, FIFO within one.)
 */
export const REQUEUE_PRIORITY = 4;
/** BullMQ's largest priority. */
const MAX_PRIORITY = 2_097_152;

/** A delivery job of the relay: several deliveries (job id `batch-` + the first delivery id). */
export interface WebhookDeliveryBatchJob {
  deliveryIds: string[];
}
export type AnyDeliveryJob = WebhookDeliveryJob | WebhookDeliveryBatchJob;

export const deliveryJobOptions = (deliveryId: string) => ({
  jobId: deliveryId,
  // retries of the HTTP POST are the delivery's own schedule (the job re-delays itself); these
  // attempts only cover a processor failure (the database unreachable, ...)
  attempts: 10,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: true,
  removeOnFail: 1000,
});

export interface RelayResult {
  events: number;
  deliveries: number;
  requeued: number;
  /** deliveries the quick sweep queued (committed earlier, never known to be queued) */
  unqueued: number;
}

/**
 * Outbox -> deliveries (worker process). Pending outbox rows are taken in order, in bounded
 * batches, with FOR UPDATE SKIP LOCKED (several relays never take the same row); in the same
 * transaction one delivery is created per event and webhook among the organization's active
 * webhooks subscribed to its type or to all types (two webhooks on one URL are two subscriptions,
 * each signing with its own secret), and the events are marked relayed. The
 * delivery jobs are enqueued after the commit (job id = delivery id). If Redis fails then, the
 * deliveries are in the database and the sweep re-enqueues them: no event is lost.
 */
@Injectable()
export class RelayService {
  private readonly logger = new Logger(RelayService.name);
  private lastSweep = 0;
  private lastQuickSweep = 0;
  /** set on shutdown: a long relay run stops after its current batch (the rest stays pending) */
  stopping = false;

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    @InjectQueue(QUEUES.webhookDelivery) private readonly deliveries: Queue<AnyDeliveryJob>,
  ) {}

  async run(): Promise<RelayResult> {
    const out: RelayResult = { events: 0, deliveries: 0, requeued: 0, unqueued: 0 };
    for (let i = 0; i < MAX_BATCHES; i++) {
      const { events, deliveryIds, organizationIds } = await this.relayBatch(RELAY_BATCH);
      out.events += events;
      out.deliveries += deliveryIds.length;
      if (deliveryIds.length) await this.enqueue(deliveryIds, organizationIds);
      if (events < RELAY_BATCH || this.stopping) break;
    }
    if (!this.stopping && Date.now() - this.lastQuickSweep > QUICK_SWEEP_EVERY_MS) {
      this.lastQuickSweep = Date.now();
      out.unqueued = await this.quickSweep();
    }
    if (!this.stopping && Date.now() - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = Date.now();
      out.requeued = await this.sweep();
    }
    if (out.events) this.logger.debug({ msg: 'outbox relayed', ...out });
    return out;
  }

  async relayBatch(limit: number): Promise<{ events: number; deliveryIds: string[]; organizationIds: string[] }> {
    return this.ds.transaction(async (m) => {
      const [row] = await m.query<{ events: number; ids: [string, string][] }[]>(
        `WITH ev AS (
           SELECT id, organization_id, event_type, seq FROM outbox_events
            WHERE relayed_at IS NULL
            ORDER BY seq
            LIMIT $1
            FOR UPDATE SKIP LOCKED
         ), ins AS (
           INSERT INTO webhook_deliveries (organization_id, webhook_id, event_id, target_url, next_attempt_at, awaiting_enqueue)
           SELECT ev.organization_id, w.id, ev.id, w.target_url, now(), true
             FROM ev
             JOIN webhooks w ON w.organization_id = ev.organization_id AND w.active
                            AND (w.event_type IS NULL OR w.event_type = ev.event_type)
            ORDER BY ev.seq, w.created_at, w.id
           ON CONFLICT (event_id, webhook_id) DO NOTHING
           RETURNING id, event_id, organization_id
         ), upd AS (
           UPDATE outbox_events o SET relayed_at = now() FROM ev WHERE o.id = ev.id
         )
         SELECT (SELECT count(*)::int FROM ev) AS events,
                (SELECT coalesce(json_agg(json_build_array(ins.id, ins.organization_id) ORDER BY ev.seq), '[]'::json) FROM ins JOIN ev ON ev.id = ins.event_id) AS ids`,
        [limit],
      );
      const ids = row.ids;
      return { events: row.events, deliveryIds: ids.map((x) => x[0]), organizationIds: ids.map((x) => x[1]) };
    });
  }

  /**
   * Queue committed deliveries, DELIVERIES_PER_JOB of one organization to a job in the order given
   * (job id derived from the first delivery id, so adding the same jobs twice is a no-op), each
   * organization's first job ahead of every organization's second (see deliveryJobs), then clear their
   * `awaiting_enqueue` mark. A process that dies in between leaves the mark: the quick sweep
   * queues them a couple of seconds later.
   */
  async enqueue(deliveryIds: string[], organizationIds?: string[]): Promise<void> {
    try {
      await this.deliveries.addBulk(deliveryJobs(deliveryIds, organizationIds));
    } catch (err) {
      // the deliveries are committed and still marked: the quick sweep enqueues them once Redis answers
      this.logger.error({ msg: 'could not enqueue webhook deliveries; the sweep will retry', count: deliveryIds.length, err: (err as Error).message });
      return;
    }
    await markQueued(this.ds, deliveryIds);
  }

  /**
   * Deliveries committed more than QUICK_SWEEP_AFTER_MS ago and still marked awaiting_enqueue: a
   * relay (or a retry request) died between its commit and its enqueue, or Redis refused the
   * enqueue. Each gets its job (a delayed one that is due is promoted), and the mark is cleared.
   * The mark is rare, so the partial index makes this a cheap query when there is nothing to do.
   */
  async quickSweep(afterMs = QUICK_SWEEP_AFTER_MS): Promise<number> {
    const rows: { id: string; status: string; due: boolean }[] = await unscoped(this.ds, 'the relay sweeps deliveries of every organization').query(
      `SELECT id, status, next_attempt_at <= now() AS due FROM webhook_deliveries
        WHERE awaiting_enqueue AND updated_at < now() - make_interval(secs => $1)
        ORDER BY updated_at LIMIT $2`,
      [afterMs / 1000, QUICK_SWEEP_LIMIT],
    );
    if (!rows.length) return 0;
    let n = 0;
    const done: string[] = [];
    try {
      for (const row of rows) {
        if (row.status === 'PENDING' || row.status === 'FAILED') {
          const job = await this.deliveries.getJob(row.id);
          const state = job ? await job.getState() : 'unknown';
          if (job && state === 'delayed') {
            if (row.due) await job.promote();
          } else if (!LIVE_STATES.has(state)) {
            if (job) await job.remove();
            await this.deliveries.add('deliver', { deliveryId: row.id }, deliveryJobOptions(row.id));
            n++;
          }
        }
        done.push(row.id);
      }
    } catch (err) {
      this.logger.error({ msg: 'quick sweep: could not enqueue webhook deliveries', err: (err as Error).message });
    }
    await markQueued(this.ds, done);
    if (n) this.logger.warn({ msg: 'queued webhook deliveries left unqueued by a relay or retry that stopped after its commit', count: n });
    return n;
  }

  /**
   * Re-enqueue deliveries that are overdue and have no live job (Redis lost its data, an enqueue
   * failed after the relay committed, or the job failed for good on a database outage).
   */
  async sweep(graceMs = this.config.WEBHOOK_LOCK_MS * 2 + 60_000): Promise<number> {
    const rows: { id: string }[] = await unscoped(this.ds, 'the relay sweeps deliveries of every organization').query(
      `SELECT id FROM webhook_deliveries
        WHERE status IN ('PENDING', 'FAILED') AND next_attempt_at < now() - make_interval(secs => $1)
        ORDER BY next_attempt_at LIMIT $2`,
      [graceMs / 1000, SWEEP_LIMIT],
    );
    let n = 0;
    for (const { id } of rows) {
      const state = await this.deliveries.getJobState(id);
      if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') continue;
      if (state !== 'unknown') await this.deliveries.remove(id);
      await this.deliveries.add('deliver', { deliveryId: id }, deliveryJobOptions(id));
      n++;
    }
    if (n) this.logger.warn({ msg: 're-enqueued overdue webhook deliveries', count: n });
    return n;
  }
}

/**
 * The jobs of a list of deliveries: DELIVERIES_PER_JOB of one organization to a job (in the order
 * given), a lone delivery as a job of its own. Round-robin between organizations (issue 25 item 13):
 * each organization's first job has no priority (BullMQ takes those first, in order), its k-th job
 * priority k, so a burst of one organization queues behind the first job of every other one
 * relayed with it or after it, instead of ahead of all of them. Without `organizationIds` every
 * delivery counts as one organization's.
 */
export function deliveryJobs(deliveryIds: string[], organizationIds?: string[]) {
  type Opts = ReturnType<typeof deliveryJobOptions> & { priority?: number };
  const jobs: { name: string; data: AnyDeliveryJob; opts: Opts }[] = [];
  const byOrg = new Map<string, string[]>();
  deliveryIds.forEach((id, i) => {
    const org = organizationIds?.[i] ?? '';
    const list = byOrg.get(org);
    if (list) list.push(id);
    else byOrg.set(org, [id]);
  });
  for (const list of byOrg.values()) {
    for (let i = 0; i < list.length; i += DELIVERIES_PER_JOB) {
      const ids = list.slice(i, i + DELIVERIES_PER_JOB);
      const rank = i / DELIVERIES_PER_JOB;
      const priority = rank === 0 ? {} : { priority: Math.min(MAX_PRIORITY, rank + 1) };
      if (ids.length === 1) jobs.push({ name: 'deliver', data: { deliveryId: ids[0] }, opts: { ...deliveryJobOptions(ids[0]), ...priority } });
      else jobs.push({ name: 'deliver-batch', data: { deliveryIds: ids }, opts: { ...deliveryJobOptions(`batch-${ids[0]}`), ...priority } });
    }
  }
  return jobs;
}

/** Clear the awaiting_enqueue mark of deliveries whose jobs are queued. */
export async function markQueued(ds: DataSource, deliveryIds: string[]): Promise<void> {
  if (!deliveryIds.length) return;
  await unscoped(ds, 'deliveries by id, once queued').query(`UPDATE webhook_deliveries SET awaiting_enqueue = false WHERE id = ANY($1::uuid[]) AND awaiting_enqueue`, [deliveryIds]);
}
