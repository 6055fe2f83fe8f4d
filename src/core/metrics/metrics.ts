import { getQueueToken } from '@nestjs/bullmq';
import { driverPool } from '../database/pool-reads';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import type { IncomingMessage } from 'node:http';
import type { Pool } from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { constantTimeEqual, sha256 } from '../crypto/crypto';
import { unscoped } from '../database/scoped';
import { QUEUES } from '../queue/queues';

/**
 * The process's Prometheus metrics (CONVENTIONS §23), served as text at GET /metrics by the API and
 * on METRICS_PORT by the worker. One registry per process (per application in the tests, which
 * build several): no global prom-client state.
 *
 * - `http_requests_total`, `http_request_duration_seconds` (API): per method, route pattern
 *   (`/v2/students/:id`, never the concrete path, so the series stay few) and status.
 * - `queue_jobs{queue,state}`: BullMQ job counts, read from Redis at scrape time.
 * - `outbox_pending_events`, `outbox_lag_seconds`: events not yet relayed to webhook deliveries and
 *   the age of the oldest (from the partial index of pending events), read at scrape time.
 * - `webhook_delivery_attempts_total{outcome,result}` (worker): each recorded attempt, by what the
 *   endpoint did (success, retryable, gone, redirect) and what the delivery became (SUCCEEDED,
 *   FAILED, DEAD).
 * - `db_pool_connections{state}` (total, idle, waiting) and `db_pool_max`.
 * - prom-client's default process metrics, among them `nodejs_eventloop_lag_*` (event-loop delay
 *   percentiles) and heap, GC and CPU figures.
 *
 * Every figure read at scrape time is bounded by a time limit: a scrape while Redis or PostgreSQL is
 * down answers what it can (and `metrics_collect_errors_total` counts what it could not).
 */
@Injectable()
export class Metrics implements OnModuleDestroy {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route' | 'status'>;
  private readonly webhookAttempts: Counter<'outcome' | 'result'>;
  private readonly collectErrors: Counter<'source'>;

  constructor(
    private readonly config: AppConfig,
    private readonly ds: DataSource,
    @Inject(ModuleRef) private readonly moduleRef: ModuleRef,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    this.requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames: ['method', 'route', 'status'], registers });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.webhookAttempts = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts recorded, by what the endpoint answered (outcome) and what the delivery became (result)',
      labelNames: ['outcome', 'result'],
      registers,
    });
    this.collectErrors = new Counter({ name: 'metrics_collect_errors_total', help: 'Scrape-time figures that could not be read (source: queues, outbox, pool)', labelNames: ['source'], registers });
    // the gauges' collect callbacks run with `this` bound to the gauge: the service is captured here
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    new Gauge({
      name: 'queue_jobs',
      help: 'BullMQ jobs per queue and state (read from Redis at scrape time)',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        await self.collectQueues(this);
      },
    });
    const pending = new Gauge({ name: 'outbox_pending_events', help: 'Outbox events not yet relayed to webhook deliveries', registers });
    new Gauge({
      name: 'outbox_lag_seconds',
      help: 'Age of the oldest outbox event not yet relayed (0 when none is pending)',
      registers,
      async collect() {
        await self.collectOutbox(this, pending);
      },
    });
    new Gauge({
      name: 'db_pool_connections',
      help: 'Application database pool: connections open (total), idle, and requests waiting for one',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = self.pool();
        if (!pool) return;
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    new Gauge({ name: 'db_pool_max', help: 'Application database pool size (DATABASE_POOL_SIZE)', registers }).set(config.DATABASE_POOL_SIZE);
  }

  /** One answered request (the API's onResponse hook). */
  observeRequest(method: string, route: string, status: number, seconds: number) {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  /** One recorded webhook delivery attempt (the worker's delivery service). */
  webhookAttempt(outcome: string, result: string) {
    this.webhookAttempts.inc({ outcome, result });
  }

  /** The text exposition and its content type. */
  async render(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  /**
   * May this request read the metrics? With METRICS_TOKEN: `Authorization: Bearer <METRICS_TOKEN>`
   * (compared in constant time). Without: only a client on the loopback interface (the socket's own
   * address, never X-Forwarded-For).
   */
  allowed(raw: IncomingMessage): 'ok' | 'unauthorized' | 'forbidden' {
    const token = this.config.METRICS_TOKEN;
    if (token) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(raw.headers.authorization ?? '');
      return m && constantTimeEqual(sha256(m[1]), sha256(token)) ? 'ok' : 'unauthorized';
    }
    const addr = raw.socket.remoteAddress ?? '';
    return addr === '127.0.0.1' || addr === '::1' || addr === '::ffff:127.0.0.1' ? 'ok' : 'forbidden';
  }

  onModuleDestroy() {
    this.registry.clear();
  }

  private pool(): Pool | undefined {
    return driverPool(this.ds) as unknown as Pool | undefined;
  }

  private async collectQueues(gauge: Gauge<'queue' | 'state'>) {
    gauge.reset();
    await Promise.all(
      Object.values(QUEUES).map(async (name) => {
        try {
          const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
          const counts = await withTimeout(queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed', 'completed'), 1000);
          for (const [state, n] of Object.entries(counts)) gauge.set({ queue: name, state }, n);
        } catch {
          this.collectErrors.inc({ source: 'queues' });
        }
      }),
    );
  }

  private async collectOutbox(lag: Gauge, pending: Gauge) {
    try {
      // the pending partial index (outbox_events_pending_seq_idx) holds exactly these rows
      const [row] = await withTimeout(
        unscoped(this.ds, 'metrics: the operator-wide outbox backlog, a count and an age, no rows').query<{ n: number; lag: number }[]>(
          `SELECT count(*)::int AS n, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS lag FROM outbox_events WHERE relayed_at IS NULL`,
        ),
        2000,
      );
      pending.set(Number(row.n));
      lag.set(Math.max(0, Number(row.lag)));
    } catch {
      this.collectErrors.inc({ source: 'outbox' });
    }
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), ms)))]).finally(() => clearTimeout(timer));
}
