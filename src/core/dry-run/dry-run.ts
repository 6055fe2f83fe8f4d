import { AsyncLocalStorage } from 'node:async_hooks';
import { driverPool } from '../database/pool-reads';
import { CallHandler, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DataSource, QueryRunner } from 'typeorm';
import type { Principal } from '../auth/principal';
import { ApiError } from '../http/api-error';
import { apiOf } from '../http/interfaces';

/**
 * Dry runs (CONVENTIONS §21, issue 33 item 4; docs/decisions/mcp.md "Dry runs"): a write of /v1 or
 * /v2 with `?dry_run=true` runs exactly as it would (guard, validation, every conflict check the
 * services make, the same answer) inside ONE database transaction that is rolled back at the end,
 * so nothing is written, and nothing is emitted: domain events go to the transactional outbox
 * (core/events/outbox.ts) in the same transaction, and jobs are not queued (core/queue/enqueue.ts
 * and the other producers ask isDryRun()).
 *
 * How every statement of the request lands in that transaction without a change to the services:
 * while the request's async context carries a dry run,
 * - `DataSource.createQueryRunner()` answers the dry run's own query runner (its `release` a no-op
 *   until the end), so `ds.transaction(...)` becomes a SAVEPOINT inside it (TypeORM nests by
 *   depth) and `ds.query`, repositories and query builders run on it;
 * - the pg pool's `query` (the hot paths that skip TypeORM: poolRead, the /v2 student batches)
 *   runs on the same connection;
 * - a statement outside a nested transaction is wrapped in a savepoint of its own, so that a
 *   statement that fails (a unique violation a service expects and answers as a 409 or a batch
 *   item's error) leaves the transaction usable, as an autocommitted statement would.
 * Idempotency keys are not claimed by a dry run (it repeats freely and stores no answer).
 */
export const DRY_RUN_PARAM = 'dry_run';

interface DryRun {
  runner: QueryRunner;
  /** statements wrapped in their own savepoint run one at a time (savepoints are a stack) */
  chain: Promise<unknown>;
}

const dryRuns = new AsyncLocalStorage<DryRun>();

/** Whether the current request is a dry run: producers of side effects outside the database skip them. */
export function isDryRun(): boolean {
  return dryRuns.getStore() !== undefined;
}

const PATCHED = Symbol('dryRunRouting');
const CONTROL = /^\s*(SAVEPOINT|RELEASE|ROLLBACK|START|BEGIN|COMMIT|SET\s+TRANSACTION)\b/i;

type PgPool = { query: (...args: any[]) => any; [PATCHED]?: true };

/** Route the data source's query runners and its pg pool's statements to the current dry run's connection (once per data source). */
export function routeDryRuns(ds: DataSource): void {
  const marked = ds as DataSource & { [PATCHED]?: true };
  if (marked[PATCHED]) return;
  marked[PATCHED] = true;
  const createQueryRunner = ds.createQueryRunner.bind(ds);
  ds.createQueryRunner = ((mode?: 'master' | 'slave') => dryRuns.getStore()?.runner ?? createQueryRunner(mode)) as DataSource['createQueryRunner'];
  const pool = driverPool(ds) as unknown as PgPool | undefined;
  if (pool && !pool[PATCHED]) {
    pool[PATCHED] = true;
    const query = pool.query.bind(pool);
    pool.query = (...args: any[]) => {
      const d = dryRuns.getStore();
      if (!d || typeof args[args.length - 1] === 'function') return query(...args);
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text;
      // the driver's answer is handed back as it is, never read here
      const client = (d.runner as unknown as { databaseConnection: { query: (...a: unknown[]) => Promise<unknown> } }).databaseConnection;
      // a named statement would be prepared on this connection for good: run it unnamed
      const q = typeof args[0] === 'object' && args[0] !== null ? { ...(args[0] as object), name: undefined } : args[0];
      return inSavepoint(
        d,
        text ?? '',
        () => client.query(q, ...args.slice(1)),
        (sql) => client.query(sql),
      );
    };
  }
}

/** One statement at the dry run's outer level, in a savepoint of its own (a failure rolls back only it). */
function inSavepoint<T>(d: DryRun, text: string, run: () => Promise<T>, control: (sql: string) => Promise<unknown>): Promise<T> {
  if (CONTROL.test(text) || ((d.runner as unknown as { transactionDepth: number }).transactionDepth ?? 1) > 1) return run();
  const next = d.chain.then(async () => {
    await control('SAVEPOINT dry_run_statement');
    try {
      const result = await run();
      await control('RELEASE SAVEPOINT dry_run_statement');
      return result;
    } catch (err) {
      await control('ROLLBACK TO SAVEPOINT dry_run_statement').catch(() => undefined);
      throw err;
    }
  });
  d.chain = next.catch(() => undefined);
  return next;
}

/** `?dry_run=`: true or false (as /v1 reads booleans); anything else is a bad parameter. */
export function dryRunRequested(query: unknown): boolean {
  if (!query || typeof query !== 'object') return false;
  const raw = (query as Record<string, unknown>)[DRY_RUN_PARAM];
  if (raw === undefined) return false;
  const v = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (v === 'true' || v === 'True' || v === '1' || v === true) return true;
  if (v === 'false' || v === 'False' || v === '0' || v === false || v === '') return false;
  throw new ApiError(422, 'dry_run must be true or false.', { code: 'validation_error', source: { parameter: DRY_RUN_PARAM } });
}

type Req = FastifyRequest & { principal?: Principal };

/**
 * The dry runs of the authenticated writes of /v1 and /v2. Asked by the IdempotencyInterceptor (put
 * on every write by applyIdempotencyToWrites) before anything else, so that writes pay no second
 * interceptor (Nest's machinery per interceptor: an rxjs pipeline and async resources): without
 * the parameter it costs one property read.
 */
@Injectable()
export class DryRuns {
  constructor(private readonly ds: DataSource) {
    routeDryRuns(ds);
  }

  /** The handler's answer as a dry run when the request asks for one (`?dry_run=true`), else undefined. */
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> | undefined {
    const req = ctx.switchToHttp().getRequest<Req>();
    const query = req.query as Record<string, unknown> | undefined;
    if (query?.[DRY_RUN_PARAM] === undefined || !req.principal) return undefined;
    const api = apiOf(req);
    if (api !== 'v1' && api !== 'v2') return undefined;
    const dry = dryRunRequested(query);
    // the parameter is the dry run's, not the operation's (a query DTO that forbids unknown members never sees it)
    delete query[DRY_RUN_PARAM];
    if (!dry) return undefined;
    ctx.switchToHttp().getResponse<FastifyReply>().header('Dry-Run', 'true');
    return from(this.run(next));
  }

  private async run(next: CallHandler): Promise<unknown> {
    const runner = this.ds.createQueryRunner();
    const release = runner.release.bind(runner);
    runner.release = async () => undefined;
    const query = runner.query.bind(runner);
    const d: DryRun = { runner, chain: Promise.resolve() };
    runner.query = ((sql: string, params?: unknown[], structured?: boolean) =>
      inSavepoint(
        d,
        sql,
        () => query(sql, params, structured as true),
        (s) => query(s),
      )) as QueryRunner['query'];
    try {
      await runner.connect();
      await runner.startTransaction();
      return await dryRuns.run(d, () => lastValueFrom(next.handle(), { defaultValue: undefined }));
    } finally {
      await d.chain;
      if (runner.isTransactionActive) {
        // whatever the handler left open (a savepoint it did not release) goes with the outer transaction
        (runner as unknown as { transactionDepth: number }).transactionDepth = 1;
        await runner.rollbackTransaction().catch(() => undefined);
      }
      await release().catch(() => undefined);
    }
  }
}
