import type { Principal } from '../../core/auth/principal';
import type { Scoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import type { PageRequest } from '../../core/pagination/cursor-page';
import { BANK_SELECT, ColumnSpec, QUIZ_SELECT, setClause } from './quiz-model';

/** The organization's scoped statements (QuizzesService.db). */
export type Db = (org: Principal | string) => Scoped;

export type Changes = Record<string, unknown>;
export type Keyed<T> = T & { createdAt: Date };

export const NOW = `date_trunc('milliseconds', now())`;
export const keyed = <T extends { created_at: Date }>(rows: T[]): Keyed<T>[] => rows.map((r) => Object.assign(r, { createdAt: r.created_at }));
/** The filters of the /v2 quiz and question-bank lists. */
export type NamedFilters = { name?: string; updatedSince?: Date };

/** A parent of questions (quizzes, question banks): its table, alias and columns, and what points at it. */
export interface Parent {
  table: string;
  alias: string;
  select: string;
  idType: 'quiz' | 'questionBank';
  /** the 404 detail of an id that is not a live one of the organization */
  missing: string;
  /** the column of questions and question-bank assignments naming it */
  fk: 'quiz_id' | 'question_bank_id';
}
export const QUIZZES: Parent = { table: 'quizzes', alias: 'q', select: QUIZ_SELECT, idType: 'quiz', missing: 'Quiz not found.', fk: 'quiz_id' };
export const BANKS: Parent = { table: 'question_banks', alias: 'b', select: BANK_SELECT, idType: 'questionBank', missing: 'Question bank not found.', fk: 'question_bank_id' };

/** The keyset condition and limit of a /v2 page over alias `a` (params appended to `params`). */
export function keyset(alias: string, page: PageRequest, params: unknown[], byLastChange = false): { where: string; tail: string } {
  // by last change (a filter[updated_since] list): (updated_at, id), else by creation
  const at = `${alias}.${byLastChange ? 'updated_at' : 'created_at'}`;
  let where = '';
  if (page.after) {
    params.push(page.after.t, page.after.id);
    where = ` AND (${at}, ${alias}.id) > ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
  }
  return { where, tail: ` ORDER BY ${at}, ${alias}.id LIMIT ${page.size + 1}` };
}

/** Apply column changes to live rows of `table` (one statement); the ids updated. */
export async function updateLive(db: Scoped, table: string, a: string, columns: Record<string, ColumnSpec>, updates: { id: string; d: Changes }[]): Promise<string[]> {
  if (!updates.length) return [];
  const rows: { id: string }[] = rowsOf(
    await db.query<unknown>(
      `UPDATE ${table} ${a} SET ${setClause(a, columns)}, updated_at = ${NOW}
         FROM unnest($1::uuid[], $2::jsonb[]) AS v(id, d)
        WHERE ${a}.id = v.id AND ${a}.organization_id = $org AND ${a}.deleted_at IS NULL RETURNING ${a}.id`,
      [updates.map((u) => u.id), updates.map((u) => JSON.stringify(u.d))],
    ),
  );
  return rows.map((r) => r.id);
}

/** The rows of a parent of questions (quizzes, question banks), alike but for their Parent. */
export class ParentRows<R extends { id: string; created_at: Date }> {
  constructor(
    private readonly db: Db,
    private readonly t: Parent,
  ) {}

  /** A /v2 page of live parents, filtered by name (case-insensitive, exact) and updated since. */
  async list(p: Principal, page: PageRequest, f: NamedFilters): Promise<Keyed<R>[]> {
    const t = this.t;
    const a = t.alias;
    const params: unknown[] = [f.name === undefined ? null : f.name.toLowerCase(), f.updatedSince ?? null];
    const k = keyset(a, page, params, f.updatedSince !== undefined);
    return keyed(
      await this.db(p).query<R[]>(
        `SELECT ${t.select} FROM ${t.table} ${a} WHERE ${a}.organization_id = $org AND ${a}.deleted_at IS NULL
            AND ($1::text IS NULL OR lower(${a}.name) = $1) AND ($2::timestamptz IS NULL OR ${a}.updated_at >= $2)${k.where}${k.tail}`,
        params,
      ),
    );
  }

  /** The live parents of the organization among `ids` (uuids), by id. */
  async byId(org: string, ids: string[]): Promise<Map<string, R>> {
    if (!ids.length) return new Map();
    const t = this.t;
    const a = t.alias;
    const rows: R[] = await this.db(org).query(`SELECT ${t.select} FROM ${t.table} ${a} WHERE ${a}.organization_id = $org AND ${a}.id = ANY($1::uuid[]) AND ${a}.deleted_at IS NULL`, [
      [...new Set(ids)],
    ]);
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** The live parent behind a public id (404 with its own message otherwise). */
  async get(p: Principal, publicId: string): Promise<R> {
    const id = decodeId(this.t.idType, publicId);
    const row = id ? (await this.byId(p.organizationId, [id])).get(id) : undefined;
    if (!row) throw notFound(this.t.missing);
    return row;
  }

  /**
   * Soft-delete parents with their own questions (soft) and their assignments (hard), in one
   * statement: a quiz leaves its shared banks alone, a bank leaves the quizzes. The ids deleted.
   */
  async softDelete(org: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const t = this.t;
    const a = t.alias;
    const rows: { id: string }[] = await this.db(org).query(
      `WITH del AS (
         UPDATE ${t.table} ${a} SET deleted_at = ${NOW}, updated_at = ${NOW}
          WHERE ${a}.organization_id = $org AND ${a}.id = ANY($1::uuid[]) AND ${a}.deleted_at IS NULL RETURNING ${a}.id
       ), qs AS (
         UPDATE questions x SET deleted_at = ${NOW} FROM del WHERE x.organization_id = $org AND x.${t.fk} = del.id AND x.deleted_at IS NULL RETURNING x.id
       ), asg AS (
         DELETE FROM question_bank_assignments a USING del WHERE a.organization_id = $org AND a.${t.fk} = del.id RETURNING a.id
       )
       SELECT id FROM del`,
      [ids],
    );
    return new Set(rows.map((r) => r.id));
  }
}
