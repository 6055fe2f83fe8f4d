import { startTestApp, TestApp } from '../support/app';
import { insertAsset, insertCourse, insertLesson } from '../support/fixtures';
import { decodeId, encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

describe('/v1 lesson content items', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let course: { uuid: string; id: string };
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org);
    course = await insertCourse(t, org);
  });
  afterAll(() => t.close());
  const key = () => ({ basic: org.api_key });
  const modular = async (o: CreatedOrg = org, c = course) => insertLesson(t, o, c.uuid, { type: 'MODULAR', content_html: null });
  const path = (lessonId: string, id = '') => `/v1/lessons/${lessonId}/content-items${id ? `/${id}` : ''}`;

  for (const mode of ['api key', 'bearer'] as const) {
    it(`create, read, list and update (PUT, PATCH) with the ${mode}; there is no delete`, async () => {
      const auth = mode === 'api key' ? { basic: org.api_key } : { token };
      const lesson = await modular();
      const asset = (await insertAsset(t, org)).id;
      const created = await t.post(path(lesson.id), { header: 'Intro', order: 2, type: 'HTML', content_html: '<p>hi</p>' }, auth);
      expect(created.status).toBe(201);
      const item = created.body;
      expect(item).toEqual({
        id: expect.stringMatching(/^[0-9a-z]+$/),
        lesson_id: lesson.id,
        header: 'Intro',
        order: 2,
        type: 'HTML',
        content_html: '<p>hi</p>',
      });
      const first = (await t.post(path(lesson.id), { header: 'Video', order: 1, type: 'ASSET', content_asset_id: asset, lesson_id: lesson.id }, auth)).body;
      expect(first.content_asset_id).toBe(asset);

      expect((await t.get(path(lesson.id, item.id), auth)).body).toEqual(item);
      const list = await t.get(path(lesson.id), auth);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ count: 2, next: null, previous: null, results: [first, item] });

      const put = await t.request('PUT', path(lesson.id, item.id), { ...auth, body: { header: 'Put header' } });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ ...item, header: 'Put header' });
      const patch = await t.patch(path(lesson.id, item.id), { order: 0, content_html: '<p>new</p>' }, auth);
      expect(patch.status).toBe(200);
      expect(patch.body).toEqual({ ...item, header: 'Put header', order: 0, content_html: '<p>new</p>' });
      expect((await t.get(path(lesson.id), auth)).body.results.map((r: any) => r.id)).toEqual([item.id, first.id]);

      expect((await t.delete(path(lesson.id, item.id), auth)).status).toBe(405); // not served: 405 (CONVENTIONS §16)
      expect((await t.get(path(lesson.id), auth)).body.count).toBe(2);
    });
  }

  it('the blocks live in lessons.content_items, so /v2 shows the same blocks in the same order', async () => {
    const lesson = await modular();
    const b = (await t.post(path(lesson.id), { header: 'Second', order: 5, type: 'HTML', content_html: '<p>2</p>' }, key())).body;
    const a = (await t.post(path(lesson.id), { header: 'First', order: 1, type: 'HTML', content_html: '<p>1</p>' }, key())).body;
    const v2 = await t.get(`/v2/lessons/${lesson.id}`, { token });
    expect(v2.status).toBe(200);
    expect(v2.body.data.attributes.content_items.map((c: any) => [c.id, c.header])).toEqual([
      [a.id, 'First'],
      [b.id, 'Second'],
    ]);
    const stored = (await t.ds.query(`SELECT content_items FROM lessons WHERE id = $1`, [lesson.uuid]))[0].content_items;
    expect(stored.map((x: any) => x.id)).toEqual([decodeId('contentItem', a.id), decodeId('contentItem', b.id)]);
    // a block written by /v2 reads on /v1, keeping its extra members when /v1 rewrites the array
    const v2Id = newUuid();
    await t.ds.query(`UPDATE lessons SET content_items = content_items || $2::jsonb WHERE id = $1`, [
      lesson.uuid,
      JSON.stringify([{ id: v2Id, type: 'RATING', header: 'Rate', order: 9, content_html: null, asset_id: null, quiz_id: null, rating: { rating_scale: 10 } }]),
    ]);
    const rating = await t.get(path(lesson.id, encodeId('contentItem', v2Id)), key());
    expect(rating.body).toMatchObject({ type: 'RATING', header: 'Rate', order: 9 });
    // a RATING item is its rating content block (issue 29 point 3): the block's id, readable there
    expect(rating.body.content_rating_id).toBe(encodeId('ratingContentBlock', v2Id));
    expect((await t.get(`/v1/lessons/${lesson.id}/rating-content-blocks/${rating.body.content_rating_id}`, key())).body).toMatchObject({ content_item_id: encodeId('contentItem', v2Id) });
    await t.patch(path(lesson.id, a.id), { header: 'First!' }, key());
    const after = (await t.ds.query(`SELECT content_items FROM lessons WHERE id = $1`, [lesson.uuid]))[0].content_items;
    expect(after.find((x: any) => x.id === v2Id).rating).toEqual({ rating_scale: 10 });
  });

  it('required fields, the type enum, MODULAR lessons only, and the block limits are 400 field errors', async () => {
    const lesson = await modular();
    const missing = await t.post(path(lesson.id), {}, key());
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ header: ['This field is required.'], order: ['This field is required.'], type: ['This field is required.'] });
    const bad = await t.post(path(lesson.id), { header: '', order: 'one', type: 'VIDEO', content_asset_id: 5 }, key());
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      header: ['This field may not be blank.'],
      order: ['A valid integer is required.'],
      type: ['"VIDEO" is not a valid choice.'],
      content_asset_id: ['Not a valid string.'],
    });
    const nul = await t.post(path(lesson.id), { header: 'h\u0000', order: 0, type: 'HTML' }, key());
    expect(nul.body).toEqual({ header: ['Null characters are not allowed.'] });
    const badRef = await t.post(path(lesson.id), { header: 'h', order: 0, type: 'QUIZ', content_quiz_id: encodeId('asset', newUuid()) }, key());
    expect(badRef.status).toBe(400);
    expect(badRef.body.content_quiz_id[0]).toContain('object does not exist');

    const html = await insertLesson(t, org, course.uuid, { type: 'HTML' });
    const notModular = await t.post(path(html.id), { header: 'h', order: 0, type: 'HTML' }, key());
    expect(notModular.status).toBe(400);
    expect(notModular.body).toEqual({ lesson_id: ['Content items can only be added to MODULAR lessons.'] });

    const other2 = await modular();
    const mismatch = await t.post(path(lesson.id), { header: 'h', order: 0, type: 'HTML', lesson_id: other2.id }, key());
    expect(mismatch.status).toBe(400);
    expect(Object.keys(mismatch.body)).toEqual(['lesson_id']);

    expect((await t.post(path(lesson.id), { header: 'q1', order: 0, type: 'QUIZ', content_quiz_id: (await t.post('/v1/quizzes', { name: 'Quiz' }, key())).body.id }, key())).status).toBe(201);
    const q2 = await t.post(path(lesson.id), { header: 'q2', order: 1, type: 'QUIZ' }, key());
    expect(q2.status).toBe(400);
    expect(q2.body).toEqual({ type: ['A lesson has at most one QUIZ content item.'] });
    for (let i = 0; i < 14; i++) expect((await t.post(path(lesson.id), { header: `h${i}`, order: i, type: 'HTML' }, key())).status).toBe(201);
    const sixteenth = await t.post(path(lesson.id), { header: 'too many', order: 99, type: 'HTML' }, key());
    expect(sixteenth.status).toBe(400);
    expect(sixteenth.body.non_field_errors).toHaveLength(1);
    expect((await t.get(path(lesson.id), key())).body.count).toBe(15);

    const any = (await t.get(`${path(lesson.id)}?page_size=1`, key())).body.results[0];
    const patchBad = await t.patch(path(lesson.id, any.id), { type: 'NOPE', header: null }, key());
    expect(patchBad.status).toBe(400);
    expect(patchBad.body).toEqual({ type: ['"NOPE" is not a valid choice.'], header: ['This field may not be null.'] });
  });

  it('lesson_id in an update moves the block to another MODULAR lesson of the organization', async () => {
    const from = await modular();
    const to = await modular();
    const item = (await t.post(path(from.id), { header: 'Mover', order: 0, type: 'HTML' }, key())).body;
    const html = await insertLesson(t, org, course.uuid, { type: 'HTML' });
    expect((await t.patch(path(from.id, item.id), { lesson_id: html.id }, key())).status).toBe(400);
    const foreign = await modular(other, await insertCourse(t, other));
    const cross = await t.patch(path(from.id, item.id), { lesson_id: foreign.id }, key());
    expect(cross.status).toBe(400);
    expect(cross.body.lesson_id[0]).toContain('object does not exist');
    const moved = await t.patch(path(from.id, item.id), { lesson_id: to.id }, key());
    expect(moved.status).toBe(200);
    expect(moved.body.lesson_id).toBe(to.id);
    expect((await t.get(path(from.id), key())).body.count).toBe(0);
    expect((await t.get(path(to.id, item.id), key())).body.header).toBe('Mover');
    expect((await t.get(path(from.id, item.id), key())).status).toBe(404);
  });

  it('concurrent creates on one lesson never lose a block', async () => {
    const lesson = await modular();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => t.post(path(lesson.id), { header: `C${i}`, order: i, type: 'HTML' }, key())));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect((await t.get(path(lesson.id), key())).body.count).toBe(6);
  });

  it('paginates with count, next and previous', async () => {
    const lesson = await modular();
    for (let i = 0; i < 5; i++) await t.post(path(lesson.id), { header: `P${i}`, order: i, type: 'HTML' }, key());
    const p1 = await t.get(`${path(lesson.id)}?page_size=2`, key());
    expect(p1.body.count).toBe(5);
    expect(p1.body.results.map((r: any) => r.header)).toEqual(['P0', 'P1']);
    expect(p1.body.next).toBe(`${t.baseUrl}${path(lesson.id)}?page_size=2&page=2`);
    expect(p1.body.previous).toBeNull();
    const p3 = await t.get(`${path(lesson.id)}?page_size=2&page=3`, key());
    expect(p3.body.results.map((r: any) => r.header)).toEqual(['P4']);
    expect(p3.body.next).toBeNull();
    expect(p3.body.previous).toBe(`${t.baseUrl}${path(lesson.id)}?page_size=2&page=2`);
    expect((await t.get(`${path(lesson.id)}?page_size=2&page=4`, key())).status).toBe(404);
  });

  it('another organization never sees, reads or changes the blocks; missing lessons and items are 404', async () => {
    const lesson = await modular();
    const item = (await t.post(path(lesson.id), { header: 'Secret', order: 0, type: 'HTML' }, key())).body;
    const theirs = { basic: other.api_key };
    expect((await t.get(path(lesson.id), theirs)).status).toBe(404);
    expect((await t.get(path(lesson.id, item.id), theirs)).status).toBe(404);
    expect((await t.post(path(lesson.id), { header: 'x', order: 0, type: 'HTML' }, theirs)).status).toBe(404);
    expect((await t.request('PUT', path(lesson.id, item.id), { ...theirs, body: { header: 'x' } })).status).toBe(404);
    expect((await t.patch(path(lesson.id, item.id), { header: 'x' }, theirs)).status).toBe(404);
    expect((await t.get(path(lesson.id, item.id), key())).body.header).toBe('Secret');
    const another = await modular();
    expect((await t.get(path(another.id, item.id), key())).status).toBe(404);
    expect((await t.get(path(lesson.id, 'cit_nope'), key())).status).toBe(404);
    expect((await t.get(path('les_nope'), key())).status).toBe(404);
    const deleted = await insertLesson(t, org, course.uuid, { type: 'MODULAR', deleted: true });
    expect((await t.get(path(deleted.id), key())).status).toBe(404);
  });

  it('needs a credential (401) and the content-items scope (403)', async () => {
    const lesson = await modular();
    expect((await t.get(path(lesson.id))).status).toBe(401);
    expect((await t.post(path(lesson.id), { header: 'x', order: 0, type: 'HTML' })).status).toBe(401);
    const readOnly = await t.tokenFor(org, ['content-items:read']);
    expect((await t.get(path(lesson.id), { token: readOnly })).status).toBe(200);
    expect((await t.post(path(lesson.id), { header: 'x', order: 0, type: 'HTML' }, { token: readOnly })).status).toBe(403);
    const lessonsOnly = await t.tokenFor(org, ['lessons:read', 'lessons:write']);
    expect((await t.get(path(lesson.id), { token: lessonsOnly })).status).toBe(403);
  });

  it("refuses another organization's asset, or an asset that does not exist", async () => {
    const lesson = await modular();
    for (const asset of [(await insertAsset(t, other)).id, encodeId('asset', newUuid())]) {
      const res = await t.post(path(lesson.id), { header: 'Video', order: 1, type: 'ASSET', content_asset_id: asset }, key());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ content_asset_id: [expect.any(String)] });
    }
  });
});
