import { randomInt } from 'node:crypto';
import type { FieldProblem } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import type { QuestionRow } from './quiz-model';

/**
 * The pure part of a graded attempt (CONVENTIONS §12, docs/decisions/quizzes.md "Graded
 * attempts"): which questions an attempt covers (the draw), whether the answers fit them, and the
 * grade. No SQL here: AttemptsService loads the quiz's question pool in one statement and stores
 * what these functions decide.
 */

/** A question the quiz can ask: its own, or one of a bound bank (with the assignment's rules). */
export interface PoolQuestion extends Pick<
  QuestionRow,
  | 'id'
  | 'question_bank_id'
  | 'type'
  | 'case_sensitive'
  | 'requires_manual_grading'
  | 'is_graded'
  | 'is_optional'
  | 'correct_answer_feedback_html'
  | 'incorrect_answer_feedback_html'
  | 'answers'
  | 'order'
> {
  /** the bank assignment's order, creation and limit (null for the quiz's own questions) */
  bank_order: number | null;
  bank_at: Date | null;
  bank_limit: number | null;
}

/** One answer as sent, its ids decoded. */
export interface ParsedResponse {
  question_id: string;
  answer_ids?: string[];
  text?: string;
}

/** A drawn question's outcome: `correct` null when not graded automatically; `counted` when it weighs in the score. */
export interface QuestionResult {
  id: string;
  correct: boolean | null;
  counted: boolean;
  answered: boolean;
}

export interface Grade {
  status: 'GRADED' | 'PENDING_REVIEW';
  score: number;
  max_score: number;
  percentage_correct: number;
  passed: boolean | null;
  results: QuestionResult[];
}

const problem = (field: string, message: string): FieldProblem => ({ field, message });

/**
 * Check the answers against the pool and decode them. Each answer names a question the quiz can
 * ask (its own or a bound bank's), once; multiple choice takes exactly one of the question's
 * answer ids, multiple answer at least one (no repeats); fill in the blank and freeform take
 * `text`, never `answer_ids`. Problems are reported per answer (`answers.<i>.<member>`).
 */
export function parseResponses(pool: Map<string, PoolQuestion>, answers: { question_id: string; answer_ids?: string[]; text?: string }[]): { responses: ParsedResponse[]; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const responses: ParsedResponse[] = [];
  const seen = new Set<string>();
  answers.forEach((a, i) => {
    const at = (m: string) => `answers.${i}.${m}`;
    const qid = decodeId('question', a.question_id);
    const q = qid ? pool.get(qid) : undefined;
    if (!q) return void problems.push(problem(at('question_id'), `Invalid pk "${a.question_id.slice(0, 64)}" - object does not exist.`));
    if (seen.has(q.id)) return void problems.push(problem(at('question_id'), 'This question is answered more than once.'));
    seen.add(q.id);
    const byChoice = q.type === 'MULTIPLE_CHOICE' || q.type === 'MULTIPLE_ANSWER';
    if (byChoice) {
      if (a.text !== undefined) return void problems.push(problem(at('text'), `A ${q.type} question is answered with answer_ids, not text.`));
      if (a.answer_ids === undefined) return void problems.push(problem(at('answer_ids'), `This field is required for a ${q.type} question.`));
      if (q.type === 'MULTIPLE_CHOICE' && a.answer_ids.length !== 1) return void problems.push(problem(at('answer_ids'), 'A MULTIPLE_CHOICE question takes exactly one answer.'));
      if (a.answer_ids.length === 0) return void problems.push(problem(at('answer_ids'), 'A MULTIPLE_ANSWER question takes at least one answer.'));
      const own = new Set(q.answers.map((x) => x.id));
      const ids: string[] = [];
      for (const raw of a.answer_ids) {
        const id = decodeId('answer', raw);
        if (!id || !own.has(id)) return void problems.push(problem(at('answer_ids'), `Invalid pk "${raw.slice(0, 64)}" - not an answer of this question.`));
        if (ids.includes(id)) return void problems.push(problem(at('answer_ids'), 'An answer is chosen more than once.'));
        ids.push(id);
      }
      responses.push({ question_id: q.id, answer_ids: ids });
    } else {
      if (a.answer_ids !== undefined) return void problems.push(problem(at('answer_ids'), `A ${q.type} question is answered with text, not answer_ids.`));
      if (a.text === undefined) return void problems.push(problem(at('text'), `This field is required for a ${q.type} question.`));
      responses.push({ question_id: q.id, text: a.text });
    }
  });
  return { responses, problems };
}

/** `k` random members of `items` (all of them when k >= length), in their original order. */
function sample<T>(items: T[], k: number): T[] {
  if (k >= items.length) return items;
  const idx = items.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  const keep = new Set(idx.slice(0, k));
  return items.filter((_, i) => keep.has(i));
}

/**
 * The questions an attempt covers: the quiz's own questions, then each bound bank's (in
 * assignment order), a bank with `limit_question_count` L > 0 giving L of its questions; then,
 * when the quiz's `limit_question_count` Q > 0, Q of all those. The questions the learner answered
 * are always part of the draw (the rest of each draw is random), so an attempt may answer at most
 * L questions of a limited bank and Q questions in all: more is a problem at `answers`. Unanswered
 * drawn questions are graded as wrong (or left out when optional).
 */
export function draw(pool: PoolQuestion[], quizLimit: number, answered: Set<string>): { drawn: PoolQuestion[]; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const byOrder = (a: PoolQuestion, b: PoolQuestion) => a.order - b.order || (a.id < b.id ? -1 : 1);
  const own = pool.filter((q) => q.question_bank_id === null).sort(byOrder);
  const banks = new Map<string, PoolQuestion[]>();
  for (const q of pool.filter((x) => x.question_bank_id !== null)) {
    const list = banks.get(q.question_bank_id!) ?? [];
    list.push(q);
    banks.set(q.question_bank_id!, list);
  }
  const bankList = [...banks.values()].sort(
    (a, b) => a[0].bank_order! - b[0].bank_order! || new Date(a[0].bank_at!).getTime() - new Date(b[0].bank_at!).getTime() || (a[0].question_bank_id! < b[0].question_bank_id! ? -1 : 1),
  );
  const pick = (list: PoolQuestion[], limit: number, what: string): PoolQuestion[] => {
    if (limit <= 0 || limit >= list.length) return list;
    const mine = list.filter((q) => answered.has(q.id));
    if (mine.length > limit) {
      problems.push(problem('answers', `At most ${limit} questions of ${what} can be answered in one attempt; ${mine.length} were.`));
      return mine;
    }
    const rest = sample(
      list.filter((q) => !answered.has(q.id)),
      limit - mine.length,
    );
    const keep = new Set([...mine, ...rest].map((q) => q.id));
    return list.filter((q) => keep.has(q.id));
  };
  let drawn = [...own];
  for (const list of bankList) drawn.push(...pick(list.sort(byOrder), list[0].bank_limit ?? 0, 'a question bank'));
  if (!problems.length) drawn = pick(drawn, quizLimit, 'this quiz');
  return { drawn, problems };
}

const normalize = (s: string, caseSensitive: boolean) => {
  const t = s.normalize('NFC').trim().replace(/\s+/g, ' ');
  return caseSensitive ? t : t.toLowerCase();
};

/** Whether a response answers a question correctly; null for a question graded by hand (FREEFORM). */
export function isCorrect(q: PoolQuestion, r: ParsedResponse | undefined): boolean | null {
  if (q.type === 'FREEFORM') return null;
  if (!r) return false;
  const correct = new Set(q.answers.filter((a) => a.correct).map((a) => a.id));
  if (q.type === 'MULTIPLE_CHOICE' || q.type === 'MULTIPLE_ANSWER') {
    const chosen = r.answer_ids ?? [];
    return chosen.length === correct.size && chosen.every((id) => correct.has(id));
  }
  // FILL_IN_THE_BLANK: every stored answer is an accepted text
  const text = normalize(r.text ?? '', q.case_sensitive);
  return text !== '' && q.answers.some((a) => normalize(a.answer_text, q.case_sensitive) === text);
}

/**
 * The grade of the drawn questions. One point per counted question: a graded (`is_graded`),
 * automatically gradable question, unless optional and unanswered. FREEFORM questions never count
 * (there is no key); one that `requires_manual_grading` makes the attempt PENDING_REVIEW: its
 * automatic score is kept but `passed` is null until a person grades it. Percentage = floor(100 ×
 * score / max_score) (100 when nothing counts); passed when 100 × score ≥ passing × max_score.
 */
export function grade(drawn: PoolQuestion[], responses: ParsedResponse[], passingPercentage: number): Grade {
  const byQuestion = new Map(responses.map((r) => [r.question_id, r]));
  let score = 0;
  let max = 0;
  let pending = false;
  const results = drawn.map((q) => {
    const r = byQuestion.get(q.id);
    const correct = isCorrect(q, r);
    const counted = q.is_graded && correct !== null && !(q.is_optional && !r);
    if (q.type === 'FREEFORM' && q.requires_manual_grading) pending = true;
    if (counted) {
      max += 1;
      if (correct) score += 1;
    }
    return { id: q.id, correct, counted, answered: !!r };
  });
  const percentage = max === 0 ? 100 : Math.floor((100 * score) / max);
  return {
    status: pending ? 'PENDING_REVIEW' : 'GRADED',
    score,
    max_score: max,
    percentage_correct: percentage,
    passed: pending ? null : 100 * score >= passingPercentage * max,
    results,
  };
}
