import { startTestApp, TestApp } from '../support/app';
import { twoOrgs } from '../support/two-orgs';
import { countQueries, insertAsset, insertCourse, insertLesson, insertWebPackage } from '../support/fixtures';
import { decodeId, encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

describe('/v1 lessons', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let course: { uuid: string; id: string };
  beforeAll(async () => {
    t = await startTestApp();
    ({ a: org, b: other, tokenA: token } = await twoOrgs(t));
    course = await insertCourse(t, org, { title: 'Lesson home' });
  });
  afterAll(() => t.close());
  const key = () => ({ basic: org.api_key });
  const lessonBody = (extra: Record<string, unknown> = {}) => ({ course_id: course.id, order: 1, title: 'L', type: 'HTML', ...extra });

  for (const mode of ['api key', 'bearer'] as const) {
    it(`create, read, list, update (PUT, PATCH) and delete with the ${mode}`, async () => {
      const auth = mode === 'api key' ? { basic: org.api_key } : { token };
      const asset = (await insertAsset(t, org)).id;
      const quiz = (await t.post('/v1/quizzes', { name: 'Quiz' }, key())).body.id;
      const pkg = (await insertWebPackage(t, org)).id;
      const created = await t.post(
        '/v1/lessons',
        lessonBody({
          title: `Lesson ${mode}`,
          order: 3,
          content_asset_id: asset,
          content_html: '<p>c</p>',
          content_quiz_id: quiz,
          content_web_package_id: pkg,
          description_html: '<p>d</p>',
          display_fullscreen: true,
          optional: true,
          search_keywords: 'k1 k2',
          time_seconds: 90,
          tooltip_html: '<i>tip</i>',
        }),
        auth,
      );
      expect(created.status).toBe(201);
      const l = created.body;
      expect(l).toEqual({
        id: expect.stringMatching(/^[0-9a-z]+$/),
        course_id: course.id,
        title: `Lesson ${mode}`,
        type: 'HTML',
        order: 3,
        content_asset_id: asset,
        content_html: '<p>c</p>',
        content_quiz_id: quiz,
        content_web_package_id: pkg,
        description_html: '<p>d</p>',
        display_fullscreen: true,
        optional: true,
        search_keywords: 'k1 k2',
        time_seconds: 90,
        tooltip_html: '<i>tip</i>',
      });
      expect((await t.get(`/v1/lessons/${l.id}`, auth)).body).toEqual(l);
      expect((await t.get(`/v1/lessons?course_id=${course.id}`, auth)).body.results).toContainEqual(l);

      const put = await t.request('PUT', `/v1/lessons/${l.id}`, { ...auth, body: { title: 'Put title', content_asset_id: null } });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ ...l, title: 'Put title', content_asset_id: null });
      const patch = await t.patch(`/v1/lessons/${l.id}`, { time_seconds: null, type: 'SECTION', order: 0 }, auth);
      expect(patch.status).toBe(200);
      expect(patch.body).toEqual({ ...l, title: 'Put title', content_asset_id: null, time_seconds: null, type: 'SECTION', order: 0 });

      expect((await t.delete(`/v1/lessons/${l.id}`, auth)).status).toBe(204);
      expect((await t.get(`/v1/lessons/${l.id}`, auth)).status).toBe(404);
      expect((await t.delete(`/v1/lessons/${l.id}`, auth)).status).toBe(404);
      const rows = await t.ds.query(`SELECT deleted_at FROM lessons WHERE id = $1`, [decodeId('lesson', l.id)]);
      expect(rows[0].deleted_at).not.toBeNull();
    });
  }

  it('a lesson created on /v1 is the same lesson on /v2 (same id and row)', async () => {
    const l = (await t.post('/v1/lessons', lessonBody({ title: 'Shared lesson', order: 7 }), key())).body;
    const v2 = await t.get(`/v2/lessons/${l.id}`, { token });
    expect(v2.status).toBe(200);
    expect(v2.body.data.id).toBe(l.id);
    expect(v2.body.data.attributes).toMatchObject({ title: 'Shared lesson', type: 'HTML', order: 7, course_id: course.id });
    const row = (await t.ds.query(`SELECT course_id, title, is_draft FROM lessons WHERE id = $1`, [decodeId('lesson', l.id)]))[0];
    expect(row).toEqual({ course_id: course.uuid, title: 'Shared lesson', is_draft: false });
  });

  it('required fields, the type enum, integers and references are 400 field errors', async () => {
    const missing = await t.post('/v1/lessons', {}, key());
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      course_id: ['This field is required.'],
      order: ['This field is required.'],
      title: ['This field is required.'],
      type: ['This field is required.'],
    });
    const bad = await t.post('/v1/lessons', lessonBody({ type: 'PDF', order: -1, time_seconds: 1.5, title: 'x'.repeat(501), optional: 'no', search_keywords: 'k'.repeat(5001) }), key());
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      type: ['"PDF" is not a valid choice.'],
      order: ['Ensure this value is greater than or equal to 0.'],
      time_seconds: ['A valid integer is required.'],
      title: ['Ensure this field has no more than 500 characters.'],
      optional: ['Must be a valid boolean.'],
      search_keywords: ['Ensure this field has no more than 5000 characters.'],
    });
    const foreignCourse = await insertCourse(t, other);
    const deletedCourse = await insertCourse(t, org, { deleted: true });
    for (const id of [foreignCourse.id, deletedCourse.id, 'crs_nope', encodeId('lesson', course.uuid)]) {
      const r = await t.post('/v1/lessons', lessonBody({ course_id: id }), key());
      expect(r.status).toBe(400);
      expect(r.body.course_id[0]).toContain('object does not exist');
    }
    const refs = await t.post('/v1/lessons', lessonBody({ content_asset_id: 'nope', content_quiz_id: encodeId('asset', newUuid()), content_web_package_id: 'wpk_bad' }), key());
    expect(refs.status).toBe(400);
    expect(Object.keys(refs.body).sort()).toEqual(['content_asset_id', 'content_quiz_id', 'content_web_package_id']);
    const nul = await t.post('/v1/lessons', lessonBody({ content_html: '<p>\u0000</p>', course_id: 'crs_\u0000' }), key());
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual({ content_html: ['Null characters are not allowed.'], course_id: ['Null characters are not allowed.'] });
    expect((await t.get('/v1/lessons?course_id=%00', key())).body).toEqual({ count: 0, next: null, previous: null, results: [] }); // a filter matches nothing, never fails (issue 25 item 7)
    const blank = await t.post('/v1/lessons', lessonBody({ content_web_package_id: '' }), key());
    expect(blank.body).toEqual({ content_web_package_id: ['This field may not be blank.'] });
    expect((await t.request('POST', '/v1/lessons', { ...key(), raw: { contentType: 'application/json', data: '[]' } })).status).toBe(400);
    const count = await t.ds.query(`SELECT count(*)::int AS n FROM lessons WHERE title = 'L' AND organization_id = (SELECT organization_id FROM courses WHERE id = $1)`, [course.uuid]);
    expect(count[0].n).toBe(0);

    const l = (await t.post('/v1/lessons', lessonBody(), key())).body;
    const patchBad = await t.patch(`/v1/lessons/${l.id}`, { type: 'NOPE', title: null }, key());
    expect(patchBad.status).toBe(400);
    expect(patchBad.body).toEqual({ type: ['"NOPE" is not a valid choice.'], title: ['This field may not be null.'] });
    const moveBad = await t.patch(`/v1/lessons/${l.id}`, { course_id: foreignCourse.id }, key());
    expect(moveBad.status).toBe(400);
    expect((await t.get(`/v1/lessons/${l.id}`, key())).body).toEqual(l);
  });

  it('PUT and PATCH take an optional ?course_id= scope; course_id in the body moves the lesson', async () => {
    const second = await insertCourse(t, org, { title: 'Second' });
    const l = (await t.post('/v1/lessons', lessonBody(), key())).body;
    expect((await t.patch(`/v1/lessons/${l.id}?course_id=${second.id}`, { title: 'x' }, key())).status).toBe(404);
    expect((await t.request('PUT', `/v1/lessons/${l.id}?course_id=garbage`, { ...key(), body: { title: 'x' } })).status).toBe(404);
    const ok = await t.patch(`/v1/lessons/${l.id}?course_id=${course.id}`, { title: 'Scoped' }, key());
    expect(ok.status).toBe(200);
    expect(ok.body.title).toBe('Scoped');
    const moved = await t.request('PUT', `/v1/lessons/${l.id}`, { ...key(), body: { course_id: second.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.course_id).toBe(second.id);
    expect((await t.get(`/v1/lessons?course_id=${second.id}`, key())).body.results.map((r: any) => r.id)).toEqual([l.id]);
  });

  it('course_id filters the list (in lesson order); unknown or foreign course ids give an empty page', async () => {
    const c = await insertCourse(t, org);
    const b = (await t.post('/v1/lessons', lessonBody({ course_id: c.id, order: 2, title: 'B' }), key())).body;
    const a = (await t.post('/v1/lessons', lessonBody({ course_id: c.id, order: 1, title: 'A' }), key())).body;
    await insertLesson(t, org, c.uuid, { is_draft: true, order: 0 });
    await insertLesson(t, org, c.uuid, { deleted: true, order: 0 });
    const list = await t.get(`/v1/lessons?course_id=${c.id}`, key());
    expect(list.body.count).toBe(2);
    expect(list.body.results.map((r: any) => r.id)).toEqual([a.id, b.id]);
    expect((await t.get(`/v1/lessons/?course_id=${c.id}`, key())).body.count).toBe(2);
    expect((await t.get('/v1/lessons?course_id=&page_size=100', key())).body.count).toBeGreaterThan(2);
    const foreign = await insertCourse(t, other);
    await insertLesson(t, other, foreign.uuid);
    for (const id of [foreign.id, 'nonsense', encodeId('course', newUuid())]) {
      expect((await t.get(`/v1/lessons?course_id=${id}`, key())).body).toEqual({ count: 0, next: null, previous: null, results: [] });
    }
  });

  it('draft and deleted lessons, and lessons of deleted or draft courses, are not found and never listed', async () => {
    const c = await insertCourse(t, org);
    const live = (await t.post('/v1/lessons', lessonBody({ course_id: c.id }), key())).body;
    const draft = await insertLesson(t, org, c.uuid, { is_draft: true });
    const deleted = await insertLesson(t, org, c.uuid, { deleted: true });
    const draftCourse = await insertCourse(t, org, { is_draft: true });
    const inDraftCourse = await insertLesson(t, org, draftCourse.uuid);
    for (const id of [draft.id, deleted.id, inDraftCourse.id, 'les_x', course.id]) {
      expect((await t.get(`/v1/lessons/${id}`, key())).status).toBe(404);
      expect((await t.patch(`/v1/lessons/${id}`, { title: 'x' }, key())).status).toBe(404);
      expect((await t.delete(`/v1/lessons/${id}`, key())).status).toBe(404);
    }
    const all = (await t.get('/v1/lessons?page_size=100', key())).body.results.map((r: any) => r.id);
    expect(all).toContain(live.id);
    expect(all).not.toContain(draft.id);
    expect(all).not.toContain(inDraftCourse.id);
    await t.delete(`/v1/courses/${c.id}`, key());
    expect((await t.get(`/v1/lessons/${live.id}`, key())).status).toBe(404);
    expect((await t.get('/v1/lessons?page_size=100', key())).body.results.map((r: any) => r.id)).not.toContain(live.id);
  });

  it('paginates with count, next and previous; page_size caps at 100; no query per row', async () => {
    const o = await t.newOrg();
    const c = await insertCourse(t, o);
    for (let i = 0; i < 5; i++) await insertLesson(t, o, c.uuid, { title: `P${i}`, order: i });
    const auth = { basic: o.api_key };
    const p1 = await t.get(`/v1/lessons?course_id=${c.id}&page_size=2`, auth);
    expect(p1.body.count).toBe(5);
    expect(p1.body.results.map((r: any) => r.title)).toEqual(['P0', 'P1']);
    expect(p1.body.next).toBe(`${t.baseUrl}/v1/lessons?course_id=${c.id}&page_size=2&page=2`);
    expect(p1.body.previous).toBeNull();
    const p3 = await t.get(`/v1/lessons?course_id=${c.id}&page_size=2&page=3`, auth);
    expect(p3.body.results.map((r: any) => r.title)).toEqual(['P4']);
    expect(p3.body.next).toBeNull();
    expect(p3.body.previous).toBe(`${t.baseUrl}/v1/lessons?course_id=${c.id}&page_size=2&page=2`);
    expect((await t.get('/v1/lessons?page=9', auth)).status).toBe(404);
    const many = Array.from({ length: 105 }, (_, i) => `('${decodeId('organization', o.organization_id)}', '${c.uuid}', 'M${i}', 'HTML')`).join(',');
    await t.ds.query(`INSERT INTO lessons (organization_id, course_id, title, type) VALUES ${many}`);
    const capped = await t.get('/v1/lessons?page_size=1000', auth);
    expect(capped.body.results).toHaveLength(100);
    expect(capped.body.count).toBe(110);
    const one = await countQueries(() => t.get('/v1/lessons?page_size=1', auth));
    const hundred = await countQueries(() => t.get('/v1/lessons?page_size=100', auth));
    expect(hundred.count).toBe(one.count);
  });

  it('another organization never sees, reads, changes or deletes a lesson', async () => {
    const l = (await t.post('/v1/lessons', lessonBody({ title: 'Private lesson' }), key())).body;
    const theirs = { basic: other.api_key };
    expect((await t.get('/v1/lessons?page_size=100', theirs)).body.results.map((r: any) => r.id)).not.toContain(l.id);
    expect((await t.get(`/v1/lessons?course_id=${course.id}`, theirs)).body.count).toBe(0);
    expect((await t.get(`/v1/lessons/${l.id}`, theirs)).status).toBe(404);
    expect((await t.request('PUT', `/v1/lessons/${l.id}`, { ...theirs, body: { title: 'Hijack' } })).status).toBe(404);
    expect((await t.patch(`/v1/lessons/${l.id}`, { title: 'Hijack' }, theirs)).status).toBe(404);
    expect((await t.delete(`/v1/lessons/${l.id}`, theirs)).status).toBe(404);
    expect((await t.post('/v1/lessons', lessonBody(), theirs)).status).toBe(400);
    expect((await t.get(`/v1/lessons/${l.id}`, key())).body.title).toBe('Private lesson');
  });

  it('needs a credential (401) and the lessons scope (403)', async () => {
    expect((await t.get('/v1/lessons')).status).toBe(401);
    expect((await t.post('/v1/lessons', lessonBody())).status).toBe(401);
    const readOnly = await t.tokenFor(org, ['lessons:read']);
    expect((await t.get('/v1/lessons', { token: readOnly })).status).toBe(200);
    expect((await t.post('/v1/lessons', lessonBody(), { token: readOnly })).status).toBe(403);
    const coursesOnly = await t.tokenFor(org, ['courses:read', 'courses:write']);
    expect((await t.get('/v1/lessons', { token: coursesOnly })).status).toBe(403);
  });

  it("refuses an asset or web package that is not one of the organization's (another org's, or none at all)", async () => {
    const theirs = { asset: (await insertAsset(t, other)).id, pkg: (await insertWebPackage(t, other)).id };
    const missing = { asset: encodeId('asset', newUuid()), pkg: encodeId('webPackage', newUuid()) };
    for (const ref of [theirs, missing]) {
      const res = await t.post('/v1/lessons', lessonBody({ content_asset_id: ref.asset, content_web_package_id: ref.pkg }), key());
      expect(res.status).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(['content_asset_id', 'content_web_package_id']);
    }
    const mine = await t.post('/v1/lessons', lessonBody({}), key());
    const patched = await t.patch(`/v1/lessons/${mine.body.id}`, { content_web_package_id: theirs.pkg }, key());
    expect(patched.status).toBe(400);
    const row = await t.ds.query(`SELECT content_web_package_id FROM lessons WHERE id = $1`, [decodeId('lesson', mine.body.id)]);
    expect(row[0].content_web_package_id).toBeNull();
  });
});
