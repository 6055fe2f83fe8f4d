import { startTestApp, TestApp } from '../support/app';
import { v2Pages } from '../support/fixtures';
import { checkV1UpdatedSince, expectIndexServes, pause, v1PageIds } from '../support/updated-since';
import { makeQuiz, MC, ok, quizCourse, right } from './attempts-support';

/**
 * `updated_since` on the quiz lists (docs/decisions/data-out.md, issue 32 point 1): /v1 quizzes,
 * question banks, a quiz's bank assignments, a bank's questions and a quiz's attempts; /v2
 * questions and a quiz's bank assignments with `filter[updated_since]`. Each takes the changed
 * rows only, ordered by last change, refuses a bad time (400 on /v1, 422 on /v2) and is served by
 * its index. /v2 quizzes and question banks: v2-updated-since.e2e-spec.ts; a quiz's questions:
 * test/commerce/v1-resource-updated-since.e2e-spec.ts.
 */
jest.setTimeout(120_000);

describe('quiz lists: updated_since', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const created = (r: { status: number; body: any }) => {
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  const done = (r: { status: number; text: string }) => expect({ status: r.status, text: r.status === 200 ? '' : r.text }).toEqual({ status: 200, text: '' });
  const v2Data = (r: { status: number; body: any }) => {
    expect(r.status).toBe(200);
    return r.body.data.map((d: any) => d.result);
  };

  /** 50 questions of `parent` ({quiz_id} or {question_bank_id}) in one /v2 batch. */
  const filler = async (o: { api_key: string } & Parameters<TestApp['tokenFor']>[0], parent: Record<string, string>) => {
    const attributes = { ...parent, question_html: '<p>filler</p>', question_type: 'FREEFORM' };
    v2Data(await t.post('/v2/questions/', { data: Array.from({ length: 50 }, () => ({ type: 'questions', attributes })) }, { token: await t.tokenFor(o) }));
  };

  it('/v1/quizzes and /v1/question-banks', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const quiz = async (name: string) => created(await t.post('/v1/quizzes', { name }, auth));
    await checkV1UpdatedSince(t, {
      url: '/v1/quizzes',
      auth,
      made: [await quiz('One'), await quiz('Two'), await quiz('Three')],
      change: async (id) => done(await t.patch(`/v1/quizzes/${id}`, { name: `Renamed ${id}` }, auth)),
      statement: /FROM quizzes q WHERE .*ORDER BY q\.updated_at/,
      index: 'quizzes_org_updated_id_idx',
    });
    const bank = async (name: string) => created(await t.post('/v1/question-banks', { name }, auth));
    await checkV1UpdatedSince(t, {
      url: '/v1/question-banks',
      auth,
      made: [await bank('One'), await bank('Two'), await bank('Three')],
      change: async (id) => done(await t.patch(`/v1/question-banks/${id}`, { name: `Renamed ${id}` }, auth)),
      statement: /FROM question_banks b WHERE .*ORDER BY b\.updated_at/,
      index: 'question_banks_org_updated_id_idx',
    });
  });

  it('/v1/question-banks/{id}/questions', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const bank = created(await t.post('/v1/question-banks', { name: 'Bank' }, auth));
    // the organization's other questions (another bank's): the bank's own index is then the cheaper
    await filler(o, { question_bank_id: created(await t.post('/v1/question-banks', { name: 'Other' }, auth)) });
    const question = async (html: string) => created(await t.post('/v1/quiz-questions', { ...MC, html, quiz_question_bank: bank }, auth));
    await checkV1UpdatedSince(t, {
      url: `/v1/question-banks/${bank}/questions`,
      auth,
      made: [await question('<p>1</p>'), await question('<p>2</p>'), await question('<p>3</p>')],
      change: async (id) => done(await t.patch(`/v1/quiz-questions/${id}`, { html: '<p>again</p>' }, auth)),
      statement: /FROM questions x WHERE .*ORDER BY x\.updated_at/,
      index: 'questions_bank_updated_idx',
      analyze: 'questions',
    });
  });

  it("a quiz's bank assignments: /v1/quizzes/{id}/question-banks?updated_since and /v2/quizzes/{id}/question-banks/?filter[updated_since]", async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const tok = { token: await t.tokenFor(o) };
    const quiz = created(await t.post('/v1/quizzes', { name: 'Q' }, auth));
    const banks: string[] = [];
    for (const name of ['B1', 'B2', 'B3']) banks.push(created(await t.post('/v1/question-banks', { name }, auth)));
    const path = `/v2/quizzes/${quiz}/question-banks/`;
    const item = (attributes: Record<string, unknown>) => ({ type: 'question-bank-assignments', attributes });
    const assignments = v2Data(await t.post(path, { data: banks.map((b) => item({ question_bank_id: b })) }, tok)).map((a: any) => a.id as string);
    const change = async (bankId: string) => {
      v2Data(await t.patch(path, { data: [item({ question_bank_id: bankId, limit_question_count: 1 })] }, tok));
    };
    await checkV1UpdatedSince(t, {
      url: `/v1/quizzes/${quiz}/question-banks`,
      auth,
      made: banks as [string, string, string],
      change,
      statement: /FROM question_bank_assignments a JOIN question_banks b .*ORDER BY a\.updated_at/s,
      index: 'question_bank_assignments_quiz_updated_idx',
    });

    // /v2: B3 then B1 changed (above); B2 once more, after `mid`
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    await change(banks[1]);
    const since = await t.get(`${path}?filter[updated_since]=${encodeURIComponent(mid)}`, tok);
    expect(since.status).toBe(200);
    expect(since.body.data.map((a: any) => a.id)).toEqual([assignments[1]]);
    const all = await t.get(`${path}?filter[updated_since]=2000-01-01T00:00:00Z`, tok);
    expect(all.body.data.map((a: any) => a.id)).toEqual([assignments[2], assignments[0], assignments[1]]);
    // without it: by order, as before
    expect((await t.get(path, tok)).body.data.map((a: any) => a.id)).toEqual(assignments);
    expect((await t.get(`${path}?filter[updated_since]=2999-01-01T00:00:00Z`, tok)).body.data).toEqual([]);
    const bad = await t.get(`${path}?filter[updated_since]=2026-01-01T00:00:00`, tok);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('filter[updated_since]');
    expect((await t.get(`/v2/quizzes/nothing/question-banks/?filter[updated_since]=2000-01-01T00:00:00Z`, tok)).status).toBe(404);
    await expectIndexServes(
      t,
      () => t.get(`${path}?filter[updated_since]=2000-01-01T00:00:00Z`, tok),
      /FROM question_bank_assignments a JOIN question_banks b .*ORDER BY a\.updated_at/s,
      'question_bank_assignments_quiz_updated_idx',
    );
  });

  it('/v1/quizzes/{id}/attempts: the attempts submitted since (an attempt never changes), on quiz_attempts_quiz_created_idx', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const quiz = await makeQuiz(t, o, {}, [MC]);
    const c = await quizCourse(t, o, quiz.id);
    const url = `/v1/quizzes/${quiz.id}/attempts`;
    const submit = async () => ok(await t.post(url, { user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers: [right(quiz.questions[0])] }, auth), 'attempt').id as string;
    const [a1, a2] = [await submit(), await submit()];
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    const a3 = await submit();
    const since = await t.get(`${url}?updated_since=${encodeURIComponent(mid)}`, auth);
    expect(since.status).toBe(200);
    expect({ count: since.body.count, ids: since.body.results.map((r: any) => r.id) }).toEqual({ count: 1, ids: [a3] });
    expect(await v1PageIds(t, `${url}?updated_since=2000-01-01T00:00:00Z`, auth)).toEqual([a1, a2, a3]);
    // with the list's own filter
    expect((await t.get(`${url}?user_id=${c.learner.id}&updated_since=${encodeURIComponent(mid)}`, auth)).body.results.map((r: any) => r.id)).toEqual([a3]);
    expect((await t.get(`${url}?updated_since=2999-01-01T00:00:00Z`, auth)).body).toMatchObject({ count: 0, results: [] });
    const bad = await t.get(`${url}?updated_since=soon`, auth);
    expect({ status: bad.status, body: Object.keys(bad.body) }).toEqual({ status: 400, body: ['updated_since'] });
    // declared in the OpenAPI document
    const op = (await t.get('/openapi.json')).body.paths['/v1/quizzes/{quiz_id}/attempts'].get;
    expect(op.parameters.filter((x: any) => x.name === 'updated_since' && x.in === 'query')).toHaveLength(1);
    await expectIndexServes(t, () => t.get(`${url}?updated_since=2000-01-01T00:00:00Z`, auth), /FROM quiz_attempts t WHERE .*ORDER BY t\.created_at/, 'quiz_attempts_quiz_created_idx');
  });

  it('/v2/questions/?filter[updated_since]: changed questions by last change across cursor pages, alone or with filter[quiz_id]', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const tok = { token: await t.tokenFor(o) };
    const quiz = created(await t.post('/v1/quizzes', { name: 'Q' }, auth));
    const other = created(await t.post('/v1/quizzes', { name: 'Other' }, auth));
    const attrs = (parent: string, n: number) => ({
      quiz_id: parent,
      question_html: `<p>${n}</p>`,
      question_type: 'MULTIPLE_CHOICE',
      answers: [{ answer_text: 'Right', correct: true }, { answer_text: 'Wrong' }],
    });
    const make = async (parent: string, n: number) => v2Data(await t.post('/v2/questions/', { data: [{ type: 'questions', attributes: attrs(parent, n) }] }, tok))[0].id as string;
    const [q1, q2, q3] = [await make(quiz, 1), await make(quiz, 2), await make(quiz, 3)];
    const x1 = await make(other, 4);
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    const change = async (id: string) => {
      v2Data(await t.patch('/v2/questions/', { data: [{ type: 'questions', id, attributes: { question_html: '<p>again</p>' } }] }, tok));
      await pause(5);
    };
    await change(q3);
    await change(x1);
    await change(q1);
    const ids = (rows: any[]) => rows.map((r) => r.id);
    const enc = encodeURIComponent(mid);
    expect(ids(await v2Pages(t, `/v2/questions/?filter[updated_since]=${enc}`, tok.token))).toEqual([q3, x1, q1]);
    expect(ids(await v2Pages(t, `/v2/questions/?filter[updated_since]=2000-01-01T00:00:00Z&page[size]=1`, tok.token))).toEqual([q2, q3, x1, q1]);
    expect(ids(await v2Pages(t, `/v2/questions/?filter[quiz_id]=${quiz}&filter[updated_since]=${enc}&page[size]=1`, tok.token))).toEqual([q3, q1]);
    // without it: creation order, as before
    expect(ids(await v2Pages(t, `/v2/questions/?filter[quiz_id]=${quiz}`, tok.token))).toEqual([q1, q2, q3]);
    expect((await t.get(`/v2/questions/?filter[updated_since]=2999-01-01T00:00:00Z`, tok)).body.data).toEqual([]);
    const bad = await t.get(`/v2/questions/?filter[updated_since]=yesterday`, tok);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('filter[updated_since]');
    // another organization's questions are never in it
    const stranger = await t.newOrg();
    expect((await t.get(`/v2/questions/?filter[updated_since]=2000-01-01T00:00:00Z`, { token: await t.tokenFor(stranger) })).body.data).toEqual([]);
    // the organization's other questions (another quiz's): for one quiz its own index is then the cheaper
    await filler(o, { quiz_id: created(await t.post('/v1/quizzes', { name: 'Filler' }, auth)) });
    await expectIndexServes(
      t,
      () => t.get(`/v2/questions/?filter[updated_since]=2000-01-01T00:00:00Z`, tok),
      /FROM questions x WHERE .*ORDER BY x\.updated_at/,
      'questions_org_updated_idx',
      'questions',
    );
    await expectIndexServes(
      t,
      () => t.get(`/v2/questions/?filter[quiz_id]=${quiz}&filter[updated_since]=2000-01-01T00:00:00Z`, tok),
      /FROM questions x WHERE .*ORDER BY x\.updated_at/,
      'questions_quiz_updated_idx',
    );
  });
});
