import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries } from '../support/fixtures';
import { twoOrgs } from '../support/two-orgs';
import { FITB, FREE, MA, MC, makeQuiz, ok, quizCourse, right, wrong } from './attempts-support';

jest.setTimeout(60_000);

/** Graded quiz attempts (CONVENTIONS §12): grading, feedback, progress, answer key never shown. */
describe('POST /v1/quizzes/{quiz_id}/attempts: grading and progress', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  const key = () => ({ basic: org.api_key });
  beforeAll(async () => {
    t = await startTestApp();
    ({ a: org, b: other } = await twoOrgs(t));
  });
  afterAll(() => t.close());

  const attempt = (quizId: string, body: Record<string, unknown>) => t.post(`/v1/quizzes/${quizId}/attempts`, body, key());

  it('a failed then a passed attempt: graded, recorded on the quiz lesson, the lesson and the course complete, a certificate; no answer key', async () => {
    const quiz = await makeQuiz(t, org, { passing_percentage_correct: 60 }, [MC, MA, FITB]);
    const c = await quizCourse(t, org, quiz.id);
    const [mc, ma, fitb] = quiz.questions;
    const body = (answers: unknown[]) => ({ user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers });

    const failed = await attempt(quiz.id, body([right(mc), wrong(ma), wrong(fitb)]));
    expect(failed.status).toBe(201);
    expect(failed.body).toEqual({
      id: expect.stringMatching(/^qatt[0-9a-z]+$/),
      quiz_id: quiz.id,
      user: { id: c.learner.id },
      published_course_id: c.publishedCourseId,
      lesson_id: c.quizLesson,
      attempt_number: 1,
      status: 'GRADED',
      score: 1,
      max_score: 3,
      percentage_correct: 33,
      passed: false,
      attempts_remaining: null,
      submitted_at: expect.any(String),
      created_at: expect.any(String),
      questions: null,
    });
    let [lesson] = await c.j.lessons(c.learner.id, c.publishedCourseId);
    expect(lesson.lesson_progress).toMatchObject({ completed_at: null, success_status: 'FAILED', score: 1, max_score: 3 });

    // a fill in the blank answer matches any accepted text, case-insensitively, trimmed
    const passed = await attempt(quiz.id, body([right(mc), right(ma), { question_id: fitb.id, text: '  pARIS ' }]));
    expect(passed.status).toBe(201);
    expect(passed.body).toMatchObject({ attempt_number: 2, status: 'GRADED', score: 3, max_score: 3, percentage_correct: 100, passed: true });
    [lesson] = await c.j.lessons(c.learner.id, c.publishedCourseId);
    expect(lesson.lesson_progress).toMatchObject({ completed_at: passed.body.submitted_at, success_status: 'PASSED', score: 3, max_score: 3 });
    const course = await t.get(`/v1/users/${c.learner.id}/published-courses/${c.publishedCourseId}`, key());
    expect(course.body.course_progress.completed_at).toBe(passed.body.submitted_at);
    const certs = await t.get(`/v2/certificates/?filter[student.id]=${c.learner.id}`, { token: await t.tokenFor(org) });
    expect(certs.body.data).toHaveLength(1);

    // a later, worse attempt leaves the best one on the lesson (passed, 3/3)
    const worse = await attempt(quiz.id, body([wrong(mc)]));
    expect(worse.body).toMatchObject({ attempt_number: 3, score: 0, max_score: 3, passed: false });
    [lesson] = await c.j.lessons(c.learner.id, c.publishedCourseId);
    expect(lesson.lesson_progress).toMatchObject({ completed_at: passed.body.submitted_at, success_status: 'PASSED', score: 3 });

    // the answer key never appears: no answer ids, no answer texts, no correct flags of answers
    for (const res of [failed, passed, worse]) {
      const text = JSON.stringify(res.body);
      for (const q of quiz.questions) for (const a of q.answers) expect(text).not.toContain(a.id);
      expect(text).not.toMatch(/Paris|Lutetia|answer_text|"answers"/);
    }
  });

  it('grades each type: multiple answer needs exactly the correct set, fill in the blank honours case_sensitive, unanswered counts as wrong', async () => {
    const quiz = await makeQuiz(t, org, { passing_percentage_correct: 100 }, [MA, { ...FITB, case_sensitive: true }, MC]);
    const c = await quizCourse(t, org, quiz.id);
    const [ma, fitb, mc] = quiz.questions;
    const go = async (answers: unknown[]) => (await attempt(quiz.id, { user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers })).body;
    const correctMa = ma.answers.filter((a) => a.correct).map((a) => a.id);
    // a subset and a superset of the correct answers are both wrong
    expect(await go([{ question_id: ma.id, answer_ids: [correctMa[0]] }, right(fitb), right(mc)])).toMatchObject({ score: 2, max_score: 3, passed: false });
    expect(await go([{ question_id: ma.id, answer_ids: ma.answers.map((a) => a.id) }, right(fitb), right(mc)])).toMatchObject({ score: 2, passed: false });
    // case sensitive: "paris" is wrong, "Paris" right
    expect(await go([right(ma), { question_id: fitb.id, text: 'paris' }, right(mc)])).toMatchObject({ score: 2, passed: false });
    // the order of answer ids does not matter; an unanswered question is wrong
    expect(await go([{ question_id: ma.id, answer_ids: [...correctMa].reverse() }, right(fitb)])).toMatchObject({ score: 2, max_score: 3, passed: false });
    expect(await go([right(ma), right(fitb), right(mc)])).toMatchObject({ score: 3, max_score: 3, percentage_correct: 100, passed: true });
  });

  it('passing_percentage_correct: 2 of 3 (66%) passes at 66 and fails at 67 (no rounding up)', async () => {
    for (const [pass, expected] of [
      [66, true],
      [67, false],
    ] as const) {
      const quiz = await makeQuiz(t, org, { passing_percentage_correct: pass }, [MC, MC, MC]);
      const c = await quizCourse(t, org, quiz.id);
      const [a, b, x] = quiz.questions;
      const res = await attempt(quiz.id, { user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers: [right(a), right(b), wrong(x)] });
      expect(res.body).toMatchObject({ score: 2, max_score: 3, percentage_correct: 66, passed: expected });
    }
  });

  it('freeform: never scored; requires_manual_grading makes the attempt PENDING_REVIEW (passed null, lesson not completed); without it the rest decides', async () => {
    const manual = await makeQuiz(t, org, { passing_percentage_correct: 50 }, [MC, { ...FREE, requires_manual_grading: true }]);
    const c = await quizCourse(t, org, manual.id);
    const res = await attempt(manual.id, { user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers: manual.questions.map(right) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'PENDING_REVIEW', score: 1, max_score: 1, percentage_correct: 100, passed: null });
    const [lesson] = await c.j.lessons(c.learner.id, c.publishedCourseId);
    expect(lesson.lesson_progress).toMatchObject({ completed_at: null, success_status: null, score: null });

    const survey = await makeQuiz(t, org, { passing_percentage_correct: 50 }, [MC, FREE]);
    const c2 = await quizCourse(t, org, survey.id);
    const res2 = await attempt(survey.id, { user: { id: c2.learner.id }, published_course_id: c2.publishedCourseId, answers: survey.questions.map(right) });
    expect(res2.body).toMatchObject({ status: 'GRADED', score: 1, max_score: 1, passed: true });
    // a quiz with only freeform questions (nothing to get wrong) passes when submitted
    const onlyFree = await makeQuiz(t, org, { passing_percentage_correct: 80 }, [FREE]);
    const c3 = await quizCourse(t, org, onlyFree.id);
    const res3 = await attempt(onlyFree.id, { user: { id: c3.learner.id }, published_course_id: c3.publishedCourseId, answers: [] });
    expect(res3.body).toMatchObject({ status: 'GRADED', score: 0, max_score: 0, percentage_correct: 100, passed: true });
  });

  it('question feedback: per-question correct flags and feedback only when the quiz shows feedback, and for a failure only with show_results_on_failure', async () => {
    const withFeedback = (extra: Record<string, unknown>) =>
      makeQuiz(t, org, { passing_percentage_correct: 100, show_question_feedback: true, ...extra }, [
        { ...MC, correct_answer_feedback_html: '<p>Yes</p>', incorrect_answer_feedback_html: '<p>No</p>' },
        FITB,
      ]);
    const quiz = await withFeedback({ show_results_on_failure: false });
    const c = await quizCourse(t, org, quiz.id);
    const [mc, fitb] = quiz.questions;
    const body = (answers: unknown[]) => ({ user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers });
    expect((await attempt(quiz.id, body([right(mc), wrong(fitb)]))).body).toMatchObject({ passed: false, questions: null });
    expect((await attempt(quiz.id, body([right(mc), right(fitb)]))).body).toMatchObject({
      passed: true,
      questions: [
        { question_id: mc.id, correct: true, feedback_html: '<p>Yes</p>' },
        { question_id: fitb.id, correct: true, feedback_html: null },
      ],
    });
    const onFailure = await withFeedback({ show_results_on_failure: true });
    const c2 = await quizCourse(t, org, onFailure.id);
    const res = await attempt(onFailure.id, { user: { id: c2.learner.id }, published_course_id: c2.publishedCourseId, answers: [wrong(onFailure.questions[0])] });
    expect(res.body).toMatchObject({
      passed: false,
      questions: [
        { question_id: onFailure.questions[0].id, correct: false, feedback_html: '<p>No</p>' },
        { question_id: onFailure.questions[1].id, correct: false, feedback_html: null },
      ],
    });
    // without show_question_feedback nothing per question, whatever the result
    const plain = await makeQuiz(t, org, { show_results_on_failure: true }, [MC]);
    const c3 = await quizCourse(t, org, plain.id);
    expect((await attempt(plain.id, { user: { id: c3.learner.id }, published_course_id: c3.publishedCourseId, answers: [right(plain.questions[0])] })).body.questions).toBe(null);
  });

  it("question banks: a bound bank's questions can be answered; a bank limit and the quiz limit cap what one attempt covers and answers", async () => {
    const quiz = await makeQuiz(t, org, { passing_percentage_correct: 0 }, [MC]);
    const bank = ok(await t.post('/v1/question-banks', { name: `Bank ${Math.random()}` }, key()), 'bank');
    const bankQs = [];
    for (let i = 0; i < 4; i++) bankQs.push(ok(await t.post('/v1/quiz-questions', { ...MC, quiz_question_bank: bank.id }, key()), 'bank question'));
    const token = await t.tokenFor(org);
    const bind = await t.post(
      `/v2/quizzes/${quiz.id}/question-banks/`,
      { data: [{ type: 'question-bank-assignments', attributes: { question_bank_id: bank.id, limit_question_count: 2 } }] },
      { token },
    );
    expect(bind.status).toBeLessThan(300);
    // an unbound bank's question is not part of the quiz
    const loose = ok(await t.post('/v1/question-banks', { name: `Loose ${Math.random()}` }, key()), 'bank');
    const looseQ = ok(await t.post('/v1/quiz-questions', { ...MC, quiz_question_bank: loose.id }, key()), 'loose question');
    const c = await quizCourse(t, org, quiz.id);
    const body = (answers: unknown[]) => ({ user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers });

    // own question + 2 of the bank's 4 are drawn: max_score 3 whatever is answered
    const one = await attempt(quiz.id, body([right(bankQs[0])]));
    expect(one.status).toBe(201);
    expect(one.body).toMatchObject({ score: 1, max_score: 3 });
    const two = await attempt(quiz.id, body([right(quiz.questions[0]), right(bankQs[1]), right(bankQs[3])]));
    expect(two.body).toMatchObject({ score: 3, max_score: 3 });
    // three of a bank limited to two: refused, nothing counted
    const three = await attempt(quiz.id, body([right(bankQs[0]), right(bankQs[1]), right(bankQs[2])]));
    expect(three.status).toBe(400);
    expect(Object.keys(three.body)).toEqual(['answers']);
    const outside = await attempt(quiz.id, body([right(looseQ)]));
    expect(outside.status).toBe(400);
    expect(outside.body).toEqual({ answers: [{ question_id: [expect.any(String)] }] });
    expect((await t.get(`/v1/quizzes/${quiz.id}/attempts?user_id=${c.learner.id}`, key())).body.count).toBe(2);

    // the quiz's own limit caps the whole draw
    ok(await t.patch(`/v1/quizzes/${quiz.id}`, { limit_question_count: 2 }, key()), 'limit');
    expect((await attempt(quiz.id, body([]))).body).toMatchObject({ score: 0, max_score: 2 });
    expect((await attempt(quiz.id, body([right(quiz.questions[0]), right(bankQs[2])]))).body).toMatchObject({ score: 2, max_score: 2 });
    const over = await attempt(quiz.id, body([right(quiz.questions[0]), right(bankQs[0]), right(bankQs[1])]));
    expect(over.status).toBe(400);
  });

  it('optional and ungraded questions: an unanswered optional question and an ungraded one do not count', async () => {
    const quiz = await makeQuiz(t, org, { passing_percentage_correct: 100 }, [MC, MC, MC]);
    const [a, b, x] = quiz.questions;
    // is_optional / is_graded are /v2 members
    const token = await t.tokenFor(org);
    const upd = await t.request('PATCH', '/v2/questions/', {
      token,
      body: {
        data: [
          { type: 'questions', id: b.id, attributes: { is_optional: true } },
          { type: 'questions', id: x.id, attributes: { is_graded: false } },
        ],
      },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data.map((d: any) => d.status ?? d.result?.id ?? d)).not.toContain('error');
    const c = await quizCourse(t, org, quiz.id);
    const res = await attempt(quiz.id, { user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers: [right(a), wrong(x)] });
    expect(res.body).toMatchObject({ score: 1, max_score: 1, passed: true });
  });

  it('a fixed number of SQL statements per attempt, whatever the number of questions', async () => {
    const counts: number[] = [];
    for (const n of [2, 20]) {
      const quiz = await makeQuiz(
        t,
        org,
        {},
        Array.from({ length: n }, () => MC),
      );
      const c = await quizCourse(t, org, quiz.id);
      // a first attempt materializes the progress rows; count a second one
      await attempt(quiz.id, { user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers: [] });
      const { result, count } = await countQueries(() => attempt(quiz.id, { user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers: quiz.questions.map(right) }));
      expect(result.status).toBe(201);
      counts.push(count);
    }
    expect(counts[1]).toBe(counts[0]);
  });

  it("GET /v1/quizzes/{quiz_id}/attempts: a quiz's attempts, oldest first, by learner, paginated; other organizations 404", async () => {
    const quiz = await makeQuiz(t, org, {}, [MC]);
    const c = await quizCourse(t, org, quiz.id);
    const second = await c.j.learner();
    await c.j.enroll(second.id, c.publishedCourseId);
    const ids: string[] = [];
    for (const u of [c.learner.id, second.id, c.learner.id]) {
      ids.push(ok(await attempt(quiz.id, { user: { id: u }, published_course_id: c.publishedCourseId, answers: [right(quiz.questions[0])] }), 'attempt').id);
    }
    const all = await t.get(`/v1/quizzes/${quiz.id}/attempts`, key());
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(3);
    expect(all.body.results.map((r: any) => r.id)).toEqual(ids);
    expect(all.body.results[0]).not.toHaveProperty('attempts_remaining');
    const mine = await t.get(`/v1/quizzes/${quiz.id}/attempts?user_id=${c.learner.id}&page_size=1`, key());
    expect(mine.body).toMatchObject({ count: 2, previous: null });
    expect(mine.body.results.map((r: any) => r.id)).toEqual([ids[0]]);
    expect(mine.body.next).toContain('page=2');
    const page2 = await t.get(`/v1/quizzes/${quiz.id}/attempts?user_id=${c.learner.id}&page_size=1&page=2`, key());
    expect(page2.body.results.map((r: any) => r.id)).toEqual([ids[2]]);
    expect((await t.get(`/v1/quizzes/${quiz.id}/attempts?user_id=nope`, key())).body.count).toBe(0);
    expect((await t.get(`/v1/quizzes/${quiz.id}/attempts`, { basic: other.api_key })).status).toBe(404);
    expect((await t.get(`/v1/quizzes/${encodeId('quiz', newUuid())}/attempts`, key())).status).toBe(404);
  });
});
