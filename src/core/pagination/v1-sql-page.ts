import { scoped, SqlRunner } from '../database/scoped';
import { notFound } from '../http/api-error';
import { decodeId, IdType } from '../ids/ids';
import type { V1PageRequest } from './v1-page';

/**
 * The WHERE clause of an organization's rows with the optional filters of a list: the organization
 * predicate first (`<column> = $org`, bound by scoped() after every other parameter), then each
 * filter that was given, its value the next parameter.
 */
export class OrgWhere {
  private readonly conditions: string[];
  readonly params: unknown[] = [];

  constructor(
    readonly organizationId: string,
    column = 'organization_id',
  ) {
    this.conditions = [`${column} = $org`];
  }

  /** Add `condition($n)` with `value` as parameter $n, unless `value` is undefined (a filter not given). */
  and(value: unknown, condition: (param: string) => string): this {
    if (value === undefined) return this;
    this.params.push(value);
    this.conditions.push(condition(`$${this.params.length}`));
    return this;
  }

  /** `column = value`, unless `value` is undefined. */
  equals(column: string, value: unknown): this {
    return this.and(value, (param) => `${column} = ${param}`);
  }

  toString(): string {
    return this.conditions.join(' AND ');
  }
}

/**
 * One /v1 page of `SELECT <select> FROM <from> WHERE <where>`, oldest first (`order`), with the
 * count of every row the WHERE clause takes: two statements. With the page's `updated_since`
 * (@V1Resource), the rows changed at or after it, ordered by last change (`changed`: the order's
 * `created_at` read as `updated_at`).
 */
export async function v1SqlPage<R>(
  runner: SqlRunner,
  select: string,
  from: string,
  where: OrgWhere,
  page: V1PageRequest,
  order = 'created_at, id',
  changed = order.replace('created_at', 'updated_at'),
): Promise<{ rows: R[]; count: number }> {
  const since = page.updatedSince;
  if (since !== undefined) {
    where.and(since, (param) => `${changed.split(',')[0].trim()} >= ${param}`);
    order = changed;
  }
  const n = where.params.length;
  const db = scoped(runner, where.organizationId);
  const [{ n: count }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${from} WHERE ${where}`, where.params);
  const rows = await db.query<R[]>(`SELECT ${select} FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`, [...where.params, page.pageSize, page.offset]);
  return { rows, count };
}

/**
 * The organization's row of `table` behind a public id of `type` (locked FOR UPDATE when `lock`):
 * a malformed, unknown or foreign id is the same 404.
 */
export async function sqlRowOr404<R>(runner: SqlRunner, select: string, table: string, type: IdType, organizationId: string, publicId: string, lock = false): Promise<R> {
  const id = decodeId(type, publicId);
  const rows = id ? await scoped(runner, organizationId).query<R[]>(`SELECT ${select} FROM ${table} WHERE organization_id = $org AND id = $1${lock ? ' FOR UPDATE' : ''}`, [id]) : [];
  if (!rows.length) throw notFound();
  return rows[0];
}
