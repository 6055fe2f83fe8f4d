import { Injectable } from '@nestjs/common';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { notFound } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import {
  ASSIGNMENT_MEMBERS,
  AssignmentBindItem,
  AssignmentUnbindItem,
  AssignmentUpdateItem,
  IdItem,
  QUESTION_CREATE_MEMBERS,
  QUESTION_UPDATE_MEMBERS,
  QuestionCreateItem,
  QuestionUpdateItem,
  QUIZ_V2_MEMBERS,
} from './dto/quiz.v2.dto';
import { type AssignmentRow, questionProblems, QuestionBankRow, QuestionRow, QuizRow, storedAnswers } from './quiz-model';
import { Changes, QuizzesService } from './quizzes.service';
import { updateLastWins } from '../../core/routes/v2-batch';

type Outcomes<R = unknown> = Map<number, ItemOutcome<R>>;
const failed = (code: 'not_found' | 'validation_error', detail: string, pointer: string): ItemOutcome<never> => ({ ok: false, code, detail, pointer });

/** The first attribute of the item that the published request schema does not have (extra="forbid"), or undefined. */
function unknownMember(raw: Record<string, any>, allowed: string[]): string | undefined {
  const attrs = raw.attributes && typeof raw.attributes === 'object' ? Object.keys(raw.attributes) : [];
  return attrs.find((k) => !allowed.includes(k));
}

/** The members of the item's attributes as sent (present keys of the raw body), renamed to columns. */
function sentChanges(raw: Record<string, any>, members: string[], rename: Record<string, string> = {}): Changes {
  const out: Changes = {};
  const attrs = (raw.attributes ?? {}) as Record<string, unknown>;
  for (const k of members) if (Object.prototype.hasOwnProperty.call(attrs, k) && attrs[k] !== undefined) out[rename[k] ?? k] = attrs[k];
  return out;
}

const QUIZ_RENAME = { description_html: 'html' };
const QUESTION_RENAME = { question_html: 'html', question_type: 'type' };

/** One kind of object the create and update batches write (quizzes, question banks). */
interface BatchKind<R extends { id: string }> {
  idType: 'quiz' | 'questionBank';
  /** its name in a not_found detail */
  what: string;
  /** the writable attributes (the only ones read from the item; any other was refused by validation, @Closed) */
  members: string[];
  /** attributes stored under another column name */
  rename?: Record<string, string>;
  insert(org: string, changes: Changes[]): Promise<R[]>;
  update(org: string, updates: { id: string; d: Changes }[]): Promise<Map<string, R>>;
  remove(org: string, ids: string[]): Promise<Set<string>>;
}

/**
 * Forbidden members first (validation_error at the member); the others go on. The unbind item's
 * attributes (open in the published document) only: the closed request objects (quiz, bank,
 * question, answer, assignment) refuse unknown members in validation (@Closed, core/http/closed.ts).
 */
export function screen<T>(items: ValidItem<T>[], allowed: string[], out: Outcomes): ValidItem<T>[] {
  return items.filter((v) => {
    const extra = unknownMember(v.raw, allowed);
    if (extra !== undefined) out.set(v.index, failed('validation_error', `${extra}: is not a writable member of this object.`, `/attributes/${extra}`));
    return extra === undefined;
  });
}

/** Deletes by id, one statement: each item deleted, or not_found. */
export async function removeAll(items: ValidItem<IdItem>[], type: 'quiz' | 'questionBank' | 'question', what: string, del: (ids: string[]) => Promise<Set<string>>): Promise<Outcomes> {
  const ids = new Map(items.map((v) => [v.index, decodeId(type, v.item.id)]));
  const deleted = await del([...ids.values()].filter((x): x is string => !!x));
  const out: Outcomes = new Map();
  for (const v of items) {
    const id = ids.get(v.index);
    out.set(v.index, id && deleted.has(id) ? { ok: true, id: v.item.id, deleted: true } : failed('not_found', `${what} not found.`, '/id'));
  }
  return out;
}

/** The create, update and delete batches of one kind of object (quizzes, question banks), alike but for its BatchKind. */
export class KindBatches<R extends { id: string }> {
  constructor(private readonly k: BatchKind<R>) {}

  /** Creates, first-wins (repeats were marked by the batch engine): forbidden members refused, the others inserted in one statement. */
  async create(p: Principal, items: ValidItem<unknown>[]): Promise<Outcomes<R>> {
    const out: Outcomes<R> = new Map();
    const ok = items; // unknown members were refused by validation (@Closed, core/http/closed.ts)
    const rows = await this.k.insert(
      p.organizationId,
      ok.map((v) => sentChanges(v.raw, this.k.members, this.k.rename)),
    );
    ok.forEach((v, i) => out.set(v.index, { ok: true, id: encodeId(this.k.idType, rows[i].id), result: rows[i] }));
    return out;
  }

  /** Updates, last-write-wins per id, in one statement; every item of an id answers the final object, an unknown id not_found. */
  async update(p: Principal, items: ValidItem<{ id: string }>[]): Promise<Outcomes<R>> {
    const out: Outcomes<R> = new Map();
    const ok = items;
    const updated = await updateLastWins(
      ok,
      this.k.idType,
      `${this.k.what} not found.`,
      (v) => sentChanges(v.raw, this.k.members, this.k.rename),
      async (merged) => {
        const rows = await this.k.update(
          p.organizationId,
          [...merged].map(([id, d]) => ({ id, d })),
        );
        return rows;
      },
      (row) => encodeId(this.k.idType, row.id),
    );
    return new Map([...out, ...updated]);
  }

  remove(p: Principal, items: ValidItem<IdItem>[]): Promise<Outcomes> {
    return removeAll(items, this.k.idType, this.k.what, (ids) => this.k.remove(p.organizationId, ids));
  }
}

/**
 * The /v2 batch operations of quizzes, question banks, questions and a quiz's question-bank
 * assignments (the published document's rules): each a fixed number of statements for any batch;
 * creates first-wins (duplicates are marked by the batch engine), updates last-write-wins (the
 * members of repeated ids merge in request order, every repeat answers the final object), answers
 * replaced, never edited.
 */
@Injectable()
export class QuizzesV2Service {
  constructor(readonly model: QuizzesService) {}

  /* quizzes and question banks: the same batch rules over their own members and statements */

  readonly quizzes = new KindBatches<QuizRow>({
    idType: 'quiz',
    what: 'Quiz',
    members: QUIZ_V2_MEMBERS,
    rename: QUIZ_RENAME,
    insert: (org, changes) => this.model.insertQuizzes(org, changes),
    update: (org, updates) => this.model.updateQuizzes(org, updates),
    remove: (org, ids) => this.model.deleteQuizzes(org, ids),
  });

  readonly banks = new KindBatches<QuestionBankRow>({
    idType: 'questionBank',
    what: 'Question bank',
    members: ['name'],
    insert: (org, changes) => this.model.insertBanks(org, changes),
    update: (org, updates) => this.model.updateBanks(org, updates),
    remove: (org, ids) => this.model.deleteBanks(org, ids),
  });

  /* questions */

  /**
   * Create questions with their answers: exactly one parent (quiz_id XOR question_bank_id, else
   * validation_error), a live one of the organization (else not_found at the parent), the per-type
   * rules (validation_error at the member).
   */
  async createQuestions(p: Principal, items: ValidItem<QuestionCreateItem>[]): Promise<Outcomes<QuestionRow>> {
    const out: Outcomes<QuestionRow> = new Map();
    const parents = new Map<number, { quizId: string | null; bankId: string | null; sentQuiz: boolean }>();
    for (const v of items) {
      const a = v.item.attributes;
      const quiz = a.quiz_id ?? null;
      const bank = a.question_bank_id ?? null;
      if ((quiz === null) === (bank === null)) {
        out.set(v.index, failed('validation_error', 'quiz_id: provide exactly one of quiz_id and question_bank_id.', '/attributes/quiz_id'));
        continue;
      }
      const problems = questionProblems({
        type: a.question_type,
        answers: a.answers ?? [],
        case_sensitive: a.case_sensitive ?? false,
        requires_manual_grading: a.requires_manual_grading ?? false,
        correct_answer_feedback_html: a.correct_answer_feedback_html ?? '',
        incorrect_answer_feedback_html: a.incorrect_answer_feedback_html ?? '',
      });
      if (problems.length) {
        out.set(v.index, failed('validation_error', `${problems[0].field}: ${problems[0].message}`, `/attributes/${problems[0].field}`));
        continue;
      }
      parents.set(v.index, { quizId: quiz === null ? null : decodeId('quiz', quiz), bankId: bank === null ? null : decodeId('questionBank', bank), sentQuiz: quiz !== null });
    }
    const ids = [...parents.values()];
    const [quizzes, banks] = await Promise.all([
      this.model.quizzes.byId(
        p.organizationId,
        ids.map((x) => x.quizId).filter((x): x is string => !!x),
      ),
      this.model.banks.byId(
        p.organizationId,
        ids.map((x) => x.bankId).filter((x): x is string => !!x),
      ),
    ]);
    const pending: { index: number; quizId: string | null; bankId: string | null; d: Changes }[] = [];
    for (const v of items) {
      const parent = parents.get(v.index);
      if (!parent) continue;
      const live = parent.sentQuiz ? !!parent.quizId && quizzes.has(parent.quizId) : !!parent.bankId && banks.has(parent.bankId);
      if (!live) {
        out.set(v.index, parent.sentQuiz ? failed('not_found', 'Quiz not found.', '/attributes/quiz_id') : failed('not_found', 'Question bank not found.', '/attributes/question_bank_id'));
        continue;
      }
      const d = sentChanges(
        v.raw,
        QUESTION_CREATE_MEMBERS.filter((k) => !['quiz_id', 'question_bank_id', 'answers'].includes(k)),
        QUESTION_RENAME,
      );
      d.answers = storedAnswers(v.item.attributes.question_type, v.item.attributes.answers);
      pending.push({ index: v.index, quizId: parent.sentQuiz ? parent.quizId : null, bankId: parent.sentQuiz ? null : parent.bankId, d });
    }
    const rows = await this.model.insertQuestions(p.organizationId, pending);
    pending.forEach((x, i) => out.set(x.index, { ok: true, id: encodeId('question', rows[i].id), result: rows[i] }));
    return out;
  }

  /**
   * Update question members (answers, type, parent and order are read-only: refused as unknown
   * members). Repeated ids apply in order (last write wins); each item is checked against the
   * stored type with the members merged so far, a failing item changes nothing.
   */
  async updateQuestions(p: Principal, items: ValidItem<QuestionUpdateItem>[]): Promise<Outcomes<QuestionRow>> {
    const out: Outcomes<QuestionRow> = new Map();
    const ok = items;
    const stored = await this.model.questionsById(
      p.organizationId,
      ok.map((v) => decodeId('question', v.item.id)).filter((x): x is string => !!x),
    );
    const state = new Map<string, QuestionRow>();
    const merged = new Map<string, Changes>();
    const idOf = new Map<number, string>();
    for (const v of ok) {
      const id = decodeId('question', v.item.id);
      const cur = id ? (state.get(id) ?? stored.get(id)) : undefined;
      if (!id || !cur) {
        out.set(v.index, failed('not_found', 'Question not found.', '/id'));
        continue;
      }
      const d = sentChanges(v.raw, QUESTION_UPDATE_MEMBERS, QUESTION_RENAME);
      const next = { ...cur, ...d } as QuestionRow;
      const problems = questionProblems(next).filter((x) => x.field !== 'answers');
      if (problems.length) {
        out.set(v.index, failed('validation_error', `${problems[0].field}: ${problems[0].message}`, `/attributes/${problems[0].field}`));
        continue;
      }
      state.set(id, next);
      merged.set(id, { ...(merged.get(id) ?? {}), ...d });
      idOf.set(v.index, id);
    }
    const rows = await this.model.updateQuestions(
      p.organizationId,
      [...merged].map(([id, d]) => ({ id, d })),
    );
    for (const [index, id] of idOf) {
      const row = rows.get(id);
      out.set(index, row ? { ok: true, id: encodeId('question', id), result: row } : failed('not_found', 'Question not found.', '/id'));
    }
    return out;
  }

  async deleteQuestions(p: Principal, items: ValidItem<IdItem>[]): Promise<Outcomes> {
    return removeAll(items, 'question', 'Question', (ids) => this.model.deleteQuestions(p.organizationId, ids));
  }

  /* question-bank assignments (the quiz resolved first: 404 whatever the body) */

  async requireQuiz(p: Principal, quizPublicId: string): Promise<string> {
    const id = decodeId('quiz', quizPublicId);
    if (!id || !(await this.model.quizzes.byId(p.organizationId, [id])).has(id)) throw notFound('Quiz not found.');
    return id;
  }

  /** A quiz's assignments; with `updatedSince` those changed at or after it, by last change. */
  async listAssignments(p: Principal, quizPublicId: string, updatedSince?: Date) {
    const quizId = await this.requireQuiz(p, quizPublicId);
    const { rows } = await this.model.assignments.list(p.organizationId, quizId, undefined, updatedSince);
    return rows;
  }

  /** The decoded bank id of each item; undecodable ones are not_found. */
  private banksOf<T extends { attributes: { question_bank_id: string } }>(items: ValidItem<T>[], out: Outcomes): Map<number, string> {
    const ids = new Map<number, string>();
    for (const v of items) {
      const id = decodeId('questionBank', v.item.attributes.question_bank_id);
      if (id) ids.set(v.index, id);
      else out.set(v.index, failed('not_found', 'Question bank not found.', '/attributes/question_bank_id'));
    }
    return ids;
  }

  /** Bind banks (live banks of the organization, else not_found); re-binding changes only the members sent. */
  async bind(p: Principal, quizId: string, items: ValidItem<AssignmentBindItem>[]): Promise<Outcomes> {
    const out: Outcomes = new Map();
    const ids = this.banksOf(items, out);
    const banks = await this.model.banks.byId(p.organizationId, [...ids.values()]);
    const pending = [...ids].filter(([index, id]) => {
      if (!banks.has(id)) out.set(index, failed('not_found', 'Question bank not found.', '/attributes/question_bank_id'));
      return banks.has(id);
    });
    const byBank = await this.model.assignments.bind(
      p.organizationId,
      quizId,
      pending.map(([index, bankId]) => ({ bankId, d: sentChanges(items.find((v) => v.index === index)!.raw, ASSIGNMENT_MEMBERS.slice(1)) })),
    );
    for (const [index, bankId] of pending) this.answer(out, index, byBank.get(bankId));
    return out;
  }

  /** Update assignments of banks bound to the quiz (else not_found); only the key: a no-op success. */
  async update(p: Principal, quizId: string, items: ValidItem<AssignmentUpdateItem>[]): Promise<Outcomes> {
    const out: Outcomes = new Map();
    const ok = items;
    const ids = this.banksOf(ok, out);
    const changes = (index: number) => {
      const d = sentChanges(ok.find((v) => v.index === index)!.raw, ASSIGNMENT_MEMBERS.slice(1));
      if (d.order === null) delete d.order;
      return d;
    };
    const byBank = await this.model.assignments.update(
      p.organizationId,
      quizId,
      [...ids].map(([index, bankId]) => ({ bankId, d: changes(index) })),
    );
    for (const [index, bankId] of ids) this.answer(out, index, byBank.get(bankId));
    return out;
  }

  async unbind(p: Principal, quizId: string, items: ValidItem<AssignmentUnbindItem>[]): Promise<Outcomes> {
    const out: Outcomes = new Map();
    const ids = this.banksOf(screen(items, ['question_bank_id'], out), out);
    const removed = await this.model.assignments.unbind(p.organizationId, quizId, [...ids.values()]);
    for (const [index, bankId] of ids) {
      out.set(
        index,
        removed.has(bankId)
          ? { ok: true, id: encodeId('questionBank', bankId), deleted: true }
          : failed('not_found', 'This question bank is not assigned to the quiz.', '/attributes/question_bank_id'),
      );
    }
    return out;
  }

  private answer(out: Outcomes, index: number, row: AssignmentRow | undefined) {
    out.set(
      index,
      row ? { ok: true, id: encodeId('questionBankAssignment', row.id), result: row } : failed('not_found', 'This question bank is not assigned to the quiz.', '/attributes/question_bank_id'),
    );
  }
}
