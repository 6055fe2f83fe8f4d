import type { DataSource, EntityManager } from 'typeorm';

/**
 * Organization scoping by construction (docs/architecture.md, "Organization scoping").
 *
 * `scoped(ds, organizationId)` is the one way a service runs SQL on organization data: the
 * statement names the caller's organization as `$org` (e.g. `WHERE organization_id = $org`), the
 * helper binds it as the next positional parameter, and a statement without `$org` is refused
 * (throws) before it reaches the database. There is no way to pass the organization as an
 * ordinary parameter by mistake and forget it: the value always comes from the handle.
 *
 * `unscoped(ds, 'reason')` is the explicit door for the few statements that are global by nature
 * (a token looked up by its hash, the outbox relay, the clean-up, signing keys): the SQL is sent
 * with a leading `/* unscoped: reason *\/` comment, which the test-time audit
 * (test/support/org-audit.ts) accepts in place of the organization predicate.
 *
 * Cost: the `$org` rewrite is computed once per distinct SQL text and parameter count and then
 * read from a map; no extra statement, no extra round trip (docs/performance.md).
 */

/** Anything that runs raw SQL: a DataSource, an EntityManager (a transaction), a repository. */
export interface SqlRunner {
  query(sql: string, params?: unknown[]): Promise<any>;
}

const ORG_TOKEN = /\$org\b/g;

/** sql text -> (number of caller parameters -> rewritten sql). Bounded by the code's SQL texts. */
const rewritten = new Map<string, string[]>();
const MEMO_LIMIT = 10_000;

/** The statement with every `$org` replaced by `$<n>` where n = callerParams + 1 (exported for tests). */
export function bindOrg(sql: string, callerParams: number): string {
  let forSql = rewritten.get(sql);
  if (forSql === undefined) {
    if (!ORG_TOKEN.test(sql)) {
      ORG_TOKEN.lastIndex = 0;
      throw new UnscopedStatementError(sql);
    }
    ORG_TOKEN.lastIndex = 0;
    forSql = [];
    // texts are the code's own (placeholders, never values), so this stays small; a cap all the same
    if (rewritten.size >= MEMO_LIMIT) rewritten.clear();
    rewritten.set(sql, forSql);
  }
  let out = forSql[callerParams];
  if (out === undefined) {
    out = sql.replace(ORG_TOKEN, `$${callerParams + 1}`);
    forSql[callerParams] = out;
  }
  return out;
}

/** A scoped statement that does not name `$org`: a programming error, never a request error. */
export class UnscopedStatementError extends Error {
  constructor(sql: string) {
    super(`A scoped statement must name the organization as $org (or go through unscoped('reason')): ${sql.replace(/\s+/g, ' ').slice(0, 200)}`);
    this.name = 'UnscopedStatementError';
  }
}

/** A handle bound to one organization; every statement run through it carries that organization. */
export class Scoped {
  constructor(
    private readonly runner: SqlRunner,
    readonly organizationId: string,
  ) {}

  /** Run `sql`, which must reference `$org`; `params` are `$1..$n` as usual, the organization is appended. */
  query<T = any>(sql: string, params: unknown[] = []): Promise<T> {
    const text = bindOrg(sql, params.length);
    return this.runner.query(text, [...params, this.organizationId]);
  }

  /** The same organization over another runner (the EntityManager of a transaction). */
  with(runner: SqlRunner): Scoped {
    return new Scoped(runner, this.organizationId);
  }

  /** Run `fn` in a transaction; the handle it gets is scoped to the same organization. */
  transaction<T>(fn: (tx: Scoped, manager: EntityManager) => Promise<T>): Promise<T> {
    const r = this.runner as DataSource | EntityManager;
    if (typeof (r as any).transaction !== 'function') throw new Error('scoped(...).transaction needs a DataSource or an EntityManager');
    return (r as DataSource).transaction((m) => fn(new Scoped(m, this.organizationId), m));
  }
}

/** A handle scoped to `organizationId` over a DataSource, an EntityManager or a repository. */
export function scoped(runner: SqlRunner, organizationId: string): Scoped {
  if (!organizationId) throw new Error('scoped(...) needs an organization id');
  return new Scoped(runner, organizationId);
}

/** Marker comment the audit recognises; `reason` says why the statement is global. */
export const unscopedMarker = (reason: string) => `/* unscoped: ${reason} */ `;

/** A statement that is global by nature, and says why. */
export class Unscoped {
  private readonly prefix: string;
  constructor(
    private readonly runner: SqlRunner,
    readonly reason: string,
  ) {
    if (!reason.trim() || reason.includes('*/')) throw new Error('unscoped(...) needs a reason (without "*/")');
    this.prefix = unscopedMarker(reason);
  }

  query<T = any>(sql: string, params?: unknown[]): Promise<T> {
    return this.runner.query(this.prefix + sql, params);
  }
}

export function unscoped(runner: SqlRunner, reason: string): Unscoped {
  return new Unscoped(runner, reason);
}

/**
 * The organization-owned tables: every table of the current schema with an organization_id
 * column. Read from the schema (never listed by hand), by the test-time audit once per run.
 */
export async function organizationOwnedTables(runner: SqlRunner): Promise<string[]> {
  const rows: { table_name: string }[] = await unscoped(runner, 'schema introspection').query(
    `SELECT c.table_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = current_schema() AND c.column_name = 'organization_id'
      ORDER BY 1`,
  );
  const list = (rows as any).rows ?? rows;
  return list.map((r: { table_name: string }) => r.table_name);
}
