import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { journey } from '../support/learner-journey';
import { twoOrgs } from '../support/two-orgs';
import { FITB, FREE, MA, MC, makeQuiz, ok, quizCourse, right } from './attempts-support';
import { drfFlat } from '../support/drf';

jest.setTimeout(60_000);

/** Graded quiz attempts: who may attempt what, bad input (400, nothing counted), max_attempts under concurrency. */
describe('POST /v1/quizzes/{quiz_id}/attempts: references, bad input and max_attempts', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  const key = () => ({ basic: org.api_key });
  beforeAll(async () => {
    t = await startTestApp();
    ({ a: org, b: other } = await twoOrgs(t));
  });
  afterAll(() => t.close());

  const attempts = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM quiz_attempts`))[0].n as number;
  const progress = async () => JSON.stringify(await t.ds.query(`SELECT id, completed_at, score, max_score, success_status FROM lesson_progress ORDER BY id`));

  it('bad input is a 400 at the member and counts no attempt, writes no progress', async () => {
    const quiz = await makeQuiz(t, org, { max_attempts: 1 }, [MC, MA, FITB, FREE]);
    const c = await quizCourse(t, org, quiz.id);
    const [mc, ma, fitb, free] = quiz.questions;
    const otherQuiz = await makeQuiz(t, org, {}, [MC]);
    const base = { user: { id: c.learner.id }, published_course_id: c.publishedCourseId };
    const theirs = await journey(t, other).learner();
    const unenrolled = await c.j.learner();
    const noQuizCourse = await c.j.course([{}]);
    const cases: [unknown, string[]][] = [
      [{}, ['user', 'published_course_id', 'answers']],
      [{ ...base }, ['answers']],
      [{ ...base, answers: 'x' }, ['answers']],
      [{ ...base, answers: [{}] }, ['answers.0.question_id']],
      [{ ...base, user: 'x', answers: [] }, ['user']],
      [{ ...base, user: {}, answers: [] }, ['user.id']],
      [{ ...base, user: { id: theirs.id }, answers: [] }, ['user']],
      [{ ...base, user: { id: unenrolled.id }, answers: [] }, ['user']],
      [{ ...base, published_course_id: encodeId('publishedCourse', newUuid()), answers: [] }, ['published_course_id']],
      [{ ...base, published_course_id: noQuizCourse.publishedCourseId, answers: [] }, ['published_course_id']],
      [{ ...base, answers: [{ question_id: 'nope', text: 'x' }] }, ['answers.0.question_id']],
      [{ ...base, answers: [right(otherQuiz.questions[0])] }, ['answers.0.question_id']],
      [{ ...base, answers: [right(mc), right(mc)] }, ['answers.1.question_id']],
      [{ ...base, answers: [{ question_id: mc.id, answer_ids: [mc.answers[0].id, mc.answers[1].id] }] }, ['answers.0.answer_ids']],
      [{ ...base, answers: [{ question_id: mc.id, answer_ids: [] }] }, ['answers.0.answer_ids']],
      [{ ...base, answers: [{ question_id: mc.id, answer_ids: [ma.answers[0].id] }] }, ['answers.0.answer_ids']],
      [{ ...base, answers: [{ question_id: ma.id, answer_ids: [ma.answers[0].id, ma.answers[0].id] }] }, ['answers.0.answer_ids']],
      [{ ...base, answers: [{ question_id: mc.id, text: '4' }] }, ['answers.0.text']],
      [{ ...base, answers: [{ question_id: mc.id }] }, ['answers.0.answer_ids']],
      [{ ...base, answers: [{ question_id: fitb.id, answer_ids: [fitb.answers[0].id] }] }, ['answers.0.answer_ids']],
      [{ ...base, answers: [{ question_id: free.id }] }, ['answers.0.text']],
      [{ ...base, answers: [{ question_id: fitb.id, text: 5 }] }, ['answers.0.text']],
      [{ ...base, answers: [{ question_id: fitb.id, text: 'a\u0000b' }] }, ['answers.0.text']],
      [{ ...base, answers: [{ question_id: mc.id, answer_ids: 'x' }] }, ['answers.0.answer_ids']],
      // null where a list or an object is expected (answer_ids: null was a 500, issue 25 item 15a)
      [{ ...base, answers: [{ question_id: mc.id, answer_ids: null }] }, ['answers.0.answer_ids']],
      [{ ...base, answers: [{ question_id: mc.id, answer_ids: [null] }] }, ['answers.0.answer_ids']],
      [{ ...base, answers: [null] }, ['answers.0']],
      [{ ...base, answers: null }, ['answers']],
      [{ ...base, user: null, answers: [] }, ['user']],
    ];
    const before = [await attempts(), await progress()];
    for (const [body, fields] of cases) {
      const res = await t.post(`/v1/quizzes/${quiz.id}/attempts`, body, key());
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect({ body, fields: Object.keys(drfFlat(res.body)).sort() }).toEqual({ body, fields: [...fields].sort() });
    }
    expect([await attempts(), await progress()]).toEqual(before);
    // max_attempts 1: the one allowed attempt is still there after all those refusals
    const good = await t.post(`/v1/quizzes/${quiz.id}/attempts`, { ...base, answers: [right(mc)] }, key());
    expect(good.status).toBe(201);
    expect(good.body).toMatchObject({ attempt_number: 1, attempts_remaining: 0 });
  });

  it("the quiz in the path: another organization's, a deleted one and a random id are 404", async () => {
    const quiz = await makeQuiz(t, org, {}, [MC]);
    const c = await quizCourse(t, org, quiz.id);
    const body = { user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers: [right(quiz.questions[0])] };
    const gone = await makeQuiz(t, org, {}, [MC]);
    ok(await t.delete(`/v1/quizzes/${gone.id}`, key()), 'delete');
    const before = await attempts();
    for (const id of [gone.id, encodeId('quiz', newUuid()), 'nope']) {
      const res = await t.post(`/v1/quizzes/${id}/attempts`, body, key());
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: expect.any(String) });
    }
    // org B cannot attempt org A's quiz, even naming A's learner
    expect((await t.post(`/v1/quizzes/${quiz.id}/attempts`, body, { basic: other.api_key })).status).toBe(404);
    expect(await attempts()).toBe(before);
  });

  it('an inactive enrollment cannot attempt; a deleted quiz lesson no longer makes the course one with the quiz', async () => {
    const quiz = await makeQuiz(t, org, {}, [MC]);
    const c = await quizCourse(t, org, quiz.id);
    const enrollments = await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}/enrollments`, key());
    const enrollment = enrollments.body.results.find((e: any) => e.user.id === c.learner.id);
    ok(await t.patch(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}/enrollments/${enrollment.id}`, { active: false }, key()), 'deactivate');
    const body = { user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers: [] };
    const inactive = await t.post(`/v1/quizzes/${quiz.id}/attempts`, body, key());
    expect(inactive.status).toBe(400);
    expect(inactive.body.user).toEqual(['The user has no active enrollment in this published course.']);

    const c2 = await quizCourse(t, org, quiz.id);
    ok(await t.delete(`/v1/lessons/${c2.quizLesson}`, key()), 'delete lesson');
    const noLesson = await t.post(`/v1/quizzes/${quiz.id}/attempts`, { ...body, user: { id: c2.learner.id }, published_course_id: c2.publishedCourseId }, key());
    expect(noLesson.status).toBe(400);
    expect(noLesson.body.published_course_id).toEqual(['This published course has no lesson with this quiz.']);
  });

  it('max_attempts: the attempt after the last allowed one is refused (400) and counts nothing; 0 is unlimited', async () => {
    const quiz = await makeQuiz(t, org, { max_attempts: 2 }, [MC]);
    const c = await quizCourse(t, org, quiz.id);
    const body = { user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers: [right(quiz.questions[0])] };
    expect((await t.post(`/v1/quizzes/${quiz.id}/attempts`, body, key())).body).toMatchObject({ attempt_number: 1, attempts_remaining: 1 });
    expect((await t.post(`/v1/quizzes/${quiz.id}/attempts`, body, key())).body).toMatchObject({ attempt_number: 2, attempts_remaining: 0 });
    const third = await t.post(`/v1/quizzes/${quiz.id}/attempts`, body, key());
    expect(third.status).toBe(400);
    expect(third.body).toEqual({ detail: 'The maximum number of attempts (2) at this quiz has been reached.' });
    // raising the limit allows one more
    ok(await t.patch(`/v1/quizzes/${quiz.id}`, { max_attempts: 3 }, key()), 'raise');
    expect((await t.post(`/v1/quizzes/${quiz.id}/attempts`, body, key())).body).toMatchObject({ attempt_number: 3 });
    // the limit is per learner: another learner has their own attempts
    const second = await c.j.learner();
    await c.j.enroll(second.id, c.publishedCourseId);
    expect((await t.post(`/v1/quizzes/${quiz.id}/attempts`, { ...body, user: { id: second.id } }, key())).body).toMatchObject({ attempt_number: 1 });
    // unlimited
    const open = await makeQuiz(t, org, { max_attempts: 0 }, [MC]);
    const c2 = await quizCourse(t, org, open.id);
    for (let i = 1; i <= 5; i++) {
      const res = await t.post(`/v1/quizzes/${open.id}/attempts`, { ...body, user: { id: c2.learner.id }, published_course_id: c2.publishedCourseId, answers: [] }, key());
      expect(res.body).toMatchObject({ attempt_number: i, attempts_remaining: null });
    }
  });

  it('max_attempts holds under concurrency: 8 parallel attempts at max_attempts 2 record exactly 2', async () => {
    const quiz = await makeQuiz(t, org, { max_attempts: 2, passing_percentage_correct: 100 }, [MC]);
    const c = await quizCourse(t, org, quiz.id);
    const body = { user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers: [right(quiz.questions[0])] };
    const results = await Promise.all(Array.from({ length: 8 }, () => t.post(`/v1/quizzes/${quiz.id}/attempts`, body, key())));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 400, 400, 400, 400, 400, 400]);
    expect(
      results
        .filter((r) => r.status === 201)
        .map((r) => r.body.attempt_number)
        .sort(),
    ).toEqual([1, 2]);
    const listed = await t.get(`/v1/quizzes/${quiz.id}/attempts?user_id=${c.learner.id}`, key());
    expect(listed.body.count).toBe(2);
    // the lesson completed once
    const [lesson] = await c.j.lessons(c.learner.id, c.publishedCourseId);
    expect(lesson.lesson_progress).toMatchObject({ success_status: 'PASSED', score: 1, max_score: 1 });
    expect(lesson.lesson_progress.completed_at).toBe(results.find((r) => r.body.attempt_number === 1)!.body.submitted_at);
  });

  it('scopes: submitting takes quizzes:write or enrollments:write; listing quizzes:read or enrollments:read', async () => {
    const quiz = await makeQuiz(t, org, {}, [MC]);
    const c = await quizCourse(t, org, quiz.id);
    const body = { user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers: [] };
    const readOnly = await t.tokenFor(org, ['quizzes:read']);
    expect((await t.post(`/v1/quizzes/${quiz.id}/attempts`, body, { token: readOnly })).status).toBe(403);
    expect((await t.get(`/v1/quizzes/${quiz.id}/attempts`, { token: readOnly })).status).toBe(200);
    const progressWriter = await t.tokenFor(org, ['enrollments:write']);
    expect((await t.post(`/v1/quizzes/${quiz.id}/attempts`, body, { token: progressWriter })).status).toBe(201);
    const unrelated = await t.tokenFor(org, ['courses:read']);
    expect((await t.get(`/v1/quizzes/${quiz.id}/attempts`, { token: unrelated })).status).toBe(403);
  });
});
