import { encodeId, newUuid } from '../../core/ids/ids';
import { draw, grade, isCorrect, parseResponses, PoolQuestion } from './attempts-grading';
import type { QuestionType } from './quiz-model';

/** Unit spec of the pure grading rules (docs/decisions/quizzes.md "Graded attempts"): every rule of attempts-grading.ts. */

let seq = 0;
function q(type: QuestionType, over: Partial<PoolQuestion> = {}, answers: { text?: string; correct?: boolean }[] = []): PoolQuestion {
  return {
    id: newUuid(),
    question_bank_id: null,
    type,
    case_sensitive: false,
    requires_manual_grading: false,
    is_graded: true,
    is_optional: false,
    correct_answer_feedback_html: '',
    incorrect_answer_feedback_html: '',
    answers: answers.map((a, i) => ({ id: newUuid(), answer_text: a.text ?? `a${i}`, correct: !!a.correct, order: i })),
    order: seq++,
    bank_order: null,
    bank_at: null,
    bank_limit: null,
    ...over,
  };
}
const qid = (x: PoolQuestion) => encodeId('question', x.id);
const aid = (x: PoolQuestion, i: number) => encodeId('answer', x.answers[i].id);
const poolOf = (...qs: PoolQuestion[]) => new Map(qs.map((x) => [x.id, x]));

describe('parseResponses', () => {
  const mc = q('MULTIPLE_CHOICE', {}, [{ correct: true }, {}]);
  const ma = q('MULTIPLE_ANSWER', {}, [{ correct: true }, { correct: true }, {}]);
  const fib = q('FILL_IN_THE_BLANK', {}, [{ text: 'Paris', correct: true }]);
  const ff = q('FREEFORM');
  const pool = poolOf(mc, ma, fib, ff);

  it('decodes good answers of every type', () => {
    const { responses, problems } = parseResponses(pool, [
      { question_id: qid(mc), answer_ids: [aid(mc, 0)] },
      { question_id: qid(ma), answer_ids: [aid(ma, 1), aid(ma, 0)] },
      { question_id: qid(fib), text: 'paris' },
      { question_id: qid(ff), text: 'free words' },
    ]);
    expect(problems).toEqual([]);
    expect(responses).toEqual([
      { question_id: mc.id, answer_ids: [mc.answers[0].id] },
      { question_id: ma.id, answer_ids: [ma.answers[1].id, ma.answers[0].id] },
      { question_id: fib.id, text: 'paris' },
      { question_id: ff.id, text: 'free words' },
    ]);
  });

  const one = (a: { question_id: string; answer_ids?: string[]; text?: string }) => parseResponses(pool, [a]).problems;

  it('refuses a question the quiz cannot ask, or an undecodable id', () => {
    const other = q('FREEFORM');
    expect(one({ question_id: qid(other), text: 'x' })).toEqual([{ field: 'answers.0.question_id', message: expect.stringContaining('does not exist') }]);
    expect(one({ question_id: 'nonsense', text: 'x' })[0].field).toBe('answers.0.question_id');
  });

  it('refuses a question answered twice (at the second answer)', () => {
    const { problems } = parseResponses(pool, [
      { question_id: qid(ff), text: 'a' },
      { question_id: qid(ff), text: 'b' },
    ]);
    expect(problems).toEqual([{ field: 'answers.1.question_id', message: 'This question is answered more than once.' }]);
  });

  it('choice questions take answer_ids, never text', () => {
    expect(one({ question_id: qid(mc), text: 'x' })[0].field).toBe('answers.0.text');
    expect(one({ question_id: qid(ma) })[0]).toEqual({ field: 'answers.0.answer_ids', message: 'This field is required for a MULTIPLE_ANSWER question.' });
  });

  it('multiple choice takes exactly one answer; multiple answer at least one', () => {
    expect(one({ question_id: qid(mc), answer_ids: [aid(mc, 0), aid(mc, 1)] })[0].message).toMatch(/exactly one/);
    expect(one({ question_id: qid(mc), answer_ids: [] })[0].message).toMatch(/exactly one/);
    expect(one({ question_id: qid(ma), answer_ids: [] })[0].message).toMatch(/at least one/);
  });

  it('refuses an answer id not of the question, and a repeated one', () => {
    expect(one({ question_id: qid(ma), answer_ids: [aid(mc, 0)] })[0].message).toMatch(/not an answer of this question/);
    expect(one({ question_id: qid(ma), answer_ids: ['junk'] })[0].message).toMatch(/not an answer of this question/);
    expect(one({ question_id: qid(ma), answer_ids: [aid(ma, 0), aid(ma, 0)] })[0].message).toBe('An answer is chosen more than once.');
  });

  it('text questions take text, never answer_ids', () => {
    expect(one({ question_id: qid(fib), answer_ids: [] })[0].field).toBe('answers.0.answer_ids');
    expect(one({ question_id: qid(ff) })[0]).toEqual({ field: 'answers.0.text', message: 'This field is required for a FREEFORM question.' });
  });

  it('reports every bad answer, and keeps the good ones', () => {
    const { responses, problems } = parseResponses(pool, [{ question_id: qid(mc), text: 'x' }, { question_id: qid(fib), text: 'Paris' }, { question_id: qid(ff) }]);
    expect(problems.map((p) => p.field)).toEqual(['answers.0.text', 'answers.2.text']);
    expect(responses).toEqual([{ question_id: fib.id, text: 'Paris' }]);
  });
});

describe('draw', () => {
  const bank = (n: number, bankId: string, bankOrder: number, limit: number | null, at = new Date('2026-01-01')) =>
    Array.from({ length: n }, () => q('FREEFORM', { question_bank_id: bankId, bank_order: bankOrder, bank_at: at, bank_limit: limit }));

  it("without limits: the quiz's own questions by order, then each bank by assignment order", () => {
    const own2 = q('FREEFORM', { order: 2 });
    const own1 = q('FREEFORM', { order: 1 });
    const b1 = bank(2, newUuid(), 1, null);
    const b0 = bank(2, newUuid(), 0, null);
    const { drawn, problems } = draw([...b1, own2, ...b0, own1], 0, new Set());
    expect(problems).toEqual([]);
    expect(drawn.map((x) => x.id)).toEqual([own1, own2, ...b0, ...b1].map((x) => x.id));
  });

  it('banks of equal order follow their assignment time', () => {
    const late = bank(1, newUuid(), 0, null, new Date('2026-02-01'));
    const early = bank(1, newUuid(), 0, null, new Date('2026-01-01'));
    expect(draw([...late, ...early], 0, new Set()).drawn.map((x) => x.id)).toEqual([early[0].id, late[0].id]);
  });

  it("a bank's limit L draws L of its questions, always including the answered ones", () => {
    const b = bank(5, newUuid(), 0, 2);
    for (let i = 0; i < 20; i++) {
      const { drawn, problems } = draw(b, 0, new Set([b[3].id]));
      expect(problems).toEqual([]);
      expect(drawn).toHaveLength(2);
      expect(drawn.map((x) => x.id)).toContain(b[3].id);
      // kept in their order
      expect(drawn.map((x) => x.order)).toEqual([...drawn.map((x) => x.order)].sort((a, z) => a - z));
    }
  });

  it('a limit of 0, or at least the bank size, draws the whole bank', () => {
    const b = bank(3, newUuid(), 0, 0);
    expect(draw(b, 0, new Set()).drawn).toHaveLength(3);
    const c = bank(3, newUuid(), 0, 3);
    expect(draw(c, 0, new Set()).drawn).toHaveLength(3);
  });

  it('answering more than a bank allows is a problem at answers', () => {
    const b = bank(4, newUuid(), 0, 2);
    const { problems } = draw(b, 0, new Set([b[0].id, b[1].id, b[2].id]));
    expect(problems).toEqual([{ field: 'answers', message: 'At most 2 questions of a question bank can be answered in one attempt; 3 were.' }]);
  });

  it("the quiz's limit Q draws Q of all questions (own and banks), answered ones included", () => {
    const own = [q('FREEFORM'), q('FREEFORM'), q('FREEFORM')];
    const b = bank(3, newUuid(), 0, null);
    const { drawn, problems } = draw([...own, ...b], 4, new Set([b[2].id]));
    expect(problems).toEqual([]);
    expect(drawn).toHaveLength(4);
    expect(drawn.map((x) => x.id)).toContain(b[2].id);
    const over = draw([...own, ...b], 2, new Set([own[0].id, own[1].id, b[0].id]));
    expect(over.problems).toEqual([{ field: 'answers', message: 'At most 2 questions of this quiz can be answered in one attempt; 3 were.' }]);
  });
});

describe('isCorrect', () => {
  it('FREEFORM is never graded automatically', () => {
    expect(isCorrect(q('FREEFORM'), { question_id: 'x', text: 'anything' })).toBeNull();
    expect(isCorrect(q('FREEFORM'), undefined)).toBeNull();
  });

  it('an unanswered question is wrong', () => {
    expect(isCorrect(q('MULTIPLE_CHOICE', {}, [{ correct: true }]), undefined)).toBe(false);
  });

  it('choice questions: exactly the set of correct answers', () => {
    const ma = q('MULTIPLE_ANSWER', {}, [{ correct: true }, { correct: true }, {}]);
    const [a, b, c] = ma.answers.map((x) => x.id);
    expect(isCorrect(ma, { question_id: ma.id, answer_ids: [b, a] })).toBe(true);
    expect(isCorrect(ma, { question_id: ma.id, answer_ids: [a] })).toBe(false);
    expect(isCorrect(ma, { question_id: ma.id, answer_ids: [a, b, c] })).toBe(false);
    const mc = q('MULTIPLE_CHOICE', {}, [{}, { correct: true }]);
    expect(isCorrect(mc, { question_id: mc.id, answer_ids: [mc.answers[1].id] })).toBe(true);
    expect(isCorrect(mc, { question_id: mc.id, answer_ids: [mc.answers[0].id] })).toBe(false);
  });

  it('fill in the blank: any stored answer, spaces collapsed and trimmed, case-insensitive unless case_sensitive', () => {
    const fib = q('FILL_IN_THE_BLANK', {}, [{ text: 'New  York' }, { text: 'NYC' }]);
    expect(isCorrect(fib, { question_id: fib.id, text: '  new york ' })).toBe(true);
    expect(isCorrect(fib, { question_id: fib.id, text: 'nyc' })).toBe(true);
    expect(isCorrect(fib, { question_id: fib.id, text: 'Boston' })).toBe(false);
    expect(isCorrect(fib, { question_id: fib.id, text: '   ' })).toBe(false);
    const cs = q('FILL_IN_THE_BLANK', { case_sensitive: true }, [{ text: 'NYC' }]);
    expect(isCorrect(cs, { question_id: cs.id, text: 'nyc' })).toBe(false);
    expect(isCorrect(cs, { question_id: cs.id, text: 'NYC' })).toBe(true);
  });

  it('fill in the blank compares Unicode-normalized text (NFC)', () => {
    const fib = q('FILL_IN_THE_BLANK', {}, [{ text: 'caf\u00e9' }]);
    expect(isCorrect(fib, { question_id: fib.id, text: 'cafe\u0301' })).toBe(true);
  });
});

describe('grade', () => {
  const right = (x: PoolQuestion) => ({ question_id: x.id, answer_ids: x.answers.filter((a) => a.correct).map((a) => a.id) });
  const wrong = (x: PoolQuestion) => ({ question_id: x.id, answer_ids: [x.answers.find((a) => !a.correct)!.id] });
  const mc = (over: Partial<PoolQuestion> = {}) => q('MULTIPLE_CHOICE', over, [{ correct: true }, {}]);

  it('one point per counted question; percentage rounded down; passed at the passing percentage', () => {
    const qs = [mc(), mc(), mc()];
    const g = grade(qs, [right(qs[0]), right(qs[1]), wrong(qs[2])], 66);
    expect(g).toMatchObject({ status: 'GRADED', score: 2, max_score: 3, percentage_correct: 66, passed: true });
    // 100 × 2 = 200 < 67 × 3 = 201
    expect(grade(qs, [right(qs[0]), right(qs[1])], 67).passed).toBe(false);
    expect(grade(qs, [right(qs[0]), right(qs[1])], 67).percentage_correct).toBe(66);
  });

  it('an unanswered drawn question counts as wrong; an optional unanswered one is left out', () => {
    const a = mc();
    const b = mc();
    const opt = mc({ is_optional: true });
    const g = grade([a, b, opt], [right(a)], 50);
    expect(g).toMatchObject({ score: 1, max_score: 2, percentage_correct: 50, passed: true });
    expect(g.results).toEqual([
      { id: a.id, correct: true, counted: true, answered: true },
      { id: b.id, correct: false, counted: true, answered: false },
      { id: opt.id, correct: false, counted: false, answered: false },
    ]);
    // an optional question that is answered counts
    expect(grade([a, opt], [right(a), wrong(opt)], 50)).toMatchObject({ score: 1, max_score: 2 });
  });

  it('an ungraded question never counts', () => {
    const a = mc();
    const ungraded = mc({ is_graded: false });
    expect(grade([a, ungraded], [right(a), wrong(ungraded)], 100)).toMatchObject({ score: 1, max_score: 1, percentage_correct: 100, passed: true });
  });

  it('FREEFORM never counts; one that requires manual grading makes the attempt PENDING_REVIEW with passed null', () => {
    const a = mc();
    const ff = q('FREEFORM');
    expect(grade([a, ff], [right(a), { question_id: ff.id, text: 'x' }], 100)).toMatchObject({ status: 'GRADED', score: 1, max_score: 1, passed: true });
    const manual = q('FREEFORM', { requires_manual_grading: true });
    const g = grade([a, manual], [wrong(a), { question_id: manual.id, text: 'x' }], 0);
    expect(g).toMatchObject({ status: 'PENDING_REVIEW', score: 0, max_score: 1, percentage_correct: 0, passed: null });
    // a non-FREEFORM question flagged for manual grading is still graded automatically
    const flagged = mc({ requires_manual_grading: true });
    expect(grade([flagged], [right(flagged)], 100)).toMatchObject({ status: 'GRADED', passed: true });
  });

  it('nothing counted: 100 percent, and passed', () => {
    const ff = q('FREEFORM');
    expect(grade([ff], [], 100)).toMatchObject({ status: 'GRADED', score: 0, max_score: 0, percentage_correct: 100, passed: true });
    expect(grade([], [], 80)).toMatchObject({ score: 0, max_score: 0, percentage_correct: 100, passed: true });
  });
});
