import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries } from '../support/fixtures';
import { twoOrgs } from '../support/two-orgs';
import { drfFlat } from '../support/drf';

const mc = (extra: Record<string, unknown> = {}) => ({
  html: '<p>2 + 2?</p>',
  type: 'MULTIPLE_CHOICE',
  answers: [
    { answer_text: '4', correct: true },
    { answer_text: '5', correct: false },
  ],
  ...extra,
});

describe('/v1 quizzes, quiz questions and question banks', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  const key = () => ({ basic: org.api_key });
  beforeAll(async () => {
    t = await startTestApp();
    ({ a: org, b: other } = await twoOrgs(t));
  });
  afterAll(() => t.close());

  const count = async (table: string) => (await t.ds.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

  it('creates a quiz with the published defaults, reads, lists, updates (PUT, PATCH) and deletes it', async () => {
    const created = await t.post('/v1/quizzes', { name: 'Safety' }, key());
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-z]+$/),
      name: 'Safety',
      html: '',
      passing_percentage_correct: 0,
      show_results_on_failure: false,
      max_attempts: 0,
      require_correct_response: false,
      randomize_questions: false,
      limit_question_count: 0,
      randomize_answers: false,
      time_limit_seconds: null,
      show_question_feedback: false,
      alignment: 'center',
    });
    const id = created.body.id;
    expect((await t.get(`/v1/quizzes/${id}`, key())).body).toEqual(created.body);

    const put = await t.request('PUT', `/v1/quizzes/${id}`, { ...key(), body: { name: 'Safety 2', max_attempts: 3, time_limit_seconds: 600, alignment: 'left' } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'Safety 2', max_attempts: 3, time_limit_seconds: 600, alignment: 'left', html: '' });
    // PUT needs the name; PATCH does not
    const putNoName = await t.request('PUT', `/v1/quizzes/${id}`, { ...key(), body: { max_attempts: 1 } });
    expect(putNoName.status).toBe(400);
    expect(putNoName.body).toEqual({ name: ['This field is required.'] });
    const patch = await t.patch(`/v1/quizzes/${id}`, { time_limit_seconds: null, passing_percentage_correct: 80 }, key());
    expect(patch.status).toBe(200);
    expect(patch.body).toMatchObject({ name: 'Safety 2', time_limit_seconds: null, passing_percentage_correct: 80, max_attempts: 3 });
    // read-modify-write round trip
    const { id: _id, ...readBack } = patch.body;
    expect((await t.request('PUT', `/v1/quizzes/${id}`, { ...key(), body: readBack })).status).toBe(200);

    expect((await t.delete(`/v1/quizzes/${id}`, key())).status).toBe(204);
    expect((await t.get(`/v1/quizzes/${id}`, key())).status).toBe(404);
    expect((await t.delete(`/v1/quizzes/${id}`, key())).status).toBe(404);
  });

  it('lists with name exact and case-sensitive, pages of 1000 by default', async () => {
    const o = await t.newOrg();
    const k = { basic: o.api_key };
    for (const name of ['Alpha', 'alpha', 'Alpha beta']) expect((await t.post('/v1/quizzes', { name }, k)).status).toBe(201);
    const all = await t.get('/v1/quizzes', k);
    expect(all.body.count).toBe(3);
    expect(all.body.results.map((q: any) => q.name)).toEqual(['Alpha', 'alpha', 'Alpha beta']);
    const exact = await t.get('/v1/quizzes?name=Alpha', k);
    expect(exact.body.results.map((q: any) => q.name)).toEqual(['Alpha']);
    expect((await t.get('/v1/quizzes?name=ALPHA', k)).body.count).toBe(0);
    const paged = await t.get('/v1/quizzes?page_size=2&page=2', k);
    expect(paged.body).toMatchObject({ count: 3, next: null, previous: expect.stringContaining('page_size=2') });
    expect(paged.body.results).toHaveLength(1);
    expect((await t.get('/v1/quizzes?page=9', k)).status).toBe(404);
  });

  it('refuses bad quiz input with 400 field errors and writes nothing', async () => {
    const before = await count('quizzes');
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(501) }, 'name'],
      [{ name: 'Q', max_attempts: -1 }, 'max_attempts'],
      [{ name: 'Q', passing_percentage_correct: 101 }, 'passing_percentage_correct'],
      [{ name: 'Q', limit_question_count: 'all' }, 'limit_question_count'],
      [{ name: 'Q', time_limit_seconds: 3600001 }, 'time_limit_seconds'],
      [{ name: 'Q', alignment: 'justify' }, 'alignment'],
      [{ name: 'Q', randomize_questions: 'yes' }, 'randomize_questions'],
      [{ name: 'Q\u0000' }, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await t.post('/v1/quizzes', body, key());
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual([field]);
    }
    expect(await count('quizzes')).toBe(before);
  });

  it('quiz questions: create under a quiz or a bank, read, update (PUT, PATCH), delete; the quiz and bank sub-lists', async () => {
    const quiz = (await t.post('/v1/quizzes', { name: 'Q' }, key())).body;
    const bank = (await t.post('/v1/question-banks', { name: 'Bank' }, key())).body;
    expect(bank).toEqual({ id: expect.stringMatching(/^[0-9a-z]+$/), name: 'Bank', question_count: 0, quiz_association_count: 0 });

    const q1 = await t.post('/v1/quiz-questions', mc({ quiz: quiz.id, correct_answer_feedback_html: '<p>Yes</p>' }), key());
    expect(q1.status).toBe(201);
    expect(q1.body).toEqual({
      id: expect.stringMatching(/^[0-9a-z]+$/),
      quiz: quiz.id,
      html: '<p>2 + 2?</p>',
      type: 'MULTIPLE_CHOICE',
      requires_manual_grading: false,
      case_sensitive: false,
      correct_answer_feedback_html: '<p>Yes</p>',
      incorrect_answer_feedback_html: '',
      answers: [
        { id: expect.stringMatching(/^[0-9a-z]+$/), answer_text: '4', correct: true, order: 0 },
        { id: expect.stringMatching(/^[0-9a-z]+$/), answer_text: '5', correct: false, order: 10 },
      ],
    });
    const fitb = await t.post('/v1/quiz-questions', { quiz: quiz.id, html: 'Capital of France?', type: 'FILL_IN_THE_BLANK', case_sensitive: true, answers: [{ answer_text: 'Paris' }] }, key());
    expect(fitb.status).toBe(201);
    expect(fitb.body.answers[0]).toMatchObject({ answer_text: 'Paris', correct: true });
    const free = await t.post('/v1/quiz-questions', { quiz_question_bank: bank.id, html: 'Why?', type: 'FREEFORM', requires_manual_grading: true }, key());
    expect(free.status).toBe(201);
    expect(free.body).toMatchObject({ quiz_question_bank: bank.id, answers: [], requires_manual_grading: true });
    expect(free.body).not.toHaveProperty('quiz'); // a bank's question: no quiz, left out

    expect((await t.get(`/v1/quiz-questions/${q1.body.id}`, key())).body).toEqual(q1.body);
    const list = await t.get(`/v1/quizzes/${quiz.id}/questions`, key());
    expect(list.body.count).toBe(2);
    expect(list.body.results.map((x: any) => [x.id, x.order])).toEqual([
      [q1.body.id, 10],
      [fitb.body.id, 20],
    ]);
    expect(list.body.results[0]).toEqual({
      id: q1.body.id,
      html: '<p>2 + 2?</p>',
      case_sensitive: false,
      requires_manual_grading: false,
      correct_answer_feedback_html: '<p>Yes</p>',
      incorrect_answer_feedback_html: '',
      answer_feedback_html: '',
      is_graded: true,
      is_optional: false,
      type: 'MULTIPLE_CHOICE',
      order: 10,
      answers: q1.body.answers,
    });
    expect((await t.get(`/v1/quizzes/${quiz.id}/questions/${fitb.body.id}`, key())).body.id).toBe(fitb.body.id);
    // a bank's question is not the quiz's
    expect((await t.get(`/v1/quizzes/${quiz.id}/questions/${free.body.id}`, key())).status).toBe(404);
    expect((await t.get(`/v1/question-banks/${bank.id}/questions`, key())).body.results.map((x: any) => x.id)).toEqual([free.body.id]);
    expect((await t.get(`/v1/question-banks/${bank.id}/questions/${free.body.id}`, key())).status).toBe(200);
    expect((await t.get(`/v1/question-banks/${bank.id}`, key())).body.question_count).toBe(1);

    // PUT needs html and type; answers sent replace the stored ones (new ids)
    const put = await t.request('PUT', `/v1/quiz-questions/${q1.body.id}`, {
      ...key(),
      body: { html: '<p>3 + 3?</p>', type: 'MULTIPLE_CHOICE', answers: [{ answer_text: '6', correct: true }, { answer_text: '7' }] },
    });
    expect(put.status).toBe(200);
    expect(put.body.answers.map((a: any) => a.answer_text)).toEqual(['6', '7']);
    expect(put.body.answers.map((a: any) => a.id)).not.toContain(q1.body.answers[0].id);
    expect((await t.request('PUT', `/v1/quiz-questions/${q1.body.id}`, { ...key(), body: { html: 'x' } })).body).toEqual({ type: ['This field is required.'] });
    const patch = await t.patch(`/v1/quiz-questions/${q1.body.id}`, { incorrect_answer_feedback_html: '<p>No</p>' }, key());
    expect(patch.status).toBe(200);
    expect(patch.body).toMatchObject({ html: '<p>3 + 3?</p>', incorrect_answer_feedback_html: '<p>No</p>' });
    // a question stays under its parent
    const move = await t.patch(`/v1/quiz-questions/${q1.body.id}`, { quiz_question_bank: bank.id }, key());
    expect(move.status).toBe(400);
    expect(Object.keys(move.body)).toEqual(['quiz_question_bank']);
    // a type change is checked against the stored answers
    const toFree = await t.patch(`/v1/quiz-questions/${q1.body.id}`, { type: 'FREEFORM' }, key());
    expect(toFree.status).toBe(400);
    expect(Object.keys(toFree.body).sort()).toEqual(['answers', 'correct_answer_feedback_html', 'incorrect_answer_feedback_html']);

    expect((await t.delete(`/v1/quizzes/${quiz.id}/questions/${fitb.body.id}`, key())).status).toBe(204);
    expect((await t.get(`/v1/quiz-questions/${fitb.body.id}`, key())).status).toBe(404);
    expect((await t.delete(`/v1/question-banks/${bank.id}/questions/${free.body.id}`, key())).status).toBe(204);
    expect((await t.delete(`/v1/quiz-questions/${q1.body.id}`, key())).status).toBe(204);
    expect((await t.get(`/v1/quizzes/${quiz.id}/questions`, key())).body.count).toBe(0);
  });

  it('quiz-question rules: one parent, html and type required, answers by type, case_sensitive and manual grading by type; nothing written', async () => {
    const quiz = (await t.post('/v1/quizzes', { name: 'Rules' }, key())).body;
    const bank = (await t.post('/v1/question-banks', { name: 'Rules bank' }, key())).body;
    const foreign = (await t.post('/v1/quizzes', { name: 'Theirs' }, { basic: other.api_key })).body;
    const before = await count('questions');
    const cases: [Record<string, unknown>, string[]][] = [
      [mc(), ['quiz', 'quiz_question_bank']],
      [mc({ quiz: quiz.id, quiz_question_bank: bank.id }), ['quiz', 'quiz_question_bank']],
      [mc({ quiz: foreign.id }), ['quiz']],
      [mc({ quiz: encodeId('quiz', newUuid()) }), ['quiz']],
      [mc({ quiz: bank.id }), ['quiz']],
      [mc({ quiz_question_bank: quiz.id }), ['quiz_question_bank']],
      [{ quiz: quiz.id, type: 'MULTIPLE_CHOICE', answers: [{ answer_text: 'a', correct: true }] }, ['html']],
      [{ quiz: quiz.id, html: 'x', answers: [] }, ['type']],
      [{ quiz: quiz.id, html: 'x', type: 'TRUE_FALSE' }, ['type']],
      [{ quiz: quiz.id, html: 'x', type: 'MULTIPLE_CHOICE' }, ['answers']],
      [{ quiz: quiz.id, html: 'x', type: 'MULTIPLE_ANSWER', answers: [] }, ['answers']],
      [{ quiz: quiz.id, html: 'x', type: 'FILL_IN_THE_BLANK' }, ['answers']],
      [
        mc({
          quiz: quiz.id,
          answers: [
            { answer_text: 'a', correct: true },
            { answer_text: 'b', correct: true },
          ],
        }),
        ['answers'],
      ],
      [mc({ quiz: quiz.id, answers: [{ answer_text: 'a' }] }), ['answers']],
      [{ quiz: quiz.id, html: 'x', type: 'MULTIPLE_ANSWER', answers: [{ answer_text: 'a' }] }, ['answers']],
      [mc({ quiz: quiz.id, answers: [{ correct: true }] }), ['answers.0.answer_text']],
      [mc({ quiz: quiz.id, answers: 'a' }), ['answers']],
      [mc({ quiz: quiz.id, answers: null }), ['answers']], // null reached the service (issue 25 item 15a)
      [mc({ quiz: quiz.id, answers: [null] }), ['answers.0']],
      [{ quiz: quiz.id, html: 'x', type: 'FREEFORM', answers: [{ answer_text: 'a' }] }, ['answers']],
      [mc({ quiz: quiz.id, case_sensitive: true }), ['case_sensitive']],
      [mc({ quiz: quiz.id, requires_manual_grading: true }), ['requires_manual_grading']],
      [{ quiz: quiz.id, html: 'x', type: 'FREEFORM', correct_answer_feedback_html: 'y' }, ['correct_answer_feedback_html']],
    ];
    for (const [body, fields] of cases) {
      const res = await t.post('/v1/quiz-questions', body, key());
      expect([res.status, Object.keys(drfFlat(res.body)).sort()]).toEqual([400, fields]);
    }
    expect(await count('questions')).toBe(before);
  });

  it('turning show_question_feedback off deletes the feedback entered earlier', async () => {
    const quiz = (await t.post('/v1/quizzes', { name: 'Feedback', show_question_feedback: true }, key())).body;
    const q = (await t.post('/v1/quiz-questions', mc({ quiz: quiz.id, correct_answer_feedback_html: 'Right', incorrect_answer_feedback_html: 'Wrong' }), key())).body;
    // an update that keeps it on keeps the feedback
    await t.patch(`/v1/quizzes/${quiz.id}`, { name: 'Feedback 2', show_question_feedback: true }, key());
    expect((await t.get(`/v1/quiz-questions/${q.id}`, key())).body).toMatchObject({ correct_answer_feedback_html: 'Right', incorrect_answer_feedback_html: 'Wrong' });
    const off = await t.patch(`/v1/quizzes/${quiz.id}`, { show_question_feedback: false }, key());
    expect(off.body.show_question_feedback).toBe(false);
    expect((await t.get(`/v1/quiz-questions/${q.id}`, key())).body).toMatchObject({ correct_answer_feedback_html: '', incorrect_answer_feedback_html: '' });
  });

  it('question banks: create, read, list, PUT, PATCH, delete (with its questions); bad input is 400', async () => {
    const o = await t.newOrg();
    const k = { basic: o.api_key };
    const b = (await t.post('/v1/question-banks', { name: 'B1' }, k)).body;
    await t.post('/v1/question-banks', { name: 'B2' }, k);
    const list = await t.get('/v1/question-banks', k);
    expect(list.body).toMatchObject({ count: 2, next: null, previous: null });
    expect(list.body.results.map((x: any) => x.name)).toEqual(['B1', 'B2']);
    expect((await t.request('PUT', `/v1/question-banks/${b.id}`, { ...k, body: { name: 'B1b' } })).body.name).toBe('B1b');
    expect((await t.request('PUT', `/v1/question-banks/${b.id}`, { ...k, body: {} })).status).toBe(400);
    expect((await t.patch(`/v1/question-banks/${b.id}`, { name: 'B1c' }, k)).body.name).toBe('B1c');
    expect((await t.patch(`/v1/question-banks/${b.id}`, { name: '' }, k)).status).toBe(400);
    expect((await t.post('/v1/question-banks', { name: 5 }, k)).status).toBe(400);
    const q = (await t.post('/v1/quiz-questions', mc({ quiz_question_bank: b.id }), k)).body;
    expect((await t.delete(`/v1/question-banks/${b.id}`, k)).status).toBe(204);
    expect((await t.get(`/v1/question-banks/${b.id}`, k)).status).toBe(404);
    expect((await t.get(`/v1/quiz-questions/${q.id}`, k)).status).toBe(404);
    expect((await t.get(`/v1/question-banks/${b.id}/questions`, k)).status).toBe(404);
  });

  it('another organization and malformed ids are 404 everywhere', async () => {
    const quiz = (await t.post('/v1/quizzes', { name: 'Mine' }, key())).body;
    const bank = (await t.post('/v1/question-banks', { name: 'Mine' }, key())).body;
    const q = (await t.post('/v1/quiz-questions', mc({ quiz: quiz.id }), key())).body;
    const theirs = { basic: other.api_key };
    for (const path of [`/v1/quizzes/${quiz.id}`, `/v1/quizzes/${quiz.id}/questions`, `/v1/quiz-questions/${q.id}`, `/v1/question-banks/${bank.id}`, '/v1/quizzes/nope', '/v1/quiz-questions/x']) {
      expect((await t.get(path, theirs)).status).toBe(404);
    }
    expect((await t.patch(`/v1/quizzes/${quiz.id}`, { name: 'Stolen' }, theirs)).status).toBe(404);
    expect((await t.delete(`/v1/quiz-questions/${q.id}`, theirs)).status).toBe(404);
    expect((await t.get(`/v1/quizzes/${quiz.id}`, key())).body.name).toBe('Mine');
    expect((await t.get(`/v1/quizzes`, theirs)).body.results.map((x: any) => x.id)).not.toContain(quiz.id);
  });

  it('a page of questions costs a fixed number of statements', async () => {
    const quiz = (await t.post('/v1/quizzes', { name: 'N+1' }, key())).body;
    const run = async () => (await countQueries(() => t.get(`/v1/quizzes/${quiz.id}/questions`, key()))).count;
    await t.post('/v1/quiz-questions', mc({ quiz: quiz.id }), key());
    await run();
    const one = await run();
    for (let i = 0; i < 5; i++) await t.post('/v1/quiz-questions', mc({ quiz: quiz.id }), key());
    expect(await run()).toBe(one);
  });
});
