import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { RequestOptions, startTestApp, TestApp } from '../support/app';
import { countQueries } from '../support/fixtures';
import { twoOrgs } from '../support/two-orgs';

const quizItem = (attributes: Record<string, unknown>) => ({ type: 'quizzes', attributes });
const mcAttrs = (parent: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ...parent,
  question_html: '<p>Pick one</p>',
  question_type: 'MULTIPLE_CHOICE',
  answers: [{ answer_text: 'Right', correct: true }, { answer_text: 'Wrong' }],
  ...extra,
});

describe('/v2 quizzes, question banks, questions and assignments', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let auth: RequestOptions;
  let theirs: RequestOptions;
  let theirKey: RequestOptions;
  beforeAll(async () => {
    t = await startTestApp();
    const w = await twoOrgs(t);
    org = w.a;
    auth = { token: w.tokenA };
    theirs = { token: w.tokenB };
    theirKey = { basic: w.b.api_key };
  });
  afterAll(() => t.close());
  const key = () => ({ basic: org.api_key });
  const ok = (res: { status: number; body: any }) => {
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.map((d: any) => d.result);
  };
  const createQuiz = async (attributes: Record<string, unknown> = {}) => ok(await t.post('/v2/quizzes/', { data: [quizItem({ name: `Quiz ${newUuid()}`, ...attributes })] }, auth))[0];
  const createBank = async (name = `Bank ${newUuid()}`) => ok(await t.post('/v2/question-banks/', { data: [{ type: 'question-banks', attributes: { name } }] }, auth))[0];

  describe('quizzes', () => {
    it('creates with the published defaults, first wins on the name; the same quiz on /v1', async () => {
      const res = await t.post(
        '/v2/quizzes/',
        { data: [quizItem({ name: 'Alpha', description_html: '<p>Hi</p>', max_attempts: 2 }), quizItem({ name: ' alpha ' }), quizItem({ name: 'Beta' })] },
        auth,
      );
      expect(res.status).toBe(207);
      expect(res.body.summary).toEqual({ total: 3, succeeded: 2, failed: 1 });
      expect(res.body.data[1]).toEqual({ status: 'failed', id: null, error: { code: 'duplicate_in_batch', detail: expect.any(String), source: { pointer: '/data/1/attributes/name' } } });
      const a = res.body.data[0].result;
      expect(a).toEqual({
        type: 'quizzes',
        id: res.body.data[0].id,
        attributes: {
          name: 'Alpha',
          description_html: '<p>Hi</p>',
          passing_percentage_correct: 0,
          max_attempts: 2,
          require_correct_response: false,
          randomize_questions: false,
          limit_question_count: 0,
          randomize_answers: false,
          show_results_on_failure: false,
          show_question_feedback: false,
          time_limit_seconds: null,
          skip_start_screen: false,
          alignment: 'center',
          external_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          created_at: expect.any(String),
          modified_at: expect.any(String),
        },
        links: { self: expect.stringContaining(`/v2/quizzes/${a.id}`) },
      });
      const v1 = await t.get(`/v1/quizzes/${a.id}`, key());
      expect(v1.body).toMatchObject({ id: a.id, name: 'Alpha', html: '<p>Hi</p>', max_attempts: 2 });
      // what /v1 writes, /v2 reads
      await t.patch(`/v1/quizzes/${a.id}`, { html: '<p>Changed</p>', randomize_answers: true }, key());
      expect((await t.get(`/v2/quizzes/${a.id}`, auth)).body.data.attributes).toMatchObject({ description_html: '<p>Changed</p>', randomize_answers: true });
    });

    it('refuses bad items per item (missing or blank name, wrong types, unknown members) and writes nothing for them', async () => {
      const before = (await t.ds.query(`SELECT count(*)::int AS n FROM quizzes`))[0].n;
      const res = await t.post(
        '/v2/quizzes/',
        {
          data: [
            quizItem({}),
            quizItem({ name: '  ' }),
            quizItem({ name: 'X', passing_percentage_correct: 101 }),
            quizItem({ name: 'X3', max_attempts: null }),
            quizItem({ name: 'X4', alignment: 'justify' }),
            quizItem({ name: 'X5', html: '<p>v1 name</p>' }),
            { type: 'lessons', attributes: { name: 'X' } },
          ],
        },
        auth,
      );
      expect(res.status).toBe(207);
      expect(res.body.data.map((d: any) => [d.status, d.error.code, d.error.source.pointer])).toEqual([
        ['failed', 'validation_error', '/data/0/attributes/name'],
        ['failed', 'validation_error', '/data/1/attributes/name'],
        ['failed', 'validation_error', '/data/2/attributes/passing_percentage_correct'],
        ['failed', 'validation_error', '/data/3/attributes/max_attempts'],
        ['failed', 'validation_error', '/data/4/attributes/alignment'],
        ['failed', 'validation_error', '/data/5/attributes/html'],
        ['failed', 'validation_error', '/data/6/type'],
      ]);
      expect((await t.ds.query(`SELECT count(*)::int AS n FROM quizzes`))[0].n).toBe(before);
      expect((await t.post('/v2/quizzes/', { data: [] }, auth)).status).toBe(400);
      expect((await t.post('/v2/quizzes/', { data: Array.from({ length: 101 }, (_, i) => quizItem({ name: `n${i}` })) }, auth)).status).toBe(400);
    });

    it('lists in creation order with cursors, filter[name] (case-insensitive exact) and filter[updated_since]', async () => {
      const o = await t.newOrg();
      const tok = { token: await t.tokenFor(o) };
      const names = ['One', 'Two', 'Three', 'one'];
      ok(await t.post('/v2/quizzes/', { data: names.slice(0, 3).map((name) => quizItem({ name })) }, tok));
      ok(await t.post('/v2/quizzes/', { data: [quizItem({ name: 'one' })] }, tok));
      const p1 = await t.get('/v2/quizzes/?page[size]=3', tok);
      expect(p1.body.data.map((q: any) => q.attributes.name)).toEqual(names.slice(0, 3));
      expect(p1.body).toMatchObject({ has_more: true, meta: { page_size: 3 } });
      const p2 = await t.get(`/v2/quizzes/?page[size]=3&page[cursor]=${encodeURIComponent(p1.body.next_cursor)}`, tok);
      expect(p2.body.data.map((q: any) => q.attributes.name)).toEqual(['one']);
      expect(p2.body).toMatchObject({ has_more: false, next_cursor: null });
      expect((await t.get('/v2/quizzes/?filter[name]=ONE', tok)).body.data.map((q: any) => q.attributes.name)).toEqual(['One', 'one']);
      expect((await t.get('/v2/quizzes/?filter[name]=On', tok)).body.data).toEqual([]);
      const future = new Date(Date.now() + 60_000).toISOString();
      expect((await t.get(`/v2/quizzes/?filter[updated_since]=${future}`, tok)).body.data).toEqual([]);
      expect((await t.get(`/v2/quizzes/?filter[updated_since]=2020-01-01T00:00:00Z`, tok)).body.data).toHaveLength(4);
      expect((await t.get(`/v2/quizzes/?filter[updated_since]=2020-01-01T00:00:00`, tok)).status).toBe(422);
      expect((await t.get(`/v2/quizzes/?page[cursor]=tampered`, tok)).status).toBe(400);
      expect((await t.get(`/v2/quizzes/?page[size]=0`, tok)).status).toBe(422);
    });

    it('updates: repeated ids last write wins, unknown ids not_found; turning feedback off clears it', async () => {
      const q = await createQuiz({ show_question_feedback: true });
      const question = ok(await t.post('/v2/questions/', { data: [{ type: 'questions', attributes: mcAttrs({ quiz_id: q.id }, { correct_answer_feedback_html: 'Yes' }) }] }, auth))[0];
      const res = await t.patch(
        '/v2/quizzes/',
        {
          data: [
            { type: 'quizzes', id: q.id, attributes: { name: 'First', max_attempts: 1 } },
            { type: 'quizzes', id: encodeId('quiz', newUuid()), attributes: { name: 'Nobody' } },
            { type: 'quizzes', id: q.id, attributes: { name: 'Second', time_limit_seconds: 60, show_question_feedback: false } },
          ],
        },
        auth,
      );
      expect(res.status).toBe(207);
      expect(res.body.data[1].error).toMatchObject({ code: 'not_found', source: { pointer: '/data/1/id' } });
      expect(res.body.data[0].result.attributes).toMatchObject({ name: 'Second', max_attempts: 1, time_limit_seconds: 60 });
      expect(res.body.data[2].result.attributes).toMatchObject({ name: 'Second', max_attempts: 1, show_question_feedback: false });
      expect((await t.get(`/v2/questions/${question.id}`, auth)).body.data.attributes.correct_answer_feedback_html).toBe('');
      const clear = ok(await t.patch('/v2/quizzes/', { data: [{ type: 'quizzes', id: q.id, attributes: { time_limit_seconds: null, skip_start_screen: null } }] }, auth))[0];
      expect(clear.attributes).toMatchObject({ time_limit_seconds: null, skip_start_screen: null, name: 'Second' });
    });

    it('deletes: first wins, the quiz questions go with it, its banks stay (unbound)', async () => {
      const q = await createQuiz();
      const bank = await createBank();
      const own = ok(await t.post('/v2/questions/', { data: [{ type: 'questions', attributes: mcAttrs({ quiz_id: q.id }) }] }, auth))[0];
      const banked = ok(await t.post('/v2/questions/', { data: [{ type: 'questions', attributes: mcAttrs({ question_bank_id: bank.id }) }] }, auth))[0];
      ok(await t.post(`/v2/quizzes/${q.id}/question-banks/`, { data: [{ type: 'question-bank-assignments', attributes: { question_bank_id: bank.id } }] }, auth));
      const res = await t.request('DELETE', '/v2/quizzes/', {
        ...auth,
        body: {
          data: [
            { type: 'quizzes', id: q.id },
            { type: 'quizzes', id: q.id },
            { type: 'quizzes', id: 'nope' },
          ],
        },
      });
      expect(res.status).toBe(207);
      expect(res.body.data).toEqual([
        { status: 'deleted', id: q.id },
        { status: 'failed', id: null, error: expect.objectContaining({ code: 'duplicate_in_batch', source: { pointer: '/data/1/id' } }) },
        { status: 'failed', id: null, error: expect.objectContaining({ code: 'not_found', source: { pointer: '/data/2/id' } }) },
      ]);
      expect((await t.get(`/v2/quizzes/${q.id}`, auth)).status).toBe(404);
      expect((await t.get(`/v2/questions/${own.id}`, auth)).status).toBe(404);
      expect((await t.get(`/v2/questions/${banked.id}`, auth)).status).toBe(200);
      expect((await t.get(`/v1/question-banks/${bank.id}`, key())).body).toMatchObject({ question_count: 1, quiz_association_count: 0 });
      const again = await t.request('DELETE', '/v2/quizzes/', { ...auth, body: { data: [{ type: 'quizzes', id: q.id }] } });
      expect(again.body.data[0].error.code).toBe('not_found');
    });
  });

  describe('question banks', () => {
    it('create (first wins on the name), read, list with filters, update, delete with its questions and assignments', async () => {
      const res = await t.post(
        '/v2/question-banks/',
        {
          data: [
            { type: 'question-banks', attributes: { name: 'Geo' } },
            { type: 'question-banks', attributes: { name: 'GEO' } },
            { type: 'question-banks', attributes: {} },
          ],
        },
        auth,
      );
      expect(res.status).toBe(207);
      expect(res.body.data.map((d: any) => d.status)).toEqual(['succeeded', 'failed', 'failed']);
      const bank = res.body.data[0].result;
      expect(bank).toEqual({
        type: 'question-banks',
        id: expect.stringMatching(/^qbk[0-9a-z]+$/),
        attributes: { name: 'Geo', external_id: expect.any(String), created_at: expect.any(String), modified_at: expect.any(String) },
        links: { self: expect.stringContaining(`/v2/question-banks/${bank.id}`) },
      });
      expect((await t.get(`/v2/question-banks/${bank.id}`, auth)).body.data).toEqual(bank);
      expect((await t.get('/v2/question-banks/?filter[name]=geo', auth)).body.data.map((b: any) => b.id)).toEqual([bank.id]);
      const upd = ok(await t.patch('/v2/question-banks/', { data: [{ type: 'question-banks', id: bank.id, attributes: { name: 'Geography' } }] }, auth))[0];
      expect(upd.attributes.name).toBe('Geography');
      expect((await t.get(`/v1/question-banks/${bank.id}`, key())).body.name).toBe('Geography');
      const q = await createQuiz();
      const question = ok(await t.post('/v2/questions/', { data: [{ type: 'questions', attributes: mcAttrs({ question_bank_id: bank.id }) }] }, auth))[0];
      ok(await t.post(`/v2/quizzes/${q.id}/question-banks/`, { data: [{ type: 'question-bank-assignments', attributes: { question_bank_id: bank.id } }] }, auth));
      const del = await t.request('DELETE', '/v2/question-banks/', { ...auth, body: { data: [{ type: 'question-banks', id: bank.id }] } });
      expect(del.body.data).toEqual([{ status: 'deleted', id: bank.id }]);
      expect((await t.get(`/v2/questions/${question.id}`, auth)).status).toBe(404);
      expect((await t.get(`/v2/quizzes/${q.id}/question-banks/`, auth)).body).toEqual({ data: [] });
      expect((await t.get(`/v2/quizzes/${q.id}`, auth)).status).toBe(200);
    });
  });

  describe('questions', () => {
    it('create under a quiz or a bank with answers; exactly one live parent; per-type rules per item', async () => {
      const q = await createQuiz();
      const bank = await createBank();
      const foreign = (await t.post('/v1/quizzes', { name: 'Theirs' }, theirKey)).body;
      const res = await t.post(
        '/v2/questions/',
        {
          data: [
            { type: 'questions', attributes: mcAttrs({ quiz_id: q.id }) },
            {
              type: 'questions',
              attributes: { question_bank_id: bank.id, question_html: 'Capital?', question_type: 'FILL_IN_THE_BLANK', case_sensitive: true, answers: [{ answer_text: 'Paris', correct: false }] },
            },
            { type: 'questions', attributes: mcAttrs({}) },
            { type: 'questions', attributes: mcAttrs({ quiz_id: q.id, question_bank_id: bank.id }) },
            { type: 'questions', attributes: mcAttrs({ quiz_id: foreign.id }) },
            { type: 'questions', attributes: mcAttrs({ question_bank_id: encodeId('questionBank', newUuid()) }) },
            { type: 'questions', attributes: mcAttrs({ quiz_id: q.id }, { case_sensitive: true }) },
            { type: 'questions', attributes: { quiz_id: q.id, question_html: 'Why?', question_type: 'FREEFORM', answers: [{ answer_text: 'x' }] } },
            { type: 'questions', attributes: mcAttrs({ quiz_id: q.id }, { question_type: 'LINEAR_SCALE' }) },
            { type: 'questions', attributes: mcAttrs({ quiz_id: q.id }, { is_graded: false }) },
            {
              type: 'questions',
              attributes: mcAttrs(
                { quiz_id: q.id },
                {
                  answers: [
                    { answer_text: 'a', correct: true },
                    { answer_text: 'b', correct: true },
                  ],
                },
              ),
            },
          ],
        },
        auth,
      );
      expect(res.status).toBe(207);
      expect(res.body.data.map((d: any) => (d.status === 'succeeded' ? 'ok' : `${d.error.code} ${d.error.source.pointer}`))).toEqual([
        'ok',
        'ok',
        'validation_error /data/2/attributes/quiz_id',
        'validation_error /data/3/attributes/quiz_id',
        'not_found /data/4/attributes/quiz_id',
        'not_found /data/5/attributes/question_bank_id',
        'validation_error /data/6/attributes/case_sensitive',
        'validation_error /data/7/attributes/answers',
        'validation_error /data/8/attributes/question_type',
        'validation_error /data/9/attributes/is_graded',
        'validation_error /data/10/attributes/answers',
      ]);
      const mc = res.body.data[0].result;
      expect(mc.attributes).toMatchObject({
        question_html: '<p>Pick one</p>',
        question_type: 'MULTIPLE_CHOICE',
        quiz_id: q.id,
        question_bank_id: null,
        order: 10,
        is_graded: true,
        is_optional: false,
      });
      expect(mc.attributes.answers).toEqual([
        { id: expect.stringMatching(/^qans/), answer_text: 'Right', correct: true, order: 0 },
        { id: expect.stringMatching(/^qans/), answer_text: 'Wrong', correct: false, order: 10 },
      ]);
      // fill-in-the-blank answers are correct whatever was sent
      expect(res.body.data[1].result.attributes.answers[0]).toMatchObject({ answer_text: 'Paris', correct: true });
      // /v1 reads the same question
      expect((await t.get(`/v1/quiz-questions/${mc.id}`, key())).body).toMatchObject({ id: mc.id, quiz: q.id, html: '<p>Pick one</p>', answers: mc.attributes.answers });
      expect((await t.get(`/v1/quizzes/${q.id}/questions`, key())).body.count).toBe(1);
    });

    it('update: question members only, checked against the stored type; repeated ids last write wins; answers are never edited', async () => {
      const q = await createQuiz();
      const [mc, free] = ok(
        await t.post(
          '/v2/questions/',
          {
            data: [
              { type: 'questions', attributes: mcAttrs({ quiz_id: q.id }) },
              { type: 'questions', attributes: { quiz_id: q.id, question_html: 'Why?', question_type: 'FREEFORM' } },
            ],
          },
          auth,
        ),
      );
      const res = await t.patch(
        '/v2/questions/',
        {
          data: [
            { type: 'questions', id: mc.id, attributes: { question_html: 'First', is_optional: true } },
            { type: 'questions', id: mc.id, attributes: { case_sensitive: true } },
            { type: 'questions', id: mc.id, attributes: { answers: [] } },
            { type: 'questions', id: mc.id, attributes: { question_type: 'FREEFORM' } },
            { type: 'questions', id: free.id, attributes: { requires_manual_grading: true, answer_feedback_html: 'Thanks' } },
            { type: 'questions', id: mc.id, attributes: { question_html: 'Second' } },
            { type: 'questions', id: 'qstnope', attributes: { question_html: 'x' } },
          ],
        },
        auth,
      );
      expect(res.body.data.map((d: any) => (d.status === 'succeeded' ? 'ok' : `${d.error.code} ${d.error.source.pointer}`))).toEqual([
        'ok',
        'validation_error /data/1/attributes/case_sensitive',
        'validation_error /data/2/attributes/answers',
        'validation_error /data/3/attributes/question_type',
        'ok',
        'ok',
        'not_found /data/6/id',
      ]);
      expect(res.body.data[0].result.attributes).toMatchObject({ question_html: 'Second', is_optional: true, case_sensitive: false });
      expect(res.body.data[0].result.attributes.answers).toEqual(mc.attributes.answers);
      expect(res.body.data[4].result.attributes).toMatchObject({ requires_manual_grading: true, answer_feedback_html: 'Thanks' });
    });

    it('list with filter[quiz_id] and filter[question_bank_id]; unknown values match nothing; delete first wins', async () => {
      const q = await createQuiz();
      const bank = await createBank();
      const [a] = ok(await t.post('/v2/questions/', { data: [{ type: 'questions', attributes: mcAttrs({ quiz_id: q.id }) }] }, auth));
      const [b] = ok(await t.post('/v2/questions/', { data: [{ type: 'questions', attributes: mcAttrs({ question_bank_id: bank.id }) }] }, auth));
      expect((await t.get(`/v2/questions/?filter[quiz_id]=${q.id}`, auth)).body.data.map((x: any) => x.id)).toEqual([a.id]);
      expect((await t.get(`/v2/questions/?filter[question_bank_id]=${bank.id}`, auth)).body.data.map((x: any) => x.id)).toEqual([b.id]);
      expect((await t.get(`/v2/questions/?filter[quiz_id]=nope`, auth)).body.data).toEqual([]);
      expect((await t.get(`/v2/questions/?filter[quiz_id]=${q.id}`, theirs)).body.data).toEqual([]);
      const del = await t.request('DELETE', '/v2/questions/', {
        ...auth,
        body: {
          data: [
            { type: 'questions', id: a.id },
            { type: 'questions', id: a.id },
          ],
        },
      });
      expect(del.body.data.map((d: any) => d.status)).toEqual(['deleted', 'failed']);
      expect((await t.get(`/v2/questions/?filter[quiz_id]=${q.id}`, auth)).body.data).toEqual([]);
    });

    it('questions take either scope family', async () => {
      const q = await createQuiz();
      const banksOnly = { token: await t.tokenFor(org, ['question-banks:read']) };
      const quizzesOnly = { token: await t.tokenFor(org, ['quizzes:read']) };
      expect((await t.get('/v2/questions/', banksOnly)).status).toBe(200);
      expect((await t.get('/v2/questions/', quizzesOnly)).status).toBe(200);
      expect((await t.post('/v2/questions/', { data: [{ type: 'questions', attributes: mcAttrs({ quiz_id: q.id }) }] }, banksOnly)).status).toBe(403);
      expect((await t.get('/v2/quizzes/', banksOnly)).status).toBe(403);
    });
  });

  describe('question-bank assignments', () => {
    it('a missing quiz is 404 whatever the body', async () => {
      for (const quiz of [encodeId('quiz', newUuid()), 'nope', (await t.post('/v1/quizzes', { name: 'Theirs' }, theirKey)).body.id]) {
        for (const method of ['POST', 'PATCH', 'DELETE']) {
          for (const body of [{}, { data: [] }, { data: [{ type: 'question-bank-assignments', attributes: { question_bank_id: 'x' } }] }]) {
            const res = await t.request(method, `/v2/quizzes/${quiz}/question-banks/`, { ...auth, body });
            expect([method, res.status, res.body.errors[0].code]).toEqual([method, 404, 'not_found']);
          }
        }
        expect((await t.get(`/v2/quizzes/${quiz}/question-banks/`, auth)).status).toBe(404);
      }
    });

    it('bind (order derived, re-bind keeps what is omitted, first wins), list, update (first wins, unassigned not_found), unbind', async () => {
      const q = await createQuiz();
      const [b1, b2, b3] = [await createBank('B1'), await createBank('B2'), await createBank('B3')];
      const path = `/v2/quizzes/${q.id}/question-banks/`;
      const item = (attributes: Record<string, unknown>) => ({ type: 'question-bank-assignments', attributes });
      const bind = await t.post(
        path,
        {
          data: [
            item({ question_bank_id: b1.id, limit_question_count: 2, randomize_questions: true }),
            item({ question_bank_id: b2.id }),
            item({ question_bank_id: b1.id }),
            item({ question_bank_id: 'nope' }),
            item({ question_bank_id: b3.id, bogus: 1 }),
          ],
        },
        auth,
      );
      expect(bind.status).toBe(207);
      expect(bind.body.data.map((d: any) => (d.status === 'succeeded' ? 'ok' : `${d.error.code} ${d.error.source.pointer}`))).toEqual([
        'ok',
        'ok',
        'duplicate_in_batch /data/2/attributes/question_bank_id',
        'not_found /data/3/attributes/question_bank_id',
        'validation_error /data/4/attributes/bogus',
      ]);
      const a1 = bind.body.data[0].result;
      expect(a1).toEqual({
        type: 'question-bank-assignments',
        id: expect.stringMatching(/^qba/),
        attributes: { question_bank_id: b1.id, order: 10, randomize_questions: true, limit_question_count: 2, created_at: expect.any(String), modified_at: expect.any(String) },
      });
      expect(bind.body.data[1].result.attributes).toMatchObject({ question_bank_id: b2.id, order: 20, randomize_questions: false, limit_question_count: 0 });
      // re-bind: only what is sent changes
      const rebind = ok(await t.post(path, { data: [item({ question_bank_id: b1.id, order: 5 })] }, auth))[0];
      expect(rebind).toMatchObject({ id: a1.id, attributes: { order: 5, randomize_questions: true, limit_question_count: 2 } });
      expect((await t.get(path, auth)).body.data.map((a: any) => a.attributes.question_bank_id)).toEqual([b1.id, b2.id]);
      // /v1 reads the assignments
      const v1 = await t.get(`/v1/quizzes/${q.id}/question-banks`, key());
      expect(v1.body.results[0]).toEqual({ id: b1.id, name: 'B1', order: 5, randomize_questions: true, limit_question_count: 2, question_count: 0, quiz_association_count: 1 });
      expect((await t.get(`/v1/quizzes/${q.id}/question-banks/${b2.id}`, key())).body.order).toBe(20);
      expect((await t.get(`/v1/quizzes/${q.id}/question-banks/${b3.id}`, key())).status).toBe(404);

      const upd = await t.patch(
        path,
        {
          data: [
            item({ question_bank_id: b2.id, limit_question_count: 1 }),
            item({ question_bank_id: b2.id, limit_question_count: 9 }),
            item({ question_bank_id: b3.id, order: 1 }),
            item({ question_bank_id: b1.id }),
          ],
        },
        auth,
      );
      expect(upd.body.data.map((d: any) => (d.status === 'succeeded' ? 'ok' : `${d.error.code} ${d.error.source.pointer}`))).toEqual([
        'ok',
        'duplicate_in_batch /data/1/attributes/question_bank_id',
        'not_found /data/2/attributes/question_bank_id',
        'ok',
      ]);
      expect(upd.body.data[0].result.attributes.limit_question_count).toBe(1);
      expect(upd.body.data[3].result.attributes).toMatchObject({ order: 5, limit_question_count: 2 });

      const unbind = await t.request('DELETE', path, { ...auth, body: { data: [item({ question_bank_id: b2.id }), item({ question_bank_id: b3.id })] } });
      expect(unbind.body.data.map((d: any) => d.status)).toEqual(['deleted', 'failed']);
      expect((await t.get(path, auth)).body.data.map((a: any) => a.attributes.question_bank_id)).toEqual([b1.id]);
    });
  });

  it("another organization's objects are not_found in every batch and 404 on reads", async () => {
    const q = await createQuiz();
    const bank = await createBank();
    const [question] = ok(await t.post('/v2/questions/', { data: [{ type: 'questions', attributes: mcAttrs({ quiz_id: q.id }) }] }, auth));
    for (const path of [`/v2/quizzes/${q.id}`, `/v2/question-banks/${bank.id}`, `/v2/questions/${question.id}`]) expect((await t.get(path, theirs)).status).toBe(404);
    expect((await t.patch('/v2/quizzes/', { data: [{ type: 'quizzes', id: q.id, attributes: { name: 'Stolen' } }] }, theirs)).body.data[0].error.code).toBe('not_found');
    expect((await t.patch('/v2/question-banks/', { data: [{ type: 'question-banks', id: bank.id, attributes: { name: 'Stolen' } }] }, theirs)).body.data[0].error.code).toBe('not_found');
    expect((await t.patch('/v2/questions/', { data: [{ type: 'questions', id: question.id, attributes: { question_html: 'Stolen' } }] }, theirs)).body.data[0].error.code).toBe('not_found');
    for (const [path, type, id] of [
      ['/v2/quizzes/', 'quizzes', q.id],
      ['/v2/question-banks/', 'question-banks', bank.id],
      ['/v2/questions/', 'questions', question.id],
    ]) {
      expect((await t.request('DELETE', path, { ...theirs, body: { data: [{ type, id }] } })).body.data[0].error.code).toBe('not_found');
    }
    const theirQuiz = ok(await t.post('/v2/quizzes/', { data: [quizItem({ name: 'Theirs' })] }, theirs))[0];
    const bindForeign = await t.post(`/v2/quizzes/${theirQuiz.id}/question-banks/`, { data: [{ type: 'question-bank-assignments', attributes: { question_bank_id: bank.id } }] }, theirs);
    expect(bindForeign.body.data[0].error.code).toBe('not_found');
    expect((await t.get(`/v2/quizzes/${q.id}`, auth)).body.data.attributes.name).toBe(q.attributes.name);
    expect((await t.get(`/v2/questions/${question.id}`, auth)).body.data.attributes.question_html).toBe('<p>Pick one</p>');
  });

  it('batches and pages cost a fixed number of statements', async () => {
    const q = await createQuiz();
    const batch = (n: number) => ({ data: Array.from({ length: n }, () => ({ type: 'questions', attributes: mcAttrs({ quiz_id: q.id }) })) });
    await t.post('/v2/questions/', batch(1), auth);
    const one = (await countQueries(() => t.post('/v2/questions/', batch(1), auth))).count;
    const many = (await countQueries(() => t.post('/v2/questions/', batch(20), auth))).count;
    expect(many).toBe(one);
    const list = async () => (await countQueries(() => t.get(`/v2/questions/?filter[quiz_id]=${q.id}&page[size]=100`, auth))).count;
    const l1 = await list();
    await t.post('/v2/questions/', batch(10), auth);
    expect(await list()).toBe(l1);
  });
});
