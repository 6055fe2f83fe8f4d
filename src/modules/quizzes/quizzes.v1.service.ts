import { Injectable } from '@nestjs/common';
import type { Principal } from '../../core/auth/principal';
import { FieldProblem, notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { PatchedQuestionBankRequest, PatchedQuestionUpdateRequest, PatchedQuizRequest } from './dto/quiz.v1.dto';
import { AssignmentRow, QUESTION_COLUMNS, questionProblems, QuestionBankRow, QuestionRow, QUIZ_COLUMNS, QuizRow, storedAnswers } from './quiz-model';
import { Changes, QuizzesService } from './quizzes.service';

/** The members of `body` that are columns of `columns` (absent ones left out). */
export function pick(body: object, columns: Record<string, unknown>, rename: Record<string, string> = {}): Changes {
  const out: Changes = {};
  for (const [k, v] of Object.entries(body)) {
    const col = rename[k] ?? k;
    if (v !== undefined && col in columns) out[col] = v;
  }
  return out;
}

const fail = (problems: FieldProblem[]) => new ValidationFailed(problems, 400);

type Parent = { quizId: string } | { bankId: string };

/** The questions of a parent (a quiz or a question bank), found first by its public id: list, read and delete. */
export class ParentQuestions {
  constructor(
    private readonly model: QuizzesService,
    private readonly parent: (p: Principal, publicId: string) => Promise<Parent>,
  ) {}

  async list(p: Principal, parentId: string, page: V1PageRequest) {
    return this.model.listQuestionsOf(p, await this.parent(p, parentId), page);
  }

  async read(p: Principal, parentId: string, questionId: string): Promise<QuestionRow> {
    return this.model.getQuestion(p, questionId, await this.parent(p, parentId));
  }

  async remove(p: Principal, parentId: string, questionId: string): Promise<void> {
    const q = await this.read(p, parentId, questionId);
    await this.model.deleteQuestions(p.organizationId, [q.id]);
  }
}

/**
 * The /v1 operations of quizzes, question banks and questions (resource-reference-api.md,
 * quizzes), over QuizzesService. Bad input is a 400 field map that changes nothing.
 */
@Injectable()
export class QuizzesV1Service {
  /** A quiz's own questions (404 for a quiz that is not a live quiz of the organization). */
  readonly quizQuestions: ParentQuestions;
  /** A question bank's questions (404 for a bank that is not a live bank of the organization). */
  readonly bankQuestions: ParentQuestions;

  constructor(readonly model: QuizzesService) {
    this.quizQuestions = new ParentQuestions(model, async (p, id) => ({ quizId: (await model.quizzes.get(p, id)).id }));
    this.bankQuestions = new ParentQuestions(model, async (p, id) => ({ bankId: (await model.banks.get(p, id)).id }));
  }

  private quizUuid(p: Principal, publicId: string): string {
    const id = decodeId('quiz', publicId);
    if (!id) throw notFound('Quiz not found.');
    return id;
  }

  /* quizzes */

  listQuizzes(p: Principal, page: V1PageRequest, name: string | undefined) {
    return this.model.listQuizzesV1(p, name, page);
  }

  readQuiz(p: Principal, id: string): Promise<QuizRow> {
    return this.model.quizzes.get(p, id);
  }

  async createQuiz(p: Principal, body: PatchedQuizRequest): Promise<QuizRow> {
    return (await this.model.insertQuizzes(p.organizationId, [pick(body, QUIZ_COLUMNS)]))[0];
  }

  async updateQuiz(p: Principal, id: string, body: PatchedQuizRequest): Promise<QuizRow> {
    const uuid = this.quizUuid(p, id);
    const row = (await this.model.updateQuizzes(p.organizationId, [{ id: uuid, d: pick(body, QUIZ_COLUMNS) }])).get(uuid);
    if (!row) throw notFound('Quiz not found.');
    return row;
  }

  async deleteQuiz(p: Principal, id: string): Promise<void> {
    const uuid = this.quizUuid(p, id);
    if (!(await this.model.deleteQuizzes(p.organizationId, [uuid])).has(uuid)) throw notFound('Quiz not found.');
  }

  async quizBanks(p: Principal, quizId: string, page: V1PageRequest): Promise<{ rows: AssignmentRow[]; count: number }> {
    const quiz = await this.model.quizzes.get(p, quizId);
    return this.model.assignments.list(p.organizationId, quiz.id, page);
  }

  async quizBank(p: Principal, quizId: string, bankId: string): Promise<AssignmentRow> {
    const quiz = await this.model.quizzes.get(p, quizId);
    const bank = decodeId('questionBank', bankId);
    const row = bank ? (await this.model.assignments.byBank(p.organizationId, quiz.id, [bank])).get(bank) : undefined;
    if (!row) throw notFound('Question bank not found.');
    return row;
  }

  /* question banks */

  listBanks(p: Principal, page: V1PageRequest) {
    return this.model.listBanksV1(p, page);
  }

  readBank(p: Principal, id: string): Promise<QuestionBankRow> {
    return this.model.banks.get(p, id);
  }

  async createBank(p: Principal, body: PatchedQuestionBankRequest): Promise<QuestionBankRow> {
    return (await this.model.insertBanks(p.organizationId, [pick(body, { name: 1 })]))[0];
  }

  async updateBank(p: Principal, id: string, body: PatchedQuestionBankRequest): Promise<QuestionBankRow> {
    const uuid = decodeId('questionBank', id);
    const row = uuid ? (await this.model.updateBanks(p.organizationId, [{ id: uuid, d: pick(body, { name: 1 }) }])).get(uuid) : undefined;
    if (!row) throw notFound('Question bank not found.');
    return row;
  }

  async deleteBank(p: Principal, id: string): Promise<void> {
    const uuid = decodeId('questionBank', id);
    if (!uuid || !(await this.model.deleteBanks(p.organizationId, [uuid])).has(uuid)) throw notFound('Question bank not found.');
  }

  /* quiz questions */

  readQuestion(p: Principal, id: string): Promise<QuestionRow> {
    return this.model.getQuestion(p, id);
  }

  /** The parent a body names: exactly one of `quiz` and `quiz_question_bank`, a live one of the organization. */
  private async parentOf(p: Principal, body: PatchedQuestionUpdateRequest): Promise<{ quizId: string | null; bankId: string | null }> {
    const quiz = body.quiz ?? null;
    const bank = body.quiz_question_bank ?? null;
    if ((quiz === null) === (bank === null)) {
      const message = 'Set exactly one of quiz or quiz_question_bank.';
      throw fail([
        { field: 'quiz', message },
        { field: 'quiz_question_bank', message },
      ]);
    }
    if (quiz !== null) {
      const id = decodeId('quiz', quiz);
      if (!id || !(await this.model.quizzes.byId(p.organizationId, [id])).has(id)) throw fail([{ field: 'quiz', message: `Invalid pk "${quiz}" - object does not exist.` }]);
      return { quizId: id, bankId: null };
    }
    const id = decodeId('questionBank', bank);
    if (!id || !(await this.model.banks.byId(p.organizationId, [id])).has(id)) {
      throw fail([{ field: 'quiz_question_bank', message: `Invalid pk "${bank}" - object does not exist.` }]);
    }
    return { quizId: null, bankId: id };
  }

  async createQuestion(p: Principal, body: PatchedQuestionUpdateRequest): Promise<QuestionRow> {
    const parent = await this.parentOf(p, body);
    const d = questionChanges(body, body.type!);
    checkQuestion({ ...DEFAULT_QUESTION, ...d });
    return (await this.model.insertQuestions(p.organizationId, [{ ...parent, d }]))[0];
  }

  /**
   * PUT and PATCH of a question: the members sent, checked with the stored ones against the
   * per-type rules; `answers`, when sent, replace the stored answers (new ids). A question stays
   * under its quiz or bank: naming another parent is refused.
   */
  async updateQuestion(p: Principal, id: string, body: PatchedQuestionUpdateRequest): Promise<QuestionRow> {
    const cur = await this.model.getQuestion(p, id);
    const problems: FieldProblem[] = [];
    const moved = (sent: string | null | undefined, type: 'quiz' | 'questionBank', current: string | null) =>
      sent !== undefined && (sent === null ? current !== null : decodeId(type, sent) !== current);
    if (moved(body.quiz, 'quiz', cur.quiz_id)) problems.push({ field: 'quiz', message: 'A question cannot move to another quiz or question bank.' });
    if (moved(body.quiz_question_bank, 'questionBank', cur.question_bank_id)) {
      problems.push({ field: 'quiz_question_bank', message: 'A question cannot move to another quiz or question bank.' });
    }
    if (problems.length) throw fail(problems);
    const type = body.type ?? cur.type;
    const d = questionChanges(body, type);
    // a type change re-marks stored fill-in-the-blank answers (all correct)
    if (d.answers === undefined && type !== cur.type && type === 'FILL_IN_THE_BLANK') d.answers = cur.answers.map((a) => ({ ...a, correct: true }));
    checkQuestion({ ...cur, ...d } as typeof DEFAULT_QUESTION);
    const row = (await this.model.updateQuestions(p.organizationId, [{ id: cur.id, d }])).get(cur.id);
    if (!row) throw notFound('Question not found.');
    return row;
  }

  async deleteQuestion(p: Principal, id: string): Promise<void> {
    const q = await this.model.getQuestion(p, id);
    await this.model.deleteQuestions(p.organizationId, [q.id]);
  }
}

const DEFAULT_QUESTION = {
  type: '',
  answers: [] as { answer_text: string; correct?: boolean }[],
  case_sensitive: false,
  requires_manual_grading: false,
  correct_answer_feedback_html: '',
  incorrect_answer_feedback_html: '',
};

/** The column changes of a /v1 question body (answers stored with new ids). */
function questionChanges(body: PatchedQuestionUpdateRequest, type: string): Changes {
  const d = pick(body, QUESTION_COLUMNS);
  delete d.answers;
  if (body.answers !== undefined) d.answers = storedAnswers(type, body.answers);
  return d;
}

function checkQuestion(q: typeof DEFAULT_QUESTION) {
  const problems = questionProblems(q);
  if (problems.length) throw fail(problems.map((x) => ({ field: x.field, message: x.message })));
}
