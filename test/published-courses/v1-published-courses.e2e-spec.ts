import { startTestApp, TestApp } from '../support/app';
import { domainOf, enroll, insertCourse, insertDomain, insertStudent, orgUuid, publishCourse } from '../support/fixtures';
import { encodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { drfFlat } from '../support/drf';

async function insertLesson(t: TestApp, org: CreatedOrg, courseUuid: string, attrs: { title?: string; order?: number; optional?: boolean; keywords?: string; type?: string } = {}) {
  const [row] = await t.ds.query(`INSERT INTO lessons (organization_id, course_id, title, type, "order", optional, search_keywords) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, [
    orgUuid(org),
    courseUuid,
    attrs.title ?? 'Lesson',
    attrs.type ?? 'HTML',
    attrs.order ?? 0,
    attrs.optional ?? false,
    attrs.keywords ?? '',
  ]);
  return { uuid: row.id as string, id: encodeId('lesson', row.id) };
}

async function courseWith(t: TestApp, org: CreatedOrg, title: string, attrs: { short?: string; long?: string; keywords?: string[] } = {}) {
  const c = await insertCourse(t, org, { title });
  await t.ds.query(`UPDATE courses SET short_description = $2, long_description_html = $3 WHERE id = $1`, [c.uuid, attrs.short ?? '', attrs.long ?? '']);
  for (const [i, k] of (attrs.keywords ?? []).entries()) await insertLesson(t, org, c.uuid, { title: `L${i}`, order: i, keywords: k });
  return c;
}

describe('/v1 published courses', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let domain: string;
  const modes = () =>
    [
      ['api key', { basic: org.api_key }],
      ['bearer', { token }],
    ] as const;
  const base = () => `/v1/domains/${domain}/published-courses`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
    domain = org.domain_name;
  });
  afterAll(() => t.close());

  it('create publishes a course: slug derived from the title, made unique; shape per the v1 schema', async () => {
    const c = await insertCourse(t, org, { title: 'Intro to Widgets!' });
    await insertLesson(t, org, c.uuid, { order: 1 });
    await insertLesson(t, org, c.uuid, { order: 2, optional: true });
    await insertLesson(t, org, c.uuid, { order: 0, type: 'SECTION' });
    const res = await t.post(base(), { course: { id: c.id } }, { basic: org.api_key });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-z]+$/),
      course: { id: c.id, title: 'Intro to Widgets!', lesson_count: 2, required_lesson_count: 1 },
      slug: 'intro-to-widgets',
      course_url: `https://${domain}/intro-to-widgets`,
      hidden: false,
      strict_enforce_group_visibility: false,
      registration_required: false,
      restrict_access_start_end_dates: false,
      allow_self_service_reenroll: false,
      unique_progress_per_enrollment: false,
      require_all_prerequisites: false,
      timezone: null,
      offer: { id: expect.stringMatching(/^ofr[0-9a-z]+$/), registration_open: true, registration_url: expect.any(String), price: { amount: '0.00', currency_code: 'USD' } },
    });
    // same title on another course: the derived slug gets a suffix
    const c2 = await insertCourse(t, org, { title: 'Intro to widgets' });
    const res2 = await t.post(base(), { course: { id: c2.id }, hidden: true, strict_enforce_group_visibility: true, registration_starts_at: '2026-01-01T00:00:00Z' }, { token });
    expect(res2.status).toBe(201);
    expect(res2.body).toMatchObject({ slug: 'intro-to-widgets-2', hidden: true, strict_enforce_group_visibility: true, registration_starts_at: '2026-01-01T00:00:00.000Z' });
    // the same course twice on a domain
    const again = await t.post(base(), { course: { id: c.id } }, { token });
    expect(again.status).toBe(400);
    expect(again.body.course).toEqual(expect.any(Array));
  });

  it('an explicit slug already live on the domain is a 400; another domain may use it', async () => {
    const a = await insertCourse(t, org);
    const b = await insertCourse(t, org);
    const ok = await t.post(base(), { course: { id: a.id }, slug: 'shared-slug' }, { basic: org.api_key });
    expect(ok.status).toBe(201);
    const dup = await t.post(base(), { course: { id: b.id }, slug: 'shared-slug' }, { basic: org.api_key });
    expect(dup.status).toBe(400);
    expect(dup.body.slug).toEqual(expect.any(Array));
    const d2 = await insertDomain(t, org);
    const other = await t.post(`/v1/domains/${d2.name}/published-courses`, { course: { id: b.id }, slug: 'shared-slug' }, { token });
    expect(other.status).toBe(201);
    expect(other.body.course_url).toBe(`https://${d2.name}/shared-slug`);
  });

  it('bad create bodies are 400 field errors, never 500', async () => {
    const c = await insertCourse(t, org);
    const draft = await insertCourse(t, org, { is_draft: true });
    const deleted = await insertCourse(t, org, { deleted: true });
    const cases: [unknown, string][] = [
      [{}, 'course'],
      [{ course: null }, 'course'],
      [{ course: 'x' }, 'course'],
      [{ course: {} }, 'course'],
      [{ course: { id: 'crs_nope' } }, 'course'],
      [{ course: { id: draft.id } }, 'course'],
      [{ course: { id: deleted.id } }, 'course'],
      [{ course: { id: c.id }, slug: 'Bad Slug' }, 'slug'],
      [{ course: { id: c.id }, slug: 'x'.repeat(101) }, 'slug'],
      [{ course: { id: c.id }, hidden: 'yes' }, 'hidden'],
      [{ course: { id: c.id }, hidden: null }, 'hidden'],
      [{ course: { id: c.id }, registration_starts_at: 'tomorrow' }, 'registration_starts_at'],
      [{ course: { id: c.id }, registration_starts_at: '2026-02-01T00:00:00Z', registration_ends_at: '2026-01-01T00:00:00Z' }, 'registration_ends_at'],
    ];
    for (const [body, field] of cases) {
      const res = await t.post(base(), body, { basic: org.api_key });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(drfFlat(res.body)[field]).toEqual(expect.any(Array));
    }
    const [n] = await t.ds.query(`SELECT count(*)::int AS n FROM published_courses WHERE course_id = $1`, [c.uuid]);
    expect(n.n).toBe(0);
  });

  it('list (page, course__id, include_searchable_content) and read, with both credentials', async () => {
    const d = await insertDomain(t, org);
    const c1 = await courseWith(t, org, 'Alpha', { short: 'short a', long: '<p>long a</p>', keywords: ['kw-one', 'kw-two'] });
    const c2 = await courseWith(t, org, 'Beta');
    const p1 = await t.post(`/v1/domains/${d.name}/published-courses`, { course: { id: c1.id } }, { token });
    const p2 = await t.post(`/v1/domains/${d.name}/published-courses`, { course: { id: c2.id } }, { token });
    for (const [, auth] of modes()) {
      const list = await t.get(`/v1/domains/${d.name}/published-courses`, auth);
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(2);
      expect(list.body.results.map((r: any) => r.id)).toEqual([p1.body.id, p2.body.id]);
      expect(list.body.results[0].lesson_list).toBeUndefined();
      const filtered = await t.get(`/v1/domains/${d.name}/published-courses?course__id=${c2.id}`, auth);
      expect(filtered.body.results.map((r: any) => r.id)).toEqual([p2.body.id]);
      const none = await t.get(`/v1/domains/${d.name}/published-courses?course__id=garbage`, auth);
      expect(none.body).toMatchObject({ count: 0, results: [] });
      const rich = await t.get(`/v1/domains/${d.name}/published-courses?include_searchable_content=true`, auth);
      expect(rich.body.results[0]).toMatchObject({
        lesson_list: [expect.objectContaining({ title: 'L0' }), expect.objectContaining({ title: 'L1' })],
        tags: [],
        short_description: 'short a',
        long_description_html: '<p>long a</p>',
        search_keywords: 'kw-one kw-two',
      });
      const read = await t.get(`/v1/domains/${d.name}/published-courses/${p1.body.id}`, auth);
      expect(read.status).toBe(200);
      expect(read.body.course).toEqual({ id: c1.id, title: 'Alpha', lesson_count: 2, required_lesson_count: 2, short_description: 'short a', long_description_html: '<p>long a</p>' });
      expect(read.body.lesson_list).toBeUndefined();
      const readRich = await t.get(`/v1/domains/${d.name}/published-courses/${p1.body.id}?include_searchable_content=1`, auth);
      expect(readRich.body.search_keywords).toBe('kw-one kw-two');
    }
    const badBool = await t.get(`/v1/domains/${d.name}/published-courses?include_searchable_content=maybe`, { token });
    expect(badBool.status).toBe(400);
    expect(badBool.body.include_searchable_content).toEqual(expect.any(Array));
    // a published course of another domain of the same org is not found under this one
    const elsewhere = await t.get(`/v1/domains/${domain}/published-courses/${p1.body.id}`, { token });
    expect(elsewhere.status).toBe(404);
    expect((await t.get(`/v1/domains/${d.name}/published-courses/pcs_garbage`, { token })).status).toBe(404);
  });

  it('catalog search: title matches first, then lesson keywords, then descriptions (full-text, GIN)', async () => {
    const d = await insertDomain(t, org);
    const byDesc = await courseWith(t, org, 'Cooking basics', { long: '<p>We also touch on <b>kubernetes</b> clusters.</p>' });
    const byKeyword = await courseWith(t, org, 'Cloud operations', { keywords: ['containers kubernetes'] });
    const byTitle = await courseWith(t, org, 'Kubernetes in depth');
    const unrelated = await courseWith(t, org, 'Painting', { short: 'brushes' });
    const byShort = await courseWith(t, org, 'Sailing', { short: 'no clusters of kubernetes here' });
    const ids: Record<string, string> = {};
    for (const c of [byDesc, byKeyword, byTitle, unrelated, byShort]) {
      const r = await t.post(`/v1/domains/${d.name}/published-courses`, { course: { id: c.id } }, { token });
      ids[c.id] = r.body.id;
    }
    for (const [, auth] of modes()) {
      const res = await t.get(`/v1/domains/${d.name}/published-courses?search=kubernetes`, auth);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(4);
      expect(res.body.results.map((r: any) => r.id)).toEqual([ids[byTitle.id], ids[byKeyword.id], ids[byDesc.id], ids[byShort.id]]);
    }
    const past = await t.get(`/v1/domains/${d.name}/published-courses?search=kubernetes&page=2`, { token });
    expect(past.status).toBe(404);
    // stemming and several words (AND)
    const multi = await t.get(`/v1/domains/${d.name}/published-courses?search=${encodeURIComponent('Kubernetes cluster')}`, { token });
    expect(multi.body.results.map((r: any) => r.id)).toEqual([ids[byDesc.id], ids[byShort.id]]);
    // keywords change when a lesson changes (trigger)
    await t.ds.query(`UPDATE lessons SET search_keywords = 'painting' WHERE course_id = $1`, [byKeyword.uuid]);
    const after = await t.get(`/v1/domains/${d.name}/published-courses?search=kubernetes`, { token });
    expect(after.body.results.map((r: any) => r.id)).not.toContain(ids[byKeyword.id]);
    const nul = await t.get(`/v1/domains/${d.name}/published-courses?search=a%00b`, { token });
    expect(nul.body).toEqual({ count: 0, next: null, previous: null, results: [] }); // a filter matches nothing, never fails (issue 25 item 7)
    const nothing = await t.get(`/v1/domains/${d.name}/published-courses?search=${encodeURIComponent('"unbalanced & | !')}`, { token });
    expect(nothing.status).toBe(200);
    const plan = await t.ds.transaction(async (m) => {
      await m.query(`SET LOCAL enable_seqscan = off`);
      return m.query(`EXPLAIN SELECT id FROM courses c WHERE c.search_vector @@ websearch_to_tsquery('english', 'kubernetes')`);
    });
    expect(JSON.stringify(plan)).toContain('courses_search_vector_idx');
  });

  it('update (PUT and PATCH) changes slug, hidden, strict_enforce_group_visibility; slug conflicts are 400', async () => {
    const a = await insertCourse(t, org);
    const b = await insertCourse(t, org);
    const pa = await t.post(base(), { course: { id: a.id }, slug: 'upd-a' }, { token });
    await t.post(base(), { course: { id: b.id }, slug: 'upd-b' }, { token });
    for (const [label, auth] of modes()) {
      const slug = `upd-a-${label === 'bearer' ? 'tok' : 'key'}`;
      const patch = await t.patch(`${base()}/${pa.body.id}`, { slug, hidden: true }, auth);
      expect(patch.status).toBe(200);
      expect(patch.body).toMatchObject({ id: pa.body.id, slug, hidden: true, course_url: `https://${domain}/${slug}` });
      const put = await t.request('PUT', `${base()}/${pa.body.id}`, { ...auth, body: { strict_enforce_group_visibility: true, hidden: false } });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ slug, hidden: false, strict_enforce_group_visibility: true });
    }
    const clash = await t.patch(`${base()}/${pa.body.id}`, { slug: 'upd-b' }, { token });
    expect(clash.status).toBe(400);
    expect(clash.body.slug).toEqual(expect.any(Array));
    const same = await t.patch(`${base()}/${pa.body.id}`, { slug: 'upd-a-tok' }, { token });
    expect(same.status).toBe(200);
    const bad = await t.patch(`${base()}/${pa.body.id}`, { hidden: 'no' }, { token });
    expect(bad.status).toBe(400);
    expect((await t.patch(`${base()}/pcs_AAAAAAAAAAAAAAAAAAAAAA`, { hidden: true }, { token })).status).toBe(404);
  });

  it('delete unpublishes: 204, gone from list and read, slug free again, enrollments kept', async () => {
    const c = await insertCourse(t, org);
    const pc = await t.post(base(), { course: { id: c.id }, slug: 'to-unpublish' }, { token });
    const s = await insertStudent(t, org);
    const e = await enroll(t, org, s.uuid, { uuid: (await t.ds.query(`SELECT id FROM published_courses WHERE slug = 'to-unpublish'`))[0].id });
    const del = await t.delete(`${base()}/${pc.body.id}`, { basic: org.api_key });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await t.get(`${base()}/${pc.body.id}`, { token })).status).toBe(404);
    expect((await t.delete(`${base()}/${pc.body.id}`, { token })).status).toBe(404);
    expect((await t.patch(`${base()}/${pc.body.id}`, { hidden: true }, { token })).status).toBe(404);
    const list = await t.get(`${base()}?course__id=${c.id}`, { token });
    expect(list.body.count).toBe(0);
    const [row] = await t.ds.query(`SELECT unpublished_at FROM published_courses WHERE slug = 'to-unpublish'`);
    expect(row.unpublished_at).not.toBeNull();
    const [kept] = await t.ds.query(`SELECT id FROM enrollments WHERE id = $1`, [e.uuid]);
    expect(kept).toBeDefined();
    const republish = await t.post(base(), { course: { id: c.id }, slug: 'to-unpublish' }, { token });
    expect(republish.status).toBe(201);
    expect(republish.body.id).not.toBe(pc.body.id);
    // bearer delete too
    const del2 = await t.delete(`${base()}/${republish.body.id}`, { token });
    expect(del2.status).toBe(204);
  });

  it('401 without credentials, 403 without the published-courses scope', async () => {
    const c = await insertCourse(t, org);
    const pc = await publishCourse(t, org, c.uuid);
    expect((await t.get(base())).status).toBe(401);
    const other = await t.tokenFor(org, ['courses:read', 'domains:read']);
    const ro = await t.tokenFor(org, ['published-courses:read']);
    expect((await t.get(base(), { token: other })).status).toBe(403);
    expect((await t.get(`${base()}/${pc.id}`, { token: other })).status).toBe(403);
    expect((await t.get(`${base()}/${pc.id}`, { token: ro })).status).toBe(200);
    expect((await t.post(base(), { course: { id: c.id } }, { token: ro })).status).toBe(403);
    expect((await t.patch(`${base()}/${pc.id}`, { hidden: true }, { token: ro })).status).toBe(403);
    expect((await t.request('PUT', `${base()}/${pc.id}`, { token: ro, body: { hidden: true } })).status).toBe(403);
    expect((await t.delete(`${base()}/${pc.id}`, { token: ro })).status).toBe(403);
  });

  it('cross-organization: other org domain → 404, other org course → 400, other org published course → 404', async () => {
    const other = await t.newOrg();
    const theirCourse = await insertCourse(t, other);
    const theirPc = await publishCourse(t, other, theirCourse.uuid);
    expect((await t.get(`/v1/domains/${other.domain_name}/published-courses`, { token })).status).toBe(404);
    expect((await t.post(`/v1/domains/${other.domain_name}/published-courses`, { course: { id: (await insertCourse(t, org)).id } }, { token })).status).toBe(404);
    const res = await t.post(base(), { course: { id: theirCourse.id } }, { basic: org.api_key });
    expect(res.status).toBe(400);
    expect(res.body.course).toEqual(expect.any(Array));
    const mine = await t.get(base(), { token });
    expect(mine.body.results.map((r: any) => r.id)).not.toContain(theirPc.id);
    expect((await t.get(`${base()}/${theirPc.id}`, { token })).status).toBe(404);
    expect((await t.patch(`${base()}/${theirPc.id}`, { hidden: true }, { token })).status).toBe(404);
    expect((await t.delete(`${base()}/${theirPc.id}`, { token })).status).toBe(404);
    const [row] = await t.ds.query(`SELECT is_hidden, unpublished_at FROM published_courses WHERE id = $1`, [theirPc.uuid]);
    expect(row).toEqual({ is_hidden: false, unpublished_at: null });
    const d = await domainOf(t, other);
    expect(d.name).toBe(other.domain_name);
  });
});
