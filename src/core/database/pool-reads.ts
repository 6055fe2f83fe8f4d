import { types as pgTypes } from 'pg';
import { DataSource, QueryFailedError } from 'typeorm';
import type { IdType } from '../ids/ids';
import { publicRowOr404 } from './public-rows';
import { bindOrg } from './scoped';

/** A fixed read text (naming the organization as `$org`) and, for the hot unfiltered ones, its pg statement name. */
export interface PoolRead {
  sql: string;
  /** set: run as a pg named (prepared) statement, parsed and planned once per pooled connection */
  name?: string;
  /** the result's type parsers, when not pg's defaults (TEXT_TIMESTAMPS) */
  types?: RowTypes;
}

type RowTypes = { getTypeParser(oid: number, format?: any): (value: any) => any };

/** One statement for the pool: `name` makes it a pg named (prepared) statement; `types` overrides pg's parsers. */
export interface PoolStatement {
  name?: string;
  text: string;
  values: unknown[];
  types?: RowTypes;
}
type Pool = { query(q: PoolStatement): Promise<{ rows: unknown[] }> };

/**
 * The one path past TypeORM's query runner to its pg pool (docs/decisions/data-access.md "One pool
 * path"), for the few hot statements where the runner costs more than the statement: the /v2
 * reads (poolRead), the students batch, the idempotency statements, the webhook delivery loads.
 * It behaves as `ds.query` does: the statement goes to TypeORM's logger (which decides, by
 * DATABASE_LOG_QUERIES, and which tests may wrap to count statements), a failure is logged as a
 * query error and thrown as TypeORM's QueryFailedError (the driver's error kept as driverError and
 * its fields copied: isDatabaseUnavailable, isUniqueViolation and the 22xxx safety net (isBadInputDbError) see it as they see
 * any other statement's). Nothing else reaches into the driver.
 */
/**
 * TypeORM's pg pool of a data source: the one place that reaches into the driver. poolQuery sends
 * statements through it; the dry run (core/dry-run) routes its statements to the dry run's connection.
 */
export function driverPool(ds: DataSource): Pool | undefined {
  return (ds.driver as unknown as { master?: Pool }).master;
}

export async function poolQuery<T>(ds: DataSource, q: PoolStatement): Promise<T[]> {
  const logger = ds.logger;
  logger.logQuery(q.text, q.values);
  try {
    return (await driverPool(ds)!.query(q)).rows as T[];
  } catch (err) {
    logger.logQueryError(err as Error, q.text, q.values);
    throw new QueryFailedError(q.text, q.values, err as Error);
  }
}

const TIMESTAMPTZ = 1184;
/** pg's own parser of a timestamptz text (postgres-date: what a row's Date is by default). */
export const parseTimestamptz = pgTypes.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date;

/** Result types: timestamptz columns stay pg's text (isoOfTimestamptz), every other type as pg parses it. */
export const TEXT_TIMESTAMPS: RowTypes = {
  getTypeParser: (oid, format) => (oid === TIMESTAMPTZ ? (text: string) => text : (pgTypes.getTypeParser as (o: number, f?: any) => (v: any) => any)(oid, format)),
};

const UTC_TEXT = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;
/**
 * A timestamptz text as `parseTimestamptz(text).toISOString()` gives it, without the Date: sliced
 * when the session writes UTC ('2025-03-04 05:06:07.123456+00': the fraction truncated to
 * milliseconds, as the Date truncates it), else through the Date.
 */
export function isoOfTimestamptz(text: string): string {
  const m = UTC_TEXT.exec(text);
  if (m === null) return parseTimestamptz(text).toISOString();
  return `${m[1]}T${m[2]}.${m[3] === undefined ? '000' : m[3].length >= 3 ? m[3].slice(0, 3) : m[3].padEnd(3, '0')}Z`;
}

/** A timestamp as pg's Date parser or, under TEXT_TIMESTAMPS, as its text. */
export type Timestamp = Date | string;

/** toISOString() of the instant (isoOfTimestamptz for pg's text: the same string without the Date). */
export function isoOf(t: Timestamp): string {
  return typeof t === 'string' ? isoOfTimestamptz(t) : t.toISOString();
}

/** A timestamp as its JSON value in a document written as text: isoOf's string, quoted, or null. */
export function isoJson(t: Timestamp | null): string {
  return t ? '"' + isoOf(t) + '"' : 'null';
}

/** The instant as a Date (pg's own parser for its text). */
export function dateOf(t: Timestamp): Date {
  return typeof t === 'string' ? parseTimestamptz(t) : t;
}

/**
 * The hot /v2 reads (students, courses, lessons), sent straight to TypeORM's pg pool (no query builder, no
 * QueryRunner, no entity hydration): the rows as pg parses them, for the caller to map by hand.
 * `$org` is bound last, as scoped() binds it (the same rewrite, so a text without `$org` throws);
 * DATABASE_LOG_QUERIES still logs the statement through TypeORM's logger. Only fixed texts get a
 * `name` (one per text), so the server keeps a handful of statements per connection; the filtered
 * variants go unnamed (planned for their values, on their index).
 */
export async function poolRead<T = any>(ds: DataSource, organizationId: string, read: PoolRead, params: unknown[]): Promise<T[]> {
  const text = bindOrg(read.sql, params.length);
  const values = [...params, organizationId];
  return poolQuery<T>(ds, read.name ? { name: read.name, text, values, types: read.types } : { text, values, types: read.types });
}

/** publicRowOr404 (org-rows.ts) of a pool read, the uuid behind the public id its `$1`. */
export function poolRowOr404<T = any>(ds: DataSource, organizationId: string, type: IdType, publicId: string, read: PoolRead, message: string): Promise<T> {
  return publicRowOr404(type, publicId, (id) => poolRead<T>(ds, organizationId, read, [id]), message);
}
