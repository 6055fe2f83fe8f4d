import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { scoped, Scoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import type { PageRequest } from '../../core/pagination/cursor-page';
import { v1SinceSql } from '../../core/pagination/updated-since';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { BankAssignments } from './bank-assignments';
import { BANK_COLUMNS, BANK_SELECT, insertColumns, QUESTION_COLUMNS, QUESTION_SELECT, QuestionBankRow, QuestionRow, QUIZ_COLUMNS, QUIZ_SELECT, QuizRow, setClause, sortedIds } from './quiz-model';
import { BANKS, Changes, keyed, Keyed, keyset, NOW, ParentRows, QUIZZES, updateLive } from './quiz-rows';

export type { Changes, Keyed } from './quiz-rows';

/**
 * Quizzes, question banks, questions and question-bank assignments (CONVENTIONS §12): the one
 * model the /v1 and /v2 controllers serve. Every statement names the caller's organization;
 * writes of many objects are one statement each (unnest of ids and jsonb changes). The parents
 * (quizzes, banks) and the assignments are their own row objects (quiz-rows.ts, bank-assignments.ts).
 */
@Injectable()
export class QuizzesService {
  /** Live quizzes: the /v2 list, by id, by public id (404 'Quiz not found.'), soft delete. */
  readonly quizzes = new ParentRows<QuizRow>((org) => this.db(org), QUIZZES);
  /** Live question banks, likewise (404 'Question bank not found.'). */
  readonly banks = new ParentRows<QuestionBankRow>((org) => this.db(org), BANKS);
  /** A quiz's question-bank assignments. */
  readonly assignments = new BankAssignments((org) => this.db(org));

  constructor(@InjectDataSource() readonly ds: DataSource) {}

  db(p: Principal | string): Scoped {
    return scoped(this.ds, typeof p === 'string' ? p : p.organizationId);
  }

  /* ---------------------------------------------------------------- quizzes */

  async listQuizzesV1(p: Principal, name: string | undefined, page: V1PageRequest): Promise<{ rows: QuizRow[]; count: number }> {
    const since = v1SinceSql(page, 'q.updated_at', 2, 'q.created_at, q.id');
    const params: unknown[] = [name ?? null, ...since.params];
    const from = `FROM quizzes q WHERE q.organization_id = $org AND q.deleted_at IS NULL AND ($1::text IS NULL OR q.name = $1)${since.and}`;
    const [{ n }] = await this.db(p).query<{ n: number }[]>(`SELECT count(*)::int AS n ${from}`, params);
    const rows = await this.db(p).query<QuizRow[]>(`SELECT ${QUIZ_SELECT} ${from} ORDER BY ${since.order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
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
    const since = v1SinceSql(page, 'b.updated_at', 1, 'b.created_at, b.id');
    const from = `FROM question_banks b WHERE b.organization_id = $org AND b.deleted_at IS NULL${since.and}`;
    const [{ n }] = await this.db(p).query<{ n: number }[]>(`SELECT count(*)::int AS n ${from}`, since.params);
    const rows = await this.db(p).query<QuestionBankRow[]>(`SELECT ${BANK_SELECT} ${from} ORDER BY ${since.order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, since.params);
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
    return this.banks.byId(org, await updateLive(this.db(org), 'question_banks', 'b', BANK_COLUMNS, updates));
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
    const since = v1SinceSql(page, 'x.updated_at', 2, 'x."order", x.id');
    const from = `FROM questions x WHERE x.organization_id = $org AND x.${col} = $1 AND x.deleted_at IS NULL${since.and}`;
    const [{ n }] = await this.db(p).query<{ n: number }[]>(`SELECT count(*)::int AS n ${from}`, [id, ...since.params]);
    const rows = await this.db(p).query<QuestionRow[]>(`SELECT ${QUESTION_SELECT} ${from} ORDER BY ${since.order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, [id, ...since.params]);
    return { rows, count: n };
  }

  /**
   * A /v2 page of live questions, of one quiz or bank when filtered; with `updatedSince` those changed
   * at or after it, by last change (updated_at, id) on questions_org_updated_idx or, for one quiz or
   * bank, questions_quiz_updated_idx / questions_bank_updated_idx (docs/decisions/data-out.md).
   */
  async listQuestionsV2(p: Principal, page: PageRequest, f: { quizId?: string | null; bankId?: string | null; updatedSince?: Date }): Promise<Keyed<QuestionRow>[]> {
    // an id filter that decodes to nothing matches nothing
    if (f.quizId === null || f.bankId === null) return [];
    const params: unknown[] = [];
    let where = '';
    if (f.quizId !== undefined) where += ` AND x.quiz_id = $${params.push(f.quizId)}`;
    if (f.bankId !== undefined) where += ` AND x.question_bank_id = $${params.push(f.bankId)}`;
    if (f.updatedSince !== undefined) where += ` AND x.updated_at >= $${params.push(f.updatedSince)}`;
    const k = keyset('x', page, params, f.updatedSince !== undefined);
    return keyed(await this.db(p).query<QuestionRow[]>(`SELECT ${QUESTION_SELECT} FROM questions x WHERE x.organization_id = $org AND x.deleted_at IS NULL${where}${k.where}${k.tail}`, params));
  }

  async questionsById(org: string, ids: string[]): Promise<Map<string, QuestionRow>> {
    if (!ids.length) return new Map();
    const rows: QuestionRow[] = await this.db(org).query(`SELECT ${QUESTION_SELECT} FROM questions x WHERE x.organization_id = $org AND x.id = ANY($1::uuid[]) AND x.deleted_at IS NULL`, [
      [...new Set(ids)],
    ]);
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
    return this.questionsById(org, await updateLive(this.db(org), 'questions', 'x', QUESTION_COLUMNS, updates));
  }

  async deleteQuestions(org: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows: { id: string }[] = rowsOf(
      await this.db(org).query<unknown>(`UPDATE questions x SET deleted_at = ${NOW} WHERE x.organization_id = $org AND x.id = ANY($1::uuid[]) AND x.deleted_at IS NULL RETURNING x.id`, [ids]),
    );
    return new Set(rows.map((r) => r.id));
  }
}
