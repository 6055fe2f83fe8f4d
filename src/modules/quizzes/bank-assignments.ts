import { rowsOf } from '../../core/database/sql';
import { v1SinceSql } from '../../core/pagination/updated-since';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { ASSIGNMENT_COLUMNS, ASSIGNMENT_SELECT, AssignmentRow, insertColumns, setClause, sortedIds } from './quiz-model';
import { Changes, Db, NOW } from './quiz-rows';

/** A quiz's question-bank assignments (question_bank_assignments whose bank is live), by bank id. */
export class BankAssignments {
  constructor(private readonly db: Db) {}

  /**
   * A quiz's assignments (live banks), ordered by order then creation; paged when `page` is given. With
   * an updated-since time (the /v1 page's, or `updatedSince` of the unpaged /v2 list) those changed at
   * or after it, by last change (updated_at, id) on question_bank_assignments_quiz_updated_idx.
   */
  async list(org: string, quizId: string, page?: V1PageRequest, updatedSince?: Date): Promise<{ rows: AssignmentRow[]; count: number }> {
    const order = 'a."order", a.created_at, a.id';
    const since = page
      ? v1SinceSql(page, 'a.updated_at', 2, order)
      : updatedSince
        ? { and: ' AND a.updated_at >= $2', params: [updatedSince], order: 'a.updated_at, a.id' }
        : { and: '', params: [], order };
    const from = `FROM question_bank_assignments a JOIN question_banks b ON b.id = a.question_bank_id AND b.organization_id = $org AND b.deleted_at IS NULL
                  WHERE a.organization_id = $org AND a.quiz_id = $1${since.and}`;
    const limit = page ? ` LIMIT ${page.pageSize} OFFSET ${page.offset}` : '';
    const rows = await this.db(org).query<AssignmentRow[]>(`SELECT ${ASSIGNMENT_SELECT} ${from} ORDER BY ${since.order}${limit}`, [quizId, ...since.params]);
    if (!page) return { rows, count: rows.length };
    const [{ n }] = await this.db(org).query<{ n: number }[]>(`SELECT count(*)::int AS n ${from}`, [quizId, ...since.params]);
    return { rows, count: n };
  }

  async byBank(org: string, quizId: string, bankIds: string[]): Promise<Map<string, AssignmentRow>> {
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
  async bind(org: string, quizId: string, items: { bankId: string; d: Changes }[]): Promise<Map<string, AssignmentRow>> {
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
    if (rebind.length) await this.update(org, quizId, rebind, false);
    return this.byBank(
      org,
      quizId,
      items.map((i) => i.bankId),
    );
  }

  async update(org: string, quizId: string, items: { bankId: string; d: Changes }[], read = true): Promise<Map<string, AssignmentRow>> {
    if (!items.length) return new Map();
    await this.db(org).query(
      `UPDATE question_bank_assignments a SET ${setClause('a', ASSIGNMENT_COLUMNS)}, updated_at = ${NOW}
         FROM unnest($2::uuid[], $3::jsonb[]) AS v(id, d)
        WHERE a.organization_id = $org AND a.quiz_id = $1 AND a.question_bank_id = v.id`,
      [quizId, items.map((i) => i.bankId), items.map((i) => JSON.stringify(i.d))],
    );
    return read
      ? this.byBank(
          org,
          quizId,
          items.map((i) => i.bankId),
        )
      : new Map();
  }

  /** Remove assignments (hard); the bank ids unbound. */
  async unbind(org: string, quizId: string, bankIds: string[]): Promise<Set<string>> {
    if (!bankIds.length) return new Set();
    const rows: { question_bank_id: string }[] = rowsOf(
      await this.db(org).query<unknown>(
        `DELETE FROM question_bank_assignments a WHERE a.organization_id = $org AND a.quiz_id = $1 AND a.question_bank_id = ANY($2::uuid[])
           AND EXISTS (SELECT 1 FROM question_banks b WHERE b.id = a.question_bank_id AND b.organization_id = $org AND b.deleted_at IS NULL)
         RETURNING a.question_bank_id`,
        [quizId, bankIds],
      ),
    );
    return new Set(rows.map((r) => r.question_bank_id));
  }
}
