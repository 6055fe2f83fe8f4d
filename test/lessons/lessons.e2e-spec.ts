import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { twoOrgs } from '../support/two-orgs';
import { countQueries, insertAsset, insertCourse, insertLesson } from '../support/fixtures';

describe('/v2/lessons', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let otherToken: string;
  const create = (attributes: Record<string, unknown>) => ({ type: 'lessons', attributes });
  // quizzes of the organization (a lesson's quiz_id must name one: issue 12)
  const quizPool: string[] = [];
  const quizId = () => quizPool.shift()!;

  beforeAll(async () => {
    t = await startTestApp();
    ({ a: org, b: other, tokenA: token, tokenB: otherToken } = await twoOrgs(t, { scopes: ['lessons:read', 'lessons:write'] }));
    for (let i = 0; i < 20; i++) quizPool.push((await t.post('/v1/quizzes', { name: `Quiz ${i}` }, { basic: org.api_key })).body.id);
  });
  afterAll(() => t.close());

  it('401 without a token, 403 without the scope', async () => {
    const c = await insertCourse(t, org);
    const l = await insertLesson(t, org, c.uuid);
    expect((await t.get('/v2/lessons/')).status).toBe(401);
    expect((await t.get(`/v2/lessons/${l.id}`)).status).toBe(401);
    expect((await t.post('/v2/lessons/', { data: [] })).status).toBe(401);
    const courses = await t.tokenFor(org, ['courses:read', 'courses:write']);
    expect((await t.get('/v2/lessons/', { token: courses })).status).toBe(403);
    expect((await t.get(`/v2/lessons/${l.id}`, { token: courses })).status).toBe(403);
    const read = await t.tokenFor(org, ['lessons:read']);
    expect((await t.post('/v2/lessons/', { data: [create({ course_id: c.id, type: 'HTML', title: 'x', content_html: 'y' })] }, { token: read })).status).toBe(403);
    expect((await t.patch('/v2/lessons/', { data: [{ type: 'lessons', id: l.id, attributes: { title: 'z' } }] }, { token: read })).status).toBe(403);
  });

  describe('list and read', () => {
    it('lists non-draft, non-deleted lessons of non-deleted courses of the organization only', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o, ['lessons:read']);
      const c = await insertCourse(t, o);
      const gone = await insertCourse(t, o, { deleted: true });
      const ok = await insertLesson(t, o, c.uuid, { title: 'Visible' });
      await insertLesson(t, o, c.uuid, { is_draft: true });
      await insertLesson(t, o, c.uuid, { deleted: true });
      const orphan = await insertLesson(t, o, gone.uuid);
      const theirs = await insertLesson(t, other, (await insertCourse(t, other)).uuid);
      const res = await t.get('/v2/lessons/', { token: tk });
      expect(res.status).toBe(200);
      expect(res.body.data.map((d: any) => d.id)).toEqual([ok.id]);
      const r = res.body.data[0];
      expect(r.type).toBe('lessons');
      expect(r.attributes).toMatchObject({ title: 'Visible', type: 'HTML', course_id: c.id, content_html: '<p>x</p>', quiz_id: null, description_html: '' });
      expect(r.attributes).not.toHaveProperty('content_items');
      expect(Object.keys(r.attributes).sort()).toEqual(['content_html', 'course_id', 'created_at', 'description_html', 'external_id', 'modified_at', 'order', 'quiz_id', 'title', 'type']);
      for (const id of [orphan.id, theirs.id, 'bad', encodeId('course', c.uuid)]) expect((await t.get(`/v2/lessons/${id}`, { token: tk })).status).toBe(404);
      expect((await t.get(`/v2/lessons/${ok.id}`, { token: tk })).status).toBe(200);
      expect((await t.get(`/v2/lessons/${theirs.id}`, { token: otherToken })).status).toBe(200);
    });

    it('filters: course_id exact (undecodable or foreign = empty), type (unknown = 422), title case-insensitive exact, updated_since with an offset', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o, ['lessons:read']);
      const a = await insertCourse(t, o);
      const b = await insertCourse(t, o);
      const old = new Date('2024-01-01T00:00:00Z');
      const l1 = await insertLesson(t, o, a.uuid, { title: 'Intro', type: 'HTML', updated_at: old });
      const l2 = await insertLesson(t, o, a.uuid, { title: 'Quiz time', type: 'QUIZ' });
      const l3 = await insertLesson(t, o, b.uuid, { title: 'intro', type: 'MODULAR' });
      const theirCourse = await insertCourse(t, other);
      await insertLesson(t, other, theirCourse.uuid);
      const ids = async (q: string) => {
        const res = await t.get(`/v2/lessons/?${q}`, { token: tk });
        expect(res.status).toBe(200);
        // rows made within one millisecond are ordered by id: compare as sets
        return res.body.data.map((d: any) => d.id).sort();
      };
      expect(await ids(`filter[course_id]=${a.id}`)).toEqual([l1.id, l2.id].sort());
      expect(await ids(`filter[course_id]=${b.id}`)).toEqual([l3.id].sort());
      expect(await ids('filter[course_id]=garbage')).toEqual([].sort());
      expect(await ids(`filter[course_id]=${theirCourse.id}`)).toEqual([].sort());
      expect(await ids(`filter[course_id]=${l1.id}`)).toEqual([].sort());
      expect(await ids('filter[type]=QUIZ')).toEqual([l2.id].sort());
      expect(await ids('filter[type]=MODULAR')).toEqual([l3.id].sort());
      expect(await ids('filter[title]=INTRO')).toEqual([l1.id, l3.id].sort());
      expect(await ids('filter[title]=intr')).toEqual([].sort());
      expect(await ids(`filter[updated_since]=${encodeURIComponent('2025-01-01T00:00:00Z')}`)).toEqual([l2.id, l3.id].sort());
      expect(await ids(`filter[updated_since]=${encodeURIComponent('2024-01-01T02:00:00+02:00')}`)).toEqual([l1.id, l2.id, l3.id].sort());
      expect(await ids(`filter[updated_since]=${encodeURIComponent('2024-01-01T00:00:00.001Z')}`)).toEqual([l2.id, l3.id].sort());
      expect(await ids(`filter[type]=HTML&filter[course_id]=${a.id}&filter[title]=intro`)).toEqual([l1.id].sort());

      for (const [q, param] of [
        ['filter[type]=PDF', 'filter[type]'],
        ['filter[type]=html', 'filter[type]'],
        ['filter[updated_since]=2024-01-01T00:00:00', 'filter[updated_since]'],
        ['filter[updated_since]=yesterday', 'filter[updated_since]'],
        ['filter[updated_since]=2024-13-01T00:00:00Z', 'filter[updated_since]'],
        ['filter[type]=HTML&filter[type]=QUIZ', 'filter[type]'],
        ['filter[title]=a&filter[title]=b', 'filter[title]'],
        ['page[size]=1000', 'page[size]'],
      ]) {
        const res = await t.get(`/v2/lessons/?${q}`, { token: tk });
        expect(res.status).toBe(422);
        expect(res.body.errors[0]).toMatchObject({ code: 'validation_error', source: { parameter: param } });
      }
      expect((await t.get('/v2/lessons/?page[cursor]=abc.def', { token: tk })).status).toBe(400);
    });

    it('paginates with a cursor', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o, ['lessons:read']);
      const c = await insertCourse(t, o);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await insertLesson(t, o, c.uuid)).id);
      const seen: string[] = [];
      let url: string | null = '/v2/lessons/?page[size]=2';
      let pages = 0;
      while (url) {
        const res: any = await t.get(url, { token: tk });
        seen.push(...res.body.data.map((d: any) => d.id));
        url = res.body.links.next ? new URL(res.body.links.next).pathname + new URL(res.body.links.next).search : null;
        pages++;
      }
      expect(pages).toBe(3);
      const all = (await t.get('/v2/lessons/?page[size]=100', { token: tk })).body.data.map((d: any) => d.id);
      expect(seen).toEqual(all);
      expect([...seen].sort()).toEqual([...ids].sort());
    });
  });

  describe('batch create', () => {
    it('creates HTML, MODULAR and QUIZ lessons and returns detail resources; order appends after the last lesson', async () => {
      const c = await insertCourse(t, org);
      await insertLesson(t, org, c.uuid, { order: 30 });
      await insertLesson(t, org, c.uuid, { order: 50, is_draft: true });
      const q = quizId();
      const res = await t.post(
        '/v2/lessons/',
        {
          data: [
            create({ course_id: c.id, type: 'HTML', title: 'H', content_html: '<p>hi</p>', description_html: '<i>d</i>' }),
            create({
              course_id: c.id,
              type: 'MODULAR',
              title: 'M',
              content_items: [
                { type: 'HTML', header: 'Intro', content_html: '<p>a</p>' },
                { type: 'QUIZ', quiz_id: q },
                { type: 'RATING', rating: { rating_question: 'How?', rating_scale: 10 } },
              ],
            }),
            create({ course_id: c.id, type: 'QUIZ', title: 'Q', quiz_id: q, order: 5 }),
            create({ course_id: c.id, type: 'HTML', title: 'H2', content_html: 'x' }),
          ],
        },
        { token },
      );
      expect(res.status).toBe(200);
      const [h, m, qz, h2] = res.body.data.map((d: any) => d.result);
      expect(h.attributes).toMatchObject({ type: 'HTML', title: 'H', order: 60, content_html: '<p>hi</p>', description_html: '<i>d</i>', course_id: c.id });
      expect(h.attributes).not.toHaveProperty('content_items');
      expect(m.attributes.order).toBe(70);
      expect(m.attributes.content_items).toHaveLength(3);
      expect(m.attributes.content_items[0]).toMatchObject({ type: 'HTML', header: 'Intro', content_html: '<p>a</p>' });
      expect(m.attributes.content_items[0].id).toMatch(/^[0-9a-z]+$/);
      expect(m.attributes.content_items[1]).toEqual({ id: expect.any(String), type: 'QUIZ', header: '', quiz_id: q });
      expect(m.attributes.content_items[2].rating).toMatchObject({ rating_question: 'How?', rating_scale: 10 });
      expect(qz.attributes).toMatchObject({ type: 'QUIZ', quiz_id: q, order: 5, content_html: null });
      expect(h2.attributes.order).toBe(80);
      const detail = await t.get(`/v2/lessons/${m.id}`, { token });
      expect(detail.body.data.attributes.content_items).toEqual(m.attributes.content_items);
      const empty = await insertCourse(t, org);
      const first = await t.post('/v2/lessons/', { data: [create({ course_id: empty.id, type: 'HTML', title: 'first', content_html: 'x' })] }, { token });
      expect(first.body.data[0].result.attributes.order).toBe(10);
    });

    it('concurrent batches appending to one course never get the same order', async () => {
      const c = await insertCourse(t, org);
      const batch = () => t.post('/v2/lessons/', { data: [1, 2, 3].map((i) => create({ course_id: c.id, type: 'HTML', title: `C${i}`, content_html: 'x' })) }, { token });
      const results = await Promise.all([batch(), batch(), batch(), batch(), batch()]);
      const orders = results.flatMap((r) => r.body.data.map((d: any) => d.result.attributes.order));
      expect(orders).toHaveLength(15);
      expect(new Set(orders).size).toBe(15);
      expect([...orders].sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, i) => (i + 1) * 10));
    });

    it('course_id must be a live course of the organization (not_found at /attributes/course_id)', async () => {
      const mine = await insertCourse(t, org);
      const theirs = await insertCourse(t, other);
      const gone = await insertCourse(t, org, { deleted: true });
      const draft = await insertCourse(t, org, { is_draft: true });
      const res = await t.post(
        '/v2/lessons/',
        { data: [mine.id, theirs.id, gone.id, draft.id, 'garbage'].map((course_id) => create({ course_id, type: 'HTML', title: 'T', content_html: 'x' })) },
        { token },
      );
      expect(res.status).toBe(207);
      expect(res.body.data[0].status).toBe('succeeded');
      for (let i = 1; i < 5; i++) expect(res.body.data[i].error).toMatchObject({ code: 'not_found', source: { pointer: `/data/${i}/attributes/course_id` } });
      const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM lessons WHERE course_id = $1`, [theirs.uuid]);
      expect(n).toBe(0);
    });

    it("content items may name only the organization's own assets (create and update)", async () => {
      const c = await insertCourse(t, org);
      const mine = await insertAsset(t, org);
      const theirs = await insertAsset(t, other);
      const missing = encodeId('asset', newUuid());
      const modular = (asset_id: string) =>
        create({
          course_id: c.id,
          title: 'M',
          type: 'MODULAR',
          content_items: [
            { type: 'HTML', content_html: 'x' },
            { type: 'VIDEO', asset_id },
          ],
        });
      const res = await t.post('/v2/lessons/', { data: [modular(mine.id), modular(theirs.id), modular(missing)] }, { token });
      expect(res.status).toBe(207);
      expect(res.body.data[0].status).toBe('succeeded');
      expect(res.body.data[0].result.attributes.content_items[1]).toMatchObject({ type: 'VIDEO', asset_id: mine.id });
      for (const i of [1, 2]) expect(res.body.data[i].error).toMatchObject({ code: 'validation_error', source: { pointer: `/data/${i}/attributes/content_items/1/asset_id` } });
      const id = res.body.data[0].id;
      const upd = await t.patch('/v2/lessons/', { data: [{ type: 'lessons', id, attributes: { content_items: [{ type: 'AUDIO', asset_id: theirs.id }] } }] }, { token });
      expect(upd.status).toBe(207);
      expect(upd.body.data[0].error.source.pointer).toBe('/data/0/attributes/content_items/0/asset_id');
      const stored = await t.get(`/v2/lessons/${id}`, { token });
      expect(stored.body.data.attributes.content_items[1].asset_id).toBe(mine.id);
    });

    it('per-type rules and bad input are validation_error with pointers, never a 500', async () => {
      const c = await insertCourse(t, org);
      const base = { course_id: c.id, title: 'T' };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base, type: 'HTML' }, '/attributes/content_html'],
        [{ ...base, type: 'HTML', content_html: '   ' }, '/attributes/content_html'],
        [{ ...base, type: 'HTML', content_html: 'x', quiz_id: quizId() }, '/attributes/quiz_id'],
        [{ ...base, type: 'HTML', content_html: 'x', content_items: [] }, '/attributes/content_items'],
        [{ ...base, type: 'MODULAR', content_html: 'x' }, '/attributes/content_html'],
        [{ ...base, type: 'QUIZ' }, '/attributes/quiz_id'],
        [{ ...base, type: 'QUIZ', quiz_id: 'not-a-quiz' }, '/attributes/quiz_id'],
        [{ ...base, type: 'ASSET' }, '/attributes/type'],
        [{ ...base, type: 'HTML', content_html: 'x', order: -1 }, '/attributes/order'],
        [{ ...base, type: 'HTML', content_html: 'x', order: 'first' }, '/attributes/order'],
        [{ ...base, type: 'HTML', content_html: 'x', title: '' }, '/attributes/title'],
        [{ ...base, type: 'HTML', content_html: 'x', title: '  ' }, '/attributes/title'],
        [{ ...base, type: 'MODULAR', content_items: 'abc' }, '/attributes/content_items'],
        [{ ...base, type: 'MODULAR', content_items: Array(16).fill({ type: 'HTML', content_html: 'x' }) }, '/attributes/content_items'],
        [{ ...base, type: 'MODULAR', content_items: [{ type: 'PDF' }] }, '/attributes/content_items/0/type'],
        [{ ...base, type: 'MODULAR', content_items: [{ type: 'HTML' }] }, '/attributes/content_items/0/content_html'],
        [{ ...base, type: 'MODULAR', content_items: [{ type: 'HTML', content_html: 'x', quiz_id: quizId() }] }, '/attributes/content_items/0/quiz_id'],
        [
          {
            ...base,
            type: 'MODULAR',
            content_items: [
              { type: 'QUIZ', quiz_id: quizId() },
              { type: 'QUIZ', quiz_id: quizId() },
            ],
          },
          '/attributes/content_items/1/type',
        ],
        [{ ...base, type: 'MODULAR', content_items: [{ type: 'RATING', rating: { rating_scale: 7 } }] }, '/attributes/content_items/0/rating/rating_scale'],
        [{ ...base, type: 'MODULAR', content_items: [{ type: 'RATING', rating: { colour: 'red' } }] }, '/attributes/content_items/0/rating/colour'],
        [{ ...base, type: 'MODULAR', content_items: [{ type: 'VIDEO', asset_id: 'bad' }] }, '/attributes/content_items/0/asset_id'],
        [{ ...base, type: 'MODULAR', content_items: [{ id: encodeId('contentItem', newUuid()), type: 'HTML', content_html: 'x' }] }, '/attributes/content_items/0/id'],
        [{ ...base, type: 'MODULAR', content_items: ['x'] }, '/attributes/content_items/0'],
        [{ ...base, course_id: 42, type: 'HTML', content_html: 'x' }, '/attributes/course_id'],
      ];
      const res = await t.post('/v2/lessons/', { data: cases.map(([a]) => create(a)) }, { token });
      expect(res.status).toBe(207);
      res.body.data.forEach((d: any, i: number) => {
        expect({ i, status: d.status, code: d.error?.code }).toEqual({ i, status: 'failed', code: 'validation_error' });
        expect({ i, pointer: d.error.source.pointer }).toEqual({ i, pointer: `/data/${i}${cases[i][1]}` });
      });
      const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM lessons WHERE course_id = $1`, [c.uuid]);
      expect(n).toBe(0);
      for (const body of [{ data: [] }, { data: {} }, 'x', { data: Array(101).fill(create(base)) }]) {
        expect((await t.post('/v2/lessons/', body, { token })).status).toBe(400);
      }
    });
  });

  describe('batch update', () => {
    it('updates title, description_html, content_html, order, content_items and quiz_id; type is ignored', async () => {
      const c = await insertCourse(t, org);
      const made = await t.post(
        '/v2/lessons/',
        {
          data: [
            create({ course_id: c.id, type: 'HTML', title: 'H', content_html: 'a' }),
            create({
              course_id: c.id,
              type: 'MODULAR',
              title: 'M',
              content_items: [
                { type: 'HTML', content_html: 'one' },
                { type: 'HTML', content_html: 'two' },
              ],
            }),
            create({ course_id: c.id, type: 'QUIZ', title: 'Q', quiz_id: quizId() }),
          ],
        },
        { token },
      );
      const [h, m, q] = made.body.data.map((d: any) => d.result);
      const keep = m.attributes.content_items[1].id;
      const newQuiz = quizId();
      const res = await t.patch(
        '/v2/lessons/',
        {
          data: [
            { type: 'lessons', id: h.id, attributes: { title: 'H2', description_html: '', content_html: 'b', order: 3, type: 'QUIZ' } },
            {
              type: 'lessons',
              id: m.id,
              attributes: {
                content_items: [
                  { type: 'HTML', content_html: 'new' },
                  { id: keep, type: 'HTML', header: 'kept', content_html: 'two!' },
                ],
              },
            },
            { type: 'lessons', id: q.id, attributes: { quiz_id: newQuiz } },
          ],
        },
        { token },
      );
      expect(res.status).toBe(200);
      const [h2, m2, q2] = res.body.data.map((d: any) => d.result);
      expect(h2.attributes).toMatchObject({ title: 'H2', description_html: '', content_html: 'b', order: 3, type: 'HTML' });
      expect(m2.attributes.content_items.map((x: any) => [x.header, x.content_html])).toEqual([
        ['', 'new'],
        ['kept', 'two!'],
      ]);
      expect(m2.attributes.content_items[1].id).toBe(keep);
      expect(q2.attributes.quiz_id).toBe(newQuiz);
      expect((await t.get(`/v2/lessons/${h.id}`, { token })).body.data.attributes.title).toBe('H2');
      const cleared = await t.patch('/v2/lessons/', { data: [{ type: 'lessons', id: m.id, attributes: { content_items: [] } }] }, { token });
      expect(cleared.body.data[0].result.attributes.content_items).toEqual([]);
    });

    it('not_found for malformed, missing, other-organization, draft and deleted ids; cross-type fields are validation_error', async () => {
      const c = await insertCourse(t, org);
      const mine = await insertLesson(t, org, c.uuid, { title: 'Mine' });
      const draft = await insertLesson(t, org, c.uuid, { title: 'Draft', is_draft: true });
      const gone = await insertLesson(t, org, c.uuid, { title: 'Gone', deleted: true });
      const theirs = await insertLesson(t, other, (await insertCourse(t, other)).uuid, { title: 'Theirs' });
      const res = await t.patch(
        '/v2/lessons/',
        {
          data: [
            { type: 'lessons', id: mine.id, attributes: { title: 'Mine 2' } },
            ...[theirs.id, draft.id, gone.id, 'x', c.id].map((id) => ({ type: 'lessons', id, attributes: { title: 'Hacked' } })),
            { type: 'lessons', id: mine.id, attributes: { quiz_id: quizId() } },
            { type: 'lessons', id: mine.id, attributes: { content_items: [] } },
            { type: 'lessons', id: mine.id, attributes: { title: null } },
            { type: 'lessons', id: mine.id, attributes: { title: '  ' } },
            { type: 'lessons', id: mine.id, attributes: { content_html: '' } },
            { type: 'lessons', id: mine.id, attributes: { order: 1.5 } },
            { type: 'lessons', id: mine.id },
          ],
        },
        { token },
      );
      expect(res.status).toBe(207);
      expect(res.body.data[0].status).toBe('succeeded');
      for (let i = 1; i <= 5; i++) expect(res.body.data[i].error).toMatchObject({ code: 'not_found', source: { pointer: `/data/${i}/id` } });
      const ptr = ['quiz_id', 'content_items', 'title', 'title', 'content_html', 'order'];
      ptr.forEach((f, k) => expect(res.body.data[6 + k].error).toMatchObject({ code: 'validation_error', source: { pointer: `/data/${6 + k}/attributes/${f}` } }));
      expect(res.body.data[12].error.code).toBe('validation_error');
      const rows = await t.ds.query(`SELECT title FROM lessons WHERE id = ANY($1::uuid[]) ORDER BY title`, [[theirs.uuid, draft.uuid, gone.uuid]]);
      expect(rows.map((r: any) => r.title)).toEqual(['Draft', 'Gone', 'Theirs']);
    });

    it('a batch create and update of 100 lessons take a handful of statements', async () => {
      const c = await insertCourse(t, org);
      const created = await countQueries(() =>
        t.post('/v2/lessons/', { data: Array.from({ length: 100 }, (_, i) => create({ course_id: c.id, type: 'HTML', title: `L${i}`, content_html: 'x' })) }, { token }),
      );
      expect(created.result.status).toBe(200);
      expect(created.result.body.data.map((d: any) => d.result.attributes.order)).toEqual(Array.from({ length: 100 }, (_, i) => (i + 1) * 10));
      expect(created.count).toBeLessThanOrEqual(10);
      const upd = await countQueries(() =>
        t.patch('/v2/lessons/', { data: created.result.body.data.map((d: any) => ({ type: 'lessons', id: d.id, attributes: { title: `${d.result.attributes.title}!` } })) }, { token }),
      );
      expect(upd.result.status).toBe(200);
      expect(upd.count).toBeLessThanOrEqual(10);
      // eslint-disable-next-line no-console
      console.log(`lessons: create 100 = ${created.count} statements, update 100 = ${upd.count}`);
    });
  });
});
