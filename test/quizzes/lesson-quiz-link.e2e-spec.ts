import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { twoOrgs } from '../support/two-orgs';

/** QUIZ lessons link a quiz of the caller's organization, on /v1 (content_quiz_id) and /v2 (quiz_id). */
describe('quiz lessons link a quiz of the organization', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let course: string;
  let mine: string;
  let deleted: string;
  let theirs: string;
  const key = () => ({ basic: org.api_key });
  beforeAll(async () => {
    t = await startTestApp();
    ({ a: org, b: other, tokenA: token } = await twoOrgs(t));
    course = (await t.post('/v1/courses', { title: 'C', short_description: 'S', enforce_sequential_navigation: false }, key())).body.id;
    mine = (await t.post('/v1/quizzes', { name: 'Mine' }, key())).body.id;
    deleted = (await t.post('/v1/quizzes', { name: 'Gone' }, key())).body.id;
    await t.delete(`/v1/quizzes/${deleted}`, key());
    theirs = (await t.post('/v1/quizzes', { name: 'Theirs' }, { basic: other.api_key })).body.id;
  });
  afterAll(() => t.close());
  const lessonCount = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM lessons`))[0].n;

  it('/v1 lessons: content_quiz_id must name a live quiz of the organization (create, update); null clears it', async () => {
    const before = await lessonCount();
    for (const bad of [theirs, deleted, encodeId('quiz', newUuid()), 'nope']) {
      const res = await t.post('/v1/lessons', { course_id: course, order: 1, title: 'Q', type: 'QUIZ', content_quiz_id: bad }, key());
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['content_quiz_id']);
    }
    expect(await lessonCount()).toBe(before);
    const ok = await t.post('/v1/lessons', { course_id: course, order: 1, title: 'Q', type: 'QUIZ', content_quiz_id: mine }, key());
    expect(ok.status).toBe(201);
    expect(ok.body.content_quiz_id).toBe(mine);
    expect((await t.patch(`/v1/lessons/${ok.body.id}`, { content_quiz_id: theirs }, key())).status).toBe(400);
    expect((await t.get(`/v1/lessons/${ok.body.id}`, key())).body.content_quiz_id).toBe(mine);
    expect((await t.patch(`/v1/lessons/${ok.body.id}`, { content_quiz_id: null }, key())).body.content_quiz_id).toBe(null);
    expect((await t.patch(`/v1/lessons/${ok.body.id}`, { content_quiz_id: mine }, key())).body.content_quiz_id).toBe(mine);
    // the same link on /v2
    expect((await t.get(`/v2/lessons/${ok.body.id}`, { token })).body.data.attributes.quiz_id).toBe(mine);
  });

  it('/v1 content items: a QUIZ block names a live quiz of the organization', async () => {
    const modular = (await t.post('/v1/lessons', { course_id: course, order: 2, title: 'M', type: 'MODULAR' }, key())).body.id;
    const bad = await t.post(`/v1/lessons/${modular}/content-items`, { header: 'h', order: 0, type: 'QUIZ', content_quiz_id: theirs }, key());
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['content_quiz_id']);
    const good = await t.post(`/v1/lessons/${modular}/content-items`, { header: 'h', order: 0, type: 'QUIZ', content_quiz_id: mine }, key());
    expect(good.status).toBe(201);
    expect(good.body.content_quiz_id).toBe(mine);
  });

  it('/v2 lessons: quiz_id (and a QUIZ content item quiz_id) must name a live quiz of the organization', async () => {
    const item = (attributes: Record<string, unknown>) => ({ type: 'lessons', attributes: { course_id: course, title: 'Q', ...attributes } });
    const before = await lessonCount();
    const res = await t.post(
      '/v2/lessons/',
      {
        data: [
          item({ type: 'QUIZ', quiz_id: theirs }),
          item({ type: 'QUIZ', quiz_id: deleted }),
          item({
            type: 'MODULAR',
            content_items: [
              { type: 'HTML', content_html: 'x' },
              { type: 'QUIZ', quiz_id: theirs },
            ],
          }),
          item({ type: 'QUIZ', quiz_id: mine }),
        ],
      },
      { token },
    );
    expect(res.status).toBe(207);
    expect(res.body.data.slice(0, 3).map((d: any) => [d.error.code, d.error.source.pointer])).toEqual([
      ['validation_error', '/data/0/attributes/quiz_id'],
      ['validation_error', '/data/1/attributes/quiz_id'],
      ['validation_error', '/data/2/attributes/content_items/1/quiz_id'],
    ]);
    expect(await lessonCount()).toBe(before + 1);
    const lesson = res.body.data[3].result;
    expect(lesson.attributes.quiz_id).toBe(mine);
    const upd = await t.patch('/v2/lessons/', { data: [{ type: 'lessons', id: lesson.id, attributes: { quiz_id: theirs } }] }, { token });
    expect(upd.body.data[0].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/0/attributes/quiz_id' } });
    expect((await t.get(`/v1/lessons/${lesson.id}`, key())).body.content_quiz_id).toBe(mine);
  });
});
