import { startTestApp, TestApp } from '../support/app';
import { twoOrgs } from '../support/two-orgs';
import { countQueries, insertCourse, insertLesson, insertStudent, orgUuid, rate } from '../support/fixtures';
import { decodeId, encodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

const base = { title: 'Intro', short_description: 'Short', enforce_sequential_navigation: true };

describe('/v1 courses', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    ({ a: org, b: other, tokenA: token } = await twoOrgs(t));
  });
  afterAll(() => t.close());
  const key = () => ({ basic: org.api_key });

  for (const mode of ['api key', 'bearer'] as const) {
    it(`create, read, list, update (PUT, PATCH) and delete with the ${mode}`, async () => {
      const auth = mode === 'api key' ? { basic: org.api_key } : { token };
      const created = await t.post(
        '/v1/courses',
        {
          ...base,
          title: `Course ${mode}`,
          long_description_html: '<p>Long</p>',
          labels: [`L-${mode}`],
          display_course_and_lesson_time: true,
          manual_course_time: '2 hours',
          display_manual_course_time: false,
          course_and_lesson_time_format: 'MINUTES_VERBOSE',
        },
        auth,
      );
      expect(created.status).toBe(201);
      const c = created.body;
      expect(c).toEqual({
        id: expect.stringMatching(/^[0-9a-z]+$/),
        title: `Course ${mode}`,
        short_description: 'Short',
        long_description_html: '<p>Long</p>',
        enforce_sequential_navigation: true,
        labels: [`L-${mode}`],
        promo_image_url: '',
        display_course_and_lesson_time: true,
        manual_course_time: '2 hours',
        display_manual_course_time: false,
        course_and_lesson_time_format: 'MINUTES_VERBOSE',
        course_time: '0 min',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
        modified_at: expect.any(String),
        // extensions (CONVENTIONS §15): the certificate settings, defaults
        issues_certificate: true,
        certificate_validity_days: null,
      });

      const read = await t.get(`/v1/courses/${c.id}`, auth);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(c);
      const list = await t.get('/v1/courses?page_size=100', auth);
      expect(list.status).toBe(200);
      expect(list.body.results).toContainEqual(c);

      const put = await t.request('PUT', `/v1/courses/${c.id}`, { ...auth, body: { title: 'Renamed', short_description: 'S2', enforce_sequential_navigation: false } });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ title: 'Renamed', short_description: 'S2', enforce_sequential_navigation: false, long_description_html: '<p>Long</p>', labels: [`L-${mode}`] });
      expect(Date.parse(put.body.modified_at)).toBeGreaterThanOrEqual(Date.parse(c.modified_at));

      const patch = await t.patch(`/v1/courses/${c.id}`, { display_manual_course_time: true, labels: [] }, auth);
      expect(patch.status).toBe(200);
      expect(patch.body).toMatchObject({ title: 'Renamed', display_manual_course_time: true, course_time: '2 hours', labels: [] });

      const del = await t.delete(`/v1/courses/${c.id}`, auth);
      expect(del.status).toBe(204);
      expect((await t.get(`/v1/courses/${c.id}`, auth)).status).toBe(404);
      expect((await t.patch(`/v1/courses/${c.id}`, { title: 'x' }, auth)).status).toBe(404);
      expect((await t.delete(`/v1/courses/${c.id}`, auth)).status).toBe(404);
      const after = await t.get('/v1/courses?page_size=100', auth);
      expect(after.body.results.map((r: any) => r.id)).not.toContain(c.id);
      // soft delete: the row stays, with deleted_at
      const rows = await t.ds.query(`SELECT deleted_at FROM courses WHERE id = $1`, [decodeId('course', c.id)]);
      expect(rows[0].deleted_at).not.toBeNull();
    });
  }

  it('a course created on /v1 is the same course on /v2 (same id, same row); deleted on /v1 it is gone from /v2', async () => {
    const c = (await t.post('/v1/courses', { ...base, title: 'Shared course', long_description_html: '<b>x</b>' }, key())).body;
    const v2 = await t.get(`/v2/courses/${c.id}`, { token });
    expect(v2.status).toBe(200);
    expect(v2.body.data.id).toBe(c.id);
    expect(v2.body.data.attributes).toMatchObject({ title: 'Shared course', short_description: 'Short', long_description_html: '<b>x</b>', enforce_sequential_navigation: true });
    const row = (await t.ds.query(`SELECT organization_id, title, is_draft, deleted_at FROM courses WHERE id = $1`, [decodeId('course', c.id)]))[0];
    expect(row).toEqual({ organization_id: orgUuid(org), title: 'Shared course', is_draft: false, deleted_at: null });
    // and a /v2-style row reads on /v1
    const seeded = await insertCourse(t, org, { title: 'Seeded' });
    expect((await t.get(`/v1/courses/${seeded.id}`, key())).body.title).toBe('Seeded');
    await t.delete(`/v1/courses/${c.id}`, key());
    expect((await t.get(`/v2/courses/${c.id}`, { token })).status).toBe(404);
  });

  it('required fields on create and PUT (not PATCH), enum, types and lengths are 400 field errors', async () => {
    const missing = await t.post('/v1/courses', {}, key());
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      title: ['This field is required.'],
      short_description: ['This field is required.'],
      enforce_sequential_navigation: ['This field is required.'],
    });
    const bad = await t.post(
      '/v1/courses',
      {
        title: '',
        short_description: 5,
        enforce_sequential_navigation: 'yes',
        course_and_lesson_time_format: 'DAYS',
        manual_course_time: 'x'.repeat(16),
        labels: 'a,b',
        display_manual_course_time: 1,
      },
      key(),
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      title: ['This field may not be blank.'],
      short_description: ['Not a valid string.'],
      enforce_sequential_navigation: ['Must be a valid boolean.'],
      course_and_lesson_time_format: ['"DAYS" is not a valid choice.'],
      manual_course_time: ['Ensure this field has no more than 15 characters.'],
      labels: [expect.stringContaining('Expected a list of items')],
      display_manual_course_time: ['Must be a valid boolean.'],
    });
    const nul = await t.post('/v1/courses', { ...base, title: 'a\u0000b', labels: ['x\u0000'] }, key());
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual({ title: ['Null characters are not allowed.'], labels: ['Null characters are not allowed.'] });
    expect((await t.get('/v1/courses?label__name=a%00b', key())).body).toEqual({ count: 0, next: null, previous: null, results: [] }); // a filter matches nothing, never fails (issue 25 item 7)
    const badLabel = await t.post('/v1/courses', { ...base, labels: ['ok', ''] }, key());
    expect(badLabel.status).toBe(400);
    expect(badLabel.body.labels).toEqual(['This field may not be blank.']);
    expect((await t.request('POST', '/v1/courses', { ...key(), raw: { contentType: 'application/json', data: '"x"' } })).status).toBe(400);

    const c = (await t.post('/v1/courses', base, key())).body;
    const put = await t.request('PUT', `/v1/courses/${c.id}`, { ...key(), body: { title: 'Only title' } });
    expect(put.status).toBe(400);
    expect(put.body).toEqual({ short_description: ['This field is required.'], enforce_sequential_navigation: ['This field is required.'] });
    const patchNull = await t.patch(`/v1/courses/${c.id}`, { title: null }, key());
    expect(patchNull.status).toBe(400);
    expect(patchNull.body).toEqual({ title: ['This field may not be null.'] });
    const patchEnum = await t.patch(`/v1/courses/${c.id}`, { course_and_lesson_time_format: 'hours' }, key());
    expect(patchEnum.status).toBe(400);
    const unchanged = await t.get(`/v1/courses/${c.id}`, key());
    expect(unchanged.body.title).toBe('Intro');
    expect(unchanged.body.course_and_lesson_time_format).toBe('HOURS_MINUTES');
    const patch = await t.patch(`/v1/courses/${c.id}`, { title: 'Patched only' }, key());
    expect(patch.status).toBe(200);
    expect(patch.body).toMatchObject({ title: 'Patched only', short_description: 'Short', enforce_sequential_navigation: true });
  });

  it('labels: names, missing labels created, existing ones reused case-insensitively; label__name filters exactly', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const existing = (await t.post('/v1/labels', { name: 'Security' }, auth)).body;
    const a = (await t.post('/v1/courses', { ...base, title: 'A', labels: ['security', 'Cloud', 'cloud'] }, auth)).body;
    expect(a.labels.sort()).toEqual(['Cloud', 'Security']);
    const labels = (await t.get('/v1/labels', auth)).body;
    expect(labels.count).toBe(2);
    expect(labels.results.find((l: any) => l.name === 'Security').id).toBe(existing.id);
    const b = (await t.post('/v1/courses', { ...base, title: 'B', labels: ['Cloud'] }, auth)).body;
    await t.post('/v1/courses', { ...base, title: 'C' }, auth);

    const cloud = await t.get('/v1/courses?label__name=Cloud', auth);
    expect(cloud.status).toBe(200);
    expect(cloud.body.count).toBe(2);
    expect(cloud.body.results.map((r: any) => r.title)).toEqual(['A', 'B']);
    const sec = await t.get('/v1/courses?label__name=Security', auth);
    expect(sec.body.results.map((r: any) => r.title)).toEqual(['A']);
    expect((await t.get('/v1/courses?label__name=Clo', auth)).body.count).toBe(0);
    expect((await t.get('/v1/courses?label__name=Nope', auth)).body).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect((await t.get('/v1/courses?label__name=Cloud&label__name=Security', auth)).status).toBe(400);
    expect((await t.get('/v1/courses?label__name=', auth)).body.count).toBe(3);
    expect((await t.get('/v1/courses/?label__name=Cloud', auth)).body.count).toBe(2);

    const replaced = await t.request('PUT', `/v1/courses/${b.id}`, { ...auth, body: { ...base, title: 'B', labels: ['Security'] } });
    expect(replaced.body.labels).toEqual(['Security']);
    expect((await t.get('/v1/courses?label__name=Cloud', auth)).body.results.map((r: any) => r.title)).toEqual(['A']);
    // another organization's label of the same name does not match
    await t.post('/v1/courses', { ...base, title: 'Elsewhere', labels: ['Cloud'] }, { basic: other.api_key });
    expect((await t.get('/v1/courses?label__name=Cloud', auth)).body.count).toBe(1);
  });

  it('course_time sums the live lessons in the chosen format unless the manual time is displayed', async () => {
    const c = (await t.post('/v1/courses', { ...base, course_and_lesson_time_format: 'HOURS_MINUTES_SECONDS' }, key())).body;
    const uuid = decodeId('course', c.id)!;
    const l1 = await insertLesson(t, org, uuid);
    const l2 = await insertLesson(t, org, uuid);
    const gone = await insertLesson(t, org, uuid, { deleted: true });
    const draft = await insertLesson(t, org, uuid, { is_draft: true });
    await t.ds.query(`UPDATE lessons SET time_seconds = CASE id WHEN $1 THEN 5000 WHEN $2 THEN 567 ELSE 9999 END WHERE course_id = $3`, [l1.uuid, l2.uuid, uuid]);
    void gone;
    void draft;
    expect((await t.get(`/v1/courses/${c.id}`, key())).body.course_time).toBe('01:32:47');
    const formats: [string, string][] = [
      ['HOURS_MINUTES', '01:33'],
      ['HOURS_MINUTES_VERBOSE', '1 hr 33 min'],
      ['MINUTES_VERBOSE', '93 min'],
    ];
    for (const [format, shown] of formats) {
      const r = await t.patch(`/v1/courses/${c.id}`, { course_and_lesson_time_format: format }, key());
      expect(r.body.course_time).toBe(shown);
    }
    const manual = await t.patch(`/v1/courses/${c.id}`, { manual_course_time: 'About 90 min', display_manual_course_time: true }, key());
    expect(manual.body.course_time).toBe('About 90 min');
    const listed = (await t.get('/v1/courses?page_size=100', key())).body.results.find((r: any) => r.id === c.id);
    expect(listed.course_time).toBe('About 90 min');
  });

  it('average_rating averages the ratings on the organization scale', async () => {
    const c = (await t.post('/v1/courses', base, key())).body;
    const uuid = decodeId('course', c.id)!;
    for (const r of [5, 4, 4]) await rate(t, org, uuid, (await insertStudent(t, org)).uuid, r);
    expect((await t.get(`/v1/courses/${c.id}`, key())).body.average_rating).toBeCloseTo(4.33, 2);
  });

  it('drafts, soft-deleted and undecodable ids are not found and never listed; draft_origin_id is a course id', async () => {
    const draft = await insertCourse(t, org, { is_draft: true });
    const deleted = await insertCourse(t, org, { deleted: true });
    for (const id of [draft.id, deleted.id, 'crs_nope', 'nonsense', encodeId('lesson', decodeId('course', draft.id)!)]) {
      expect((await t.get(`/v1/courses/${id}`, key())).status).toBe(404);
      expect((await t.patch(`/v1/courses/${id}`, { title: 'x' }, key())).status).toBe(404);
      expect((await t.delete(`/v1/courses/${id}`, key())).status).toBe(404);
    }
    const ids = (await t.get('/v1/courses?page_size=100', key())).body.results.map((r: any) => r.id);
    expect(ids).not.toContain(draft.id);
    expect(ids).not.toContain(deleted.id);
    const live = await insertCourse(t, org, { title: 'Has origin' });
    await t.ds.query(`UPDATE courses SET draft_origin_id = $1 WHERE id = $2`, [draft.uuid, live.uuid]);
    expect((await t.get(`/v1/courses/${live.id}`, key())).body.draft_origin_id).toBe(draft.id);
  });

  it('updated_since (extension): the courses changed at or after the time, ordered by last change, paginated in that order; a bad time is 400', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const [c1, c2, c3] = [await insertCourse(t, o, { title: 'One' }), await insertCourse(t, o, { title: 'Two' }), await insertCourse(t, o, { title: 'Three' })];
    await new Promise((r) => setTimeout(r, 20));
    const mark = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    for (const c of [c3, c1]) {
      expect((await t.patch(`/v1/courses/${c.id}`, { title: `${c.id} changed` }, auth)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 5));
    }
    const since = await t.get(`/v1/courses?updated_since=${encodeURIComponent(mark)}&page_size=1`, auth);
    expect(since.status).toBe(200);
    expect(since.body.count).toBe(2);
    expect(since.body.results.map((r: any) => r.id)).toEqual([c3.id]);
    const second = await t.get(`/v1/courses?updated_since=${encodeURIComponent(mark)}&page_size=1&page=2`, auth);
    expect(second.body.results.map((r: any) => r.id)).toEqual([c1.id]);
    const all = await t.get(`/v1/courses?updated_since=${encodeURIComponent('2000-01-01T00:00:00Z')}`, auth);
    expect(all.body.results.map((r: any) => r.id)).toEqual([c2.id, c3.id, c1.id]);
    for (const bad of ['2024-01-01T00:00:00', 'yesterday']) {
      const res = await t.get(`/v1/courses?updated_since=${bad}`, auth);
      expect(res.status).toBe(400);
      expect(res.body).toHaveProperty('updated_since');
    }
  });

  it('paginates with count, next and previous; page_size caps at 100; no query per row', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    for (let i = 0; i < 5; i++) await t.post('/v1/courses', { ...base, title: `P${i}`, labels: [`l${i}`] }, auth);
    const p1 = await t.get('/v1/courses?page_size=2', auth);
    expect(p1.body.count).toBe(5);
    expect(p1.body.results.map((r: any) => r.title)).toEqual(['P0', 'P1']);
    expect(p1.body.previous).toBeNull();
    expect(p1.body.next).toBe(`${t.baseUrl}/v1/courses?page_size=2&page=2`);
    const p2 = await t.get('/v1/courses?page_size=2&page=2', auth);
    expect(p2.body.results.map((r: any) => r.title)).toEqual(['P2', 'P3']);
    expect(p2.body.previous).toBe(`${t.baseUrl}/v1/courses?page_size=2`);
    const p3 = await t.get('/v1/courses?page_size=2&page=3', auth);
    expect(p3.body.next).toBeNull();
    expect((await t.get('/v1/courses?page_size=2&page=4', auth)).status).toBe(404);
    expect((await t.get('/v1/courses?page_size=0', auth)).status).toBe(400);

    const big = await t.newOrg();
    const values = Array.from({ length: 120 }, (_, i) => `('${orgUuid(big)}', 'B${i}')`).join(',');
    await t.ds.query(`INSERT INTO courses (organization_id, title) VALUES ${values}`);
    const capped = await t.get('/v1/courses?page_size=500', { basic: big.api_key });
    expect(capped.body.results).toHaveLength(100);
    expect(capped.body.count).toBe(120);
    const dflt = await t.get('/v1/courses', { basic: big.api_key });
    expect(dflt.body.results).toHaveLength(100);

    const one = await countQueries(() => t.get('/v1/courses?page_size=1', auth));
    const five = await countQueries(() => t.get('/v1/courses?page_size=5', auth));
    expect(five.result.body.results).toHaveLength(5);
    expect(five.count).toBe(one.count);
  });

  it('another organization never sees, reads, changes or deletes a course', async () => {
    const c = (await t.post('/v1/courses', { ...base, title: 'Mine' }, key())).body;
    const theirs = { basic: other.api_key };
    const list = await t.get('/v1/courses?page_size=100', theirs);
    expect(list.body.results.map((r: any) => r.id)).not.toContain(c.id);
    expect((await t.get(`/v1/courses/${c.id}`, theirs)).status).toBe(404);
    expect((await t.request('PUT', `/v1/courses/${c.id}`, { ...theirs, body: { ...base, title: 'Hijack' } })).status).toBe(404);
    expect((await t.patch(`/v1/courses/${c.id}`, { title: 'Hijack' }, theirs)).status).toBe(404);
    expect((await t.delete(`/v1/courses/${c.id}`, theirs)).status).toBe(404);
    expect((await t.get(`/v1/courses/${c.id}/labels`, theirs)).status).toBe(404);
    expect((await t.get(`/v1/courses/${c.id}`, key())).body.title).toBe('Mine');
  });

  it('needs a credential (401) and the courses scope (403)', async () => {
    expect((await t.get('/v1/courses')).status).toBe(401);
    expect((await t.post('/v1/courses', base)).status).toBe(401);
    expect((await t.get('/v1/courses', { basic: 'wrong-key' })).status).toBe(401);
    const readOnly = await t.tokenFor(org, ['courses:read']);
    expect((await t.get('/v1/courses', { token: readOnly })).status).toBe(200);
    expect((await t.post('/v1/courses', base, { token: readOnly })).status).toBe(403);
    const lessonsOnly = await t.tokenFor(org, ['lessons:read', 'lessons:write']);
    expect((await t.get('/v1/courses', { token: lessonsOnly })).status).toBe(403);
  });

  describe('/v1/courses/{course_id}/labels', () => {
    for (const mode of ['api key', 'bearer'] as const) {
      it(`list, create, read and delete associations with the ${mode}`, async () => {
        const auth = mode === 'api key' ? { basic: org.api_key } : { token };
        const c = (await t.post('/v1/courses', { ...base, labels: [`first-${mode}`] }, auth)).body;
        const label = (await t.post('/v1/labels', { name: `second-${mode}` }, auth)).body;
        const empty = await t.get(`/v1/courses/${c.id}/labels`, auth);
        expect(empty.status).toBe(200);
        expect(empty.body.count).toBe(1);
        expect(empty.body.results[0]).toEqual({ label: { id: expect.stringMatching(/^[0-9a-z]+$/), name: `first-${mode}` } });

        const added = await t.post(`/v1/courses/${c.id}/labels`, { label: { id: label.id } }, auth);
        expect(added.status).toBe(201);
        expect(added.body).toEqual({ label: { id: label.id, name: `second-${mode}` } });
        const again = await t.post(`/v1/courses/${c.id}/labels`, { label: { id: label.id } }, auth);
        expect(again.status).toBe(201);
        const list = await t.get(`/v1/courses/${c.id}/labels`, auth);
        expect(list.body.count).toBe(2);
        expect(list.body.results.map((r: any) => r.label.name)).toEqual([`first-${mode}`, `second-${mode}`]);
        expect((await t.get(`/v1/courses/${c.id}`, auth)).body.labels).toEqual([`first-${mode}`, `second-${mode}`]);

        const read = await t.get(`/v1/courses/${c.id}/labels/${label.id}`, auth);
        expect(read.status).toBe(200);
        expect(read.body).toEqual({ label: { id: label.id, name: `second-${mode}` } });
        expect((await t.delete(`/v1/courses/${c.id}/labels/${label.id}`, auth)).status).toBe(204);
        expect((await t.get(`/v1/courses/${c.id}/labels/${label.id}`, auth)).status).toBe(404);
        expect((await t.delete(`/v1/courses/${c.id}/labels/${label.id}`, auth)).status).toBe(404);
        expect((await t.get(`/v1/courses/${c.id}`, auth)).body.labels).toEqual([`first-${mode}`]);
        // the label itself stays
        expect((await t.get(`/v1/labels/${label.id}`, auth)).status).toBe(200);
      });
    }

    it('bad label references are 400; other organizations are 404 or 400; the scope is checked', async () => {
      const c = (await t.post('/v1/courses', base, key())).body;
      expect((await t.post(`/v1/courses/${c.id}/labels`, {}, key())).body).toEqual({ label: ['This field is required.'] });
      expect((await t.post(`/v1/courses/${c.id}/labels`, { label: {} }, key())).body).toEqual({ label: { id: ['This field is required.'] } });
      expect((await t.post(`/v1/courses/${c.id}/labels`, { label: 'x' }, key())).status).toBe(400);
      const nope = await t.post(`/v1/courses/${c.id}/labels`, { label: { id: 'lbl_nope' } }, key());
      expect(nope.status).toBe(400);
      expect(nope.body.label.id[0]).toContain('object does not exist');
      const foreign = (await t.post('/v1/labels', { name: 'Foreign' }, { basic: other.api_key })).body;
      expect((await t.post(`/v1/courses/${c.id}/labels`, { label: { id: foreign.id } }, key())).status).toBe(400);
      const mine = (await t.post('/v1/labels', { name: 'Mine for course' }, key())).body;
      expect((await t.post(`/v1/courses/${c.id}/labels`, { label: { id: mine.id } }, { basic: other.api_key })).status).toBe(404);
      await t.post(`/v1/courses/${c.id}/labels`, { label: { id: mine.id } }, key());
      expect((await t.delete(`/v1/courses/${c.id}/labels/${mine.id}`, { basic: other.api_key })).status).toBe(404);
      expect((await t.get(`/v1/courses/${c.id}/labels/${mine.id}`, { basic: other.api_key })).status).toBe(404);
      expect((await t.get(`/v1/courses/${c.id}/labels`, key())).body.count).toBe(1);
      const readOnly = await t.tokenFor(org, ['courses:read']);
      expect((await t.post(`/v1/courses/${c.id}/labels`, { label: { id: mine.id } }, { token: readOnly })).status).toBe(403);
      expect((await t.get(`/v1/courses/${c.id}/labels`)).status).toBe(401);
    });
  });
});
