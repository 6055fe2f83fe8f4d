import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { scoped, Scoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import type { PageRequest } from '../../core/pagination/cursor-page';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import {
  ASSIGNMENT_COLUMNS,
  ASSIGNMENT_SELECT,
  AssignmentRow,
  BANK_COLUMNS,
  BANK_SELECT,
  ColumnSpec,
  insertColumns,
  QUESTION_COLUMNS,
  QUESTION_SELECT,
  QuestionBankRow,
  QuestionRow,
  QUIZ_COLUMNS,
  QUIZ_SELECT,
  QuizRow,
  setClause,
  sortedIds,
} from './quiz-model';

export type Changes = Record<string, unknown>;
export type Keyed<T> = T & { createdAt: Date };

const NOW = `date_trunc('milliseconds', now())`;
const keyed = <T extends { created_at: Date }>(rows: T[]): Keyed<T>[] => rows.map((r) => Object.assign(r, { createdAt: r.created_at }));

/** The filters of the /v2 quiz and question-bank lists. */
type NamedFilters = { name?: string; updatedSince?: Date };

/** A parent of questions (quizzes, question banks): its table, alias and columns, and what points at it. */
interface Parent {
  table: string;
  alias: string;
  select: string;
  idType: 'quiz' | 'questionBank';
  /** the 404 detail of an id that is not a live one of the organization */
  missing: string;
  /** the column of questions and question-bank assignments naming it */
  fk: 'quiz_id' | 'question_bank_id';
}
const QUIZZES: Parent = { table: 'quizzes', alias: 'q', select: QUIZ_SELECT, idType: 'quiz', missing: 'Quiz not found.', fk: 'quiz_id' };
const BANKS: Parent = { table: 'question_banks', alias: 'b', select: BANK_SELECT, idType: 'questionBank', missing: 'Question bank not found.', fk: 'question_bank_id' };

/** The keyset condition and limit of a /v2 page over alias `a` (params appended to `params`). */
function keyset(alias: string, page: PageRequest, params: unknown[]): { where: string; tail: string } {
  let where = '';
  if (page.after) {
    params.push(page.after.t, page.after.id);
    where = ` AND (${alias}.created_at, ${alias}.id) > ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
  }
  return { where, tail: ` ORDER BY ${alias}.created_at, ${alias}.id LIMIT ${page.size + 1}` };
}

/** The rows of a parent of questions (quizzes, question banks), alike but for their Parent. */
export class ParentRows<R extends { id: string; created_at: Date }> {
  constructor(
    private readonly db: (org: Principal | string) => Scoped,
    private readonly t: Parent,
  ) {}

  /** A /v2 page of live parents, filtered by name (case-insensitive, exact) and updated since. */
  async list(p: Principal, page: PageRequest, f: NamedFilters): Promise<Keyed<R>[]> {
    const t = this.t;
    const a = t.alias;
    const params: unknown[] = [f.name === undefined ? null : f.name.toLowerCase(), f.updatedSince ?? null];
    const k = keyset(a, page, params);
    return keyed(
      await this.db(p).query(
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
    const rows: R[] = await this.db(org).query(`SELECT ${t.select} FROM ${t.table} ${a} WHERE ${a}.organization_id = $org AND ${a}.id = ANY($1::uuid[]) AND ${a}.deleted_at IS NULL`, [[...new Set(ids)]]);
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

/**
 * Quizzes, question banks, questions and question-bank assignments (CONVENTIONS §12): the one
 * model the /v1 and /v2 controllers serve. Every statement names the caller's organization;
 * writes of many objects are one statement each (unnest of ids and jsonb changes).
 */
@Injectable()
export class QuizzesService {
  /** Live quizzes: the /v2 list, by id, by public id (404 'Quiz not found.'), soft delete. */
  readonly quizzes = new ParentRows<QuizRow>((org) => this.db(org), QUIZZES);
  /** Live question banks, likewise (404 'Question bank not found.'). */
  readonly banks = new ParentRows<QuestionBankRow>((org) => this.db(org), BANKS);

  constructor(@InjectDataSource() readonly ds: DataSource) {}

  db(p: Principal | string): Scoped {
    return scoped(this.ds, typeof p === 'string' ? p : p.organizationId);
  }

  /* ---------------------------------------------------------------- quizzes */

  async listQuizzesV1(p: Principal, name: string | undefined, page: V1PageRequest): Promise<{ rows: QuizRow[]; count: number }> {
    const params: unknown[] = [name ?? null];
    const from = `FROM quizzes q WHERE q.organization_id = $org AND q.deleted_at IS NULL AND ($1::text IS NULL OR q.name = $1)`;
    const [{ n }] = await this.db(p).query(`SELECT count(*)::int AS n ${from}`, params);
    const rows = await this.db(p).query(`SELECT ${QUIZ_SELECT} ${from} ORDER BY q.created_at, q.id LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
    return { rows, count: n };
  }

  /** The live quizzes of the organization among `ids` (uuids), by id (quizzes.byId). */
  quizzesById(org: string, ids: string[]): Promise<Map<string, QuizRow>> {
    return this.quizzes.byId(org, ids);
  }

  /** Create quizzes from their column changes (absent members take the defaults); rows in input order. */
  async insertQuizzes(org: string, changes: Changes[]): Promise<QuizRow[]> {
    if (!changes.length) return [];
    const ids = sortedIds(changes.length);
    const cols = insertColumns(QUIZ_COLUMNS);
    const rows: QuizRow[] = await this.db(org).query(
      `INSERT INTO quizzes AS q (id, organization_id, ${cols.names})
       SELECT v.id, $org, ${cols.values} FROM unnest($1::uuid[], $2::jsonb[]) WITH ORDINALITY AS v(id, d, n) ORDER BY v.n
       RETURNING ${QUIZ_SELECT}`,
      [ids, changes.map((c) => JSON.stringify(c))],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)!);
  }

  /**
   * Apply column changes to live quizzes (one statement); the updated rows by id (missing: not a
   * live quiz of the organization). A change that turns `show_question_feedback` off deletes the
   * correct/incorrect feedback of the quiz's own questions (the published rule), in the same statement.
   */
  async updateQuizzes(org: string, updates: { id: string; d: Changes }[]): Promise<Map<string, QuizRow>> {
    if (!updates.length) return new Map();
    const rows: QuizRow[] = await this.db(org).query(
      `WITH upd AS (
         UPDATE quizzes q SET ${setClause('q', QUIZ_COLUMNS)}, updated_at = ${NOW}
           FROM unnest($1::uuid[], $2::jsonb[]) AS v(id, d)
          WHERE q.id = v.id AND q.organization_id = $org AND q.deleted_at IS NULL
         RETURNING ${QUIZ_SELECT}, (v.d ? 'show_question_feedback' AND NOT q.show_question_feedback) AS feedback_off
       ), cleared AS (
         UPDATE questions x SET correct_answer_feedback_html = '', incorrect_answer_feedback_html = '', updated_at = ${NOW}
           FROM upd WHERE upd.feedback_off AND x.organization_id = $org AND x.quiz_id = upd.id AND x.deleted_at IS NULL
             AND (x.correct_answer_feedback_html <> '' OR x.incorrect_answer_feedback_html <> '')
         RETURNING x.id
       )
       SELECT * FROM upd`,
      [updates.map((u) => u.id), updates.map((u) => JSON.stringify(u.d))],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * Soft-delete quizzes: their own questions (soft), their bank assignments (hard), then the
   * quizzes; shared banks are left alone (the published /v2 delete). The ids deleted.
   */
  deleteQuizzes(org: string, ids: string[]): Promise<Set<string>> {
    return this.quizzes.softDelete(org, ids);
  }

  /* ---------------------------------------------------------- question banks */

  async listBanksV1(p: Principal, page: V1PageRequest): Promise<{ rows: QuestionBankRow[]; count: number }> {
    const [{ n }] = await this.db(p).query(`SELECT count(*)::int AS n FROM question_banks b WHERE b.organization_id = $org AND b.deleted_at IS NULL`);
    const rows = await this.db(p).query(
      `SELECT ${BANK_SELECT} FROM question_banks b WHERE b.organization_id = $org AND b.deleted_at IS NULL ORDER BY b.created_at, b.id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
    );
    return { rows, count: n };
  }

  async insertBanks(org: string, changes: Changes[]): Promise<QuestionBankRow[]> {
    if (!changes.length) return [];
    const ids = sortedIds(changes.length);
    const cols = insertColumns(BANK_COLUMNS);
    await this.db(org).query(
      `INSERT INTO question_banks (id, organization_id, ${cols.names})
       SELECT v.id, $org, ${cols.values} FROM unnest($1::uuid[], $2::jsonb[]) WITH ORDINALITY AS v(id, d, n) ORDER BY v.n`,
      [ids, changes.map((c) => JSON.stringify(c))],
    );
    const byId = await this.banks.byId(org, ids);
    return ids.map((id) => byId.get(id)!);
  }

  async updateBanks(org: string, updates: { id: string; d: Changes }[]): Promise<Map<string, QuestionBankRow>> {
    return this.banks.byId(org, await this.updateLive('question_banks', 'b', BANK_COLUMNS, org, updates));
  }

  /** Apply column changes to live rows of `table` (one statement); the ids updated. */
  private async updateLive(table: string, a: string, columns: Record<string, ColumnSpec>, org: string, updates: { id: string; d: Changes }[]): Promise<string[]> {
    if (!updates.length) return [];
    const rows: { id: string }[] = rowsOf(
      await this.db(org).query(
        `UPDATE ${table} ${a} SET ${setClause(a, columns)}, updated_at = ${NOW}
           FROM unnest($1::uuid[], $2::jsonb[]) AS v(id, d)
          WHERE ${a}.id = v.id AND ${a}.organization_id = $org AND ${a}.deleted_at IS NULL RETURNING ${a}.id`,
        [updates.map((u) => u.id), updates.map((u) => JSON.stringify(u.d))],
      ),
    );
    return rows.map((r) => r.id);
  }

  /** Soft-delete banks with their questions; every assignment of them is removed (the quizzes stay). */
  deleteBanks(org: string, ids: string[]): Promise<Set<string>> {
    return this.banks.softDelete(org, ids);
  }

  /* --------------------------------------------------------------- questions */

  /** A parent's live questions, in order (the /v1 sub-lists). */
  async listQuestionsOf(p: Principal, parent: { quizId: string } | { bankId: string }, page: V1PageRequest): Promise<{ rows: QuestionRow[]; count: number }> {
    const col = 'quizId' in parent ? 'quiz_id' : 'question_bank_id';
    const id = 'quizId' in parent ? parent.quizId : parent.bankId;
    const from = `FROM questions x WHERE x.organization_id = $org AND x.${col} = $1 AND x.deleted_at IS NULL`;
    const [{ n }] = await this.db(p).query(`SELECT count(*)::int AS n ${from}`, [id]);
    const rows = await this.db(p).query(`SELECT ${QUESTION_SELECT} ${from} ORDER BY x."order", x.id LIMIT ${page.pageSize} OFFSET ${page.offset}`, [id]);
    return { rows, count: n };
  }

  async listQuestionsV2(p: Principal, page: PageRequest, f: { quizId?: string | null; bankId?: string | null }): Promise<Keyed<QuestionRow>[]> {
    // an id filter that decodes to nothing matches nothing
    if (f.quizId === null || f.bankId === null) return [];
    const params: unknown[] = [f.quizId ?? null, f.bankId ?? null];
    const k = keyset('x', page, params);
    return keyed(
      await this.db(p).query(
        `SELECT ${QUESTION_SELECT} FROM questions x WHERE x.organization_id = $org AND x.deleted_at IS NULL
            AND ($1::uuid IS NULL OR x.quiz_id = $1) AND ($2::uuid IS NULL OR x.question_bank_id = $2)${k.where}${k.tail}`,
        params,
      ),
    );
  }

  async questionsById(org: string, ids: string[]): Promise<Map<string, QuestionRow>> {
    if (!ids.length) return new Map();
    const rows: QuestionRow[] = await this.db(org).query(
      `SELECT ${QUESTION_SELECT} FROM questions x WHERE x.organization_id = $org AND x.id = ANY($1::uuid[]) AND x.deleted_at IS NULL`,
      [[...new Set(ids)]],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** A live question, optionally required to belong to a parent (404 otherwise). */
  async getQuestion(p: Principal, publicId: string, parent?: { quizId: string } | { bankId: string }): Promise<QuestionRow> {
    const id = decodeId('question', publicId);
    const row = id ? (await this.questionsById(p.organizationId, [id])).get(id) : undefined;
    const inParent = !parent || ('quizId' in parent ? row?.quiz_id === parent.quizId : row?.question_bank_id === parent.bankId);
    if (!row || !inParent) throw notFound('Question not found.');
    return row;
  }

  /**
   * Insert questions under their parents (already checked to be live): each takes the next order
   * of its parent (max + 10, then + 10 per question of the same parent in this call). Rows in input order.
   */
  async insertQuestions(org: string, items: { quizId: string | null; bankId: string | null; d: Changes }[]): Promise<QuestionRow[]> {
    if (!items.length) return [];
    const ids = sortedIds(items.length);
    const rank = new Map<string, number>();
    const ranks = items.map((it) => {
      const key = `${it.quizId}:${it.bankId}`;
      const r = (rank.get(key) ?? 0) + 1;
      rank.set(key, r);
      return r;
    });
    const cols = insertColumns(QUESTION_COLUMNS);
    await this.db(org).query(
      `INSERT INTO questions (id, organization_id, quiz_id, question_bank_id, "order", ${cols.names})
       SELECT v.id, $org, v.quiz_id, v.bank_id,
              COALESCE((SELECT max(o."order") FROM questions o
                         WHERE o.organization_id = $org AND o.deleted_at IS NULL
                           AND (o.quiz_id = v.quiz_id OR o.question_bank_id = v.bank_id)), 0) + 10 * v.rank,
              ${cols.values}
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[], $5::jsonb[]) WITH ORDINALITY AS v(id, quiz_id, bank_id, rank, d, n) ORDER BY v.n`,
      [ids, items.map((i) => i.quizId), items.map((i) => i.bankId), ranks, items.map((i) => JSON.stringify(i.d))],
    );
    const byId = await this.questionsById(org, ids);
    return ids.map((id) => byId.get(id)!);
  }

  async updateQuestions(org: string, updates: { id: string; d: Changes }[]): Promise<Map<string, QuestionRow>> {
    return this.questionsById(org, await this.updateLive('questions', 'x', QUESTION_COLUMNS, org, updates));
  }

  async deleteQuestions(org: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows: { id: string }[] = rowsOf(
      await this.db(org).query(`UPDATE questions x SET deleted_at = ${NOW} WHERE x.organization_id = $org AND x.id = ANY($1::uuid[]) AND x.deleted_at IS NULL RETURNING x.id`, [ids]),
    );
    return new Set(rows.map((r) => r.id));
  }

  /* --------------------------------------------------- question-bank assignments */

  /** A quiz's assignments (live banks), ordered by order then creation; paged when `page` is given. */
  async listAssignments(org: string, quizId: string, page?: V1PageRequest): Promise<{ rows: AssignmentRow[]; count: number }> {
    const from = `FROM question_bank_assignments a JOIN question_banks b ON b.id = a.question_bank_id AND b.organization_id = $org AND b.deleted_at IS NULL
                  WHERE a.organization_id = $org AND a.quiz_id = $1`;
    const limit = page ? ` LIMIT ${page.pageSize} OFFSET ${page.offset}` : '';
    const rows: AssignmentRow[] = await this.db(org).query(`SELECT ${ASSIGNMENT_SELECT} ${from} ORDER BY a."order", a.created_at, a.id${limit}`, [quizId]);
    if (!page) return { rows, count: rows.length };
    const [{ n }] = await this.db(org).query(`SELECT count(*)::int AS n ${from}`, [quizId]);
    return { rows, count: n };
  }

  async assignmentsByBank(org: string, quizId: string, bankIds: string[]): Promise<Map<string, AssignmentRow>> {
    if (!bankIds.length) return new Map();
    const rows: AssignmentRow[] = await this.db(org).query(
      `SELECT ${ASSIGNMENT_SELECT} FROM question_bank_assignments a
         JOIN question_banks b ON b.id = a.question_bank_id AND b.organization_id = $org AND b.deleted_at IS NULL
        WHERE a.organization_id = $org AND a.quiz_id = $1 AND a.question_bank_id = ANY($2::uuid[])`,
      [quizId, bankIds],
    );
    return new Map(rows.map((r) => [r.question_bank_id, r]));
  }

  /**
   * Bind banks to a quiz (one statement): a new assignment takes the members sent, `order`
   * defaulting to the quiz's max order + 10 (+ 10 per new one in this call); re-binding a bound
   * bank changes only the members sent. Assignments by bank id.
   */
  async bindBanks(org: string, quizId: string, items: { bankId: string; d: Changes }[]): Promise<Map<string, AssignmentRow>> {
    if (!items.length) return new Map();
    // an explicit null order means "derive it", as an omitted one does
    const changes = items.map((i) => {
      const d = { ...i.d };
      if (d.order === null) delete d.order;
      return d;
    });
    const ids = sortedIds(items.length);
    const cols = insertColumns(ASSIGNMENT_COLUMNS);
    const values = cols.values.replace(`ELSE 0 END`, `ELSE base.m + 10 * v.rank END`);
    const inserted: { question_bank_id: string }[] = await this.db(org).query(
      `INSERT INTO question_bank_assignments (id, organization_id, quiz_id, question_bank_id, ${cols.names})
       SELECT v.id, $org, $1, v.bank_id, ${values}
         FROM unnest($2::uuid[], $3::uuid[], $4::jsonb[]) WITH ORDINALITY AS v(id, bank_id, d, rank)
        CROSS JOIN (SELECT COALESCE(max("order"), 0) AS m FROM question_bank_assignments WHERE organization_id = $org AND quiz_id = $1) base
        ORDER BY v.rank
       ON CONFLICT (organization_id, quiz_id, question_bank_id) DO NOTHING
       RETURNING question_bank_id`,
      [quizId, ids, items.map((i) => i.bankId), changes.map((c) => JSON.stringify(c))],
    );
    const fresh = new Set(inserted.map((r) => r.question_bank_id));
    const rebind = items.map((i, n) => ({ bankId: i.bankId, d: changes[n] })).filter((i) => !fresh.has(i.bankId));
    if (rebind.length) await this.updateAssignments(org, quizId, rebind, false);
    return this.assignmentsByBank(org, quizId, items.map((i) => i.bankId));
  }

  async updateAssignments(org: string, quizId: string, items: { bankId: string; d: Changes }[], read = true): Promise<Map<string, AssignmentRow>> {
    if (!items.length) return new Map();
    await this.db(org).query(
      `UPDATE question_bank_assignments a SET ${setClause('a', ASSIGNMENT_COLUMNS)}, updated_at = ${NOW}
         FROM unnest($2::uuid[], $3::jsonb[]) AS v(id, d)
        WHERE a.organization_id = $org AND a.quiz_id = $1 AND a.question_bank_id = v.id`,
      [quizId, items.map((i) => i.bankId), items.map((i) => JSON.stringify(i.d))],
    );
    return read ? this.assignmentsByBank(org, quizId, items.map((i) => i.bankId)) : new Map();
  }

  /** Remove assignments (hard); the bank ids unbound. */
  async unbindBanks(org: string, quizId: string, bankIds: string[]): Promise<Set<string>> {
    if (!bankIds.length) return new Set();
    const rows: { question_bank_id: string }[] = rowsOf(
      await this.db(org).query(
        `DELETE FROM question_bank_assignments a WHERE a.organization_id = $org AND a.quiz_id = $1 AND a.question_bank_id = ANY($2::uuid[])
           AND EXISTS (SELECT 1 FROM question_banks b WHERE b.id = a.question_bank_id AND b.organization_id = $org AND b.deleted_at IS NULL)
         RETURNING a.question_bank_id`,
        [quizId, bankIds],
      ),
    );
    return new Set(rows.map((r) => r.question_bank_id));
  }
}
