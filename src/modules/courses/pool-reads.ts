import type { DataSource } from 'typeorm';
import { bindOrg } from '../../core/database/scoped';

/** A fixed read text (naming the organization as `$org`) and, for the hot unfiltered ones, its pg statement name. */
export interface PoolRead {
  sql: string;
  /** set: run as a pg named (prepared) statement, parsed and planned once per pooled connection */
  name?: string;
}

type Pool = { query(q: { name?: string; text: string; values: unknown[] }): Promise<{ rows: any[] }> };

/**
 * The /v2 course and lesson reads, sent straight to TypeORM's pg pool (no query builder, no
 * QueryRunner, no entity hydration): the rows as pg parses them, for the caller to map by hand.
 * `$org` is bound last, as scoped() binds it (the same rewrite, so a text without `$org` throws);
 * DATABASE_LOG_QUERIES still logs the statement through TypeORM's logger. Only fixed texts get a
 * `name` (one per text), so the server keeps a handful of statements per connection; the filtered
 * variants go unnamed (planned for their values, on their index).
 */
export async function poolRead(ds: DataSource, organizationId: string, read: PoolRead, params: unknown[]): Promise<any[]> {
  const text = bindOrg(read.sql, params.length);
  const values = [...params, organizationId];
  if (ds.logger && (ds.options as { logging?: unknown }).logging) ds.logger.logQuery(text, values);
  const pool = (ds.driver as unknown as { master: Pool }).master;
  return (await pool.query(read.name ? { name: read.name, text, values } : { text, values })).rows;
}
