import { startTestApp, TestApp } from '../support/app';
import { twoOrgs } from '../support/two-orgs';
import { countQueries, insertCourse, insertLesson, insertStudent, orgUuid, publishCourse, rate } from '../support/fixtures';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

describe('/v2/courses', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let otherToken: string;
  const item = (attributes: Record<string, unknown>) => ({ type: 'courses', attributes });

  beforeAll(async () => {
    t = await startTestApp();
    ({ a: org, b: other, tokenA: token, tokenB: otherToken } = await twoOrgs(t, { scopes: ['courses:read', 'courses:write'] }));
  });
  afterAll(() => t.close());

  describe('auth', () => {
    it('401 without a token, 403 without the scope (read and write)', async () => {
      expect((await t.get('/v2/courses/')).status).toBe(401);
      expect((await t.post('/v2/courses/', { data: [item({ title: 'x' })] })).status).toBe(401);
      const noScope = await t.tokenFor(org, ['lessons:read']);
      expect((await t.get('/v2/courses/', { token: noScope })).status).toBe(403);
      const c = await insertCourse(t, org);
      expect((await t.get(`/v2/courses/${c.id}`, { token: noScope })).status).toBe(403);
      const readOnly = await t.tokenFor(org, ['courses:read']);
      expect((await t.post('/v2/courses/', { data: [item({ title: 'x' })] }, { token: readOnly })).status).toBe(403);
      expect((await t.patch('/v2/courses/', { data: [{ type: 'courses', id: c.id, attributes: { title: 'y' } }] }, { token: readOnly })).status).toBe(403);
      const writeOnly = await t.tokenFor(org, ['courses:write']);
      expect((await t.get('/v2/courses/', { token: writeOnly })).status).toBe(403);
    });
  });

  describe('read', () => {
    it('filter[updated_since]: the courses changed at or after the time, ordered by last change, paginated in that order; a bad time is 422', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o, ['courses:read', 'courses:write']);
      const [c1, c2, c3] = [await insertCourse(t, o, { title: 'One' }), await insertCourse(t, o, { title: 'Two' }), await insertCourse(t, o, { title: 'Three' })];
      await insertCourse(t, other, { title: 'Elsewhere' });
      await new Promise((r) => setTimeout(r, 20));
      const mark = new Date().toISOString();
      await new Promise((r) => setTimeout(r, 20));
      for (const c of [c3, c1]) {
        expect((await t.patch('/v2/courses/', { data: [{ type: 'courses', id: c.id, attributes: { title: `${c.id} changed` } }] }, { token: tk })).status).toBe(200);
        await new Promise((r) => setTimeout(r, 5));
      }
      const seen: string[] = [];
      let url: string | null = `/v2/courses/?page[size]=1&filter[updated_since]=${encodeURIComponent(mark)}`;
      while (url) {
        const res: any = await t.get(url, { token: tk });
        expect(res.status).toBe(200);
        seen.push(...res.body.data.map((d: any) => d.id));
        url = res.body.links.next ? new URL(res.body.links.next).pathname + new URL(res.body.links.next).search : null;
      }
      expect(seen).toEqual([c3.id, c1.id]);
      const all: any = await t.get(`/v2/courses/?filter[updated_since]=${encodeURIComponent('2000-01-01T00:00:00Z')}`, { token: tk });
      expect(all.body.data.map((d: any) => d.id)).toEqual([c2.id, c3.id, c1.id]);
      for (const bad of ['2024-01-01T00:00:00', 'yesterday']) {
        const res = await t.get(`/v2/courses/?filter[updated_since]=${bad}`, { token: tk });
        expect(res.status).toBe(422);
        expect(res.body.errors[0]).toMatchObject({ code: 'validation_error', source: { parameter: 'filter[updated_since]' } });
      }
    });

    it('lists only live courses of the organization, with the CourseAttributes members', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o, ['courses:read']);
      const live = await insertCourse(t, o, { title: 'Live one' });
      await insertCourse(t, o, { title: 'Draft', is_draft: true });
      await insertCourse(t, o, { title: 'Gone', deleted: true });
      await insertCourse(t, other, { title: 'Other org' });
      const res = await t.get('/v2/courses/', { token: tk });
      expect(res.status).toBe(200);
      expect(res.body.data.map((d: any) => d.id)).toEqual([live.id]);
      const r = res.body.data[0];
      expect(r.type).toBe('courses');
      expect(Object.keys(r.attributes).sort()).toEqual(
        [
          ...[
            'average_rating',
            'created_at',
            'enforce_sequential_navigation',
            'external_id',
            'is_published',
            'lesson_count',
            'long_description_html',
            'modified_at',
            'promo_image_url',
            'short_description',
            'title',
          ],
          // extensions (CONVENTIONS §15): the course's certificate settings
          ...['issues_certificate', 'certificate_validity_days'],
        ].sort(),
      );
      expect(r.attributes.external_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(res.body).toMatchObject({ meta: { page_size: 25 }, has_more: false, next_cursor: null, links: { next: null } });
    });

    it('computes lesson_count, average_rating, is_published and modified_at set-wise', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o, ['courses:read']);
      const a = await insertCourse(t, o, { title: 'A' });
      const b = await insertCourse(t, o, { title: 'B' });
      const later = new Date(Date.now() + 60_000);
      await insertLesson(t, o, a.uuid);
      await insertLesson(t, o, a.uuid, { updated_at: later });
      await insertLesson(t, o, a.uuid, { is_draft: true });
      await insertLesson(t, o, a.uuid, { deleted: true });
      const s1 = await insertStudent(t, o);
      const s2 = await insertStudent(t, o);
      await rate(t, o, a.uuid, s1.uuid, 4);
      await rate(t, o, a.uuid, s2.uuid, 5);
      // a rating on another scale does not count on a 5-point organization
      await t.ds.query(`INSERT INTO course_ratings (organization_id, course_id, user_id, rating, scale_max) VALUES ($1, $2, $3, 10, 10)`, [orgUuid(o), a.uuid, s1.uuid]);
      await publishCourse(t, o, a.uuid);
      const pub = await publishCourse(t, o, b.uuid);
      await t.ds.query(`UPDATE published_courses SET unpublished_at = now() WHERE id = $1`, [pub.uuid]);

      const res = await t.get('/v2/courses/', { token: tk });
      const byId = Object.fromEntries(res.body.data.map((d: any) => [d.id, d.attributes]));
      expect(byId[a.id]).toMatchObject({ lesson_count: 2, average_rating: 4.5, is_published: true, modified_at: later.toISOString() });
      expect(byId[b.id]).toMatchObject({ lesson_count: 0, average_rating: null, is_published: false });
      const one = await t.get(`/v2/courses/${a.id}`, { token: tk });
      expect(one.body.data.attributes).toEqual(byId[a.id]);

      // one statement for the computed members of the whole page, whatever its size
      for (let i = 0; i < 10; i++) await insertCourse(t, o);
      const { count } = await countQueries(() => t.get('/v2/courses/', { token: tk }));
      const { count: small } = await countQueries(() => t.get('/v2/courses/?page[size]=1', { token: tk }));
      expect(count).toBe(small);
      expect(count).toBeLessThanOrEqual(4);
    });

    it('GET by id: 404 for draft, deleted, other-organization and undecodable ids', async () => {
      const draft = await insertCourse(t, org, { is_draft: true });
      const gone = await insertCourse(t, org, { deleted: true });
      const theirs = await insertCourse(t, other);
      for (const id of [draft.id, gone.id, theirs.id, 'nope', 'crs_' + 'A'.repeat(22), (await insertStudent(t, org)).id, 'x'.repeat(90)]) {
        const res = await t.get(`/v2/courses/${encodeURIComponent(id)}`, { token });
        expect(res.status).toBe(404);
        expect(res.body.errors[0].code).toBe('not_found');
      }
      expect((await t.get(`/v2/courses/${theirs.id}`, { token: otherToken })).status).toBe(200);
    });

    it('filter[title] is a case-insensitive partial match with % and _ taken literally', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o, ['courses:read']);
      const a = await insertCourse(t, o, { title: 'Intro to SQL' });
      const b = await insertCourse(t, o, { title: '100% Fun_Stuff' });
      await insertCourse(t, o, { title: '100 Funny Stuff' });
      await insertCourse(t, other, { title: 'Intro to SQL too' });
      const q = async (v: string) => (await t.get(`/v2/courses/?filter[title]=${encodeURIComponent(v)}`, { token: tk })).body.data.map((d: any) => d.id);
      expect(await q('sql')).toEqual([a.id]);
      expect(await q('INTRO TO')).toEqual([a.id]);
      expect(await q('0%')).toEqual([b.id]);
      expect(await q('n_s')).toEqual([b.id]);
      expect(await q('%')).toEqual([b.id]);
      expect(await q('nothing like it')).toEqual([]);
    });

    it('paginates with a cursor; bad sizes are 422 and tampered cursors 400', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o, ['courses:read']);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await insertCourse(t, o, { title: `P${i}` })).id);
      const seen: string[] = [];
      let url: string | null = '/v2/courses/?page[size]=2';
      while (url) {
        const res: any = await t.get(url, { token: tk });
        expect(res.status).toBe(200);
        seen.push(...res.body.data.map((d: any) => d.id));
        url = res.body.links.next ? res.body.links.next.replace(/^https?:\/\/[^/]+/, '') : null;
      }
      // keyset order (created_at, id): rows made in the same millisecond are ordered by id
      const all = (await t.get('/v2/courses/?page[size]=100', { token: tk })).body.data.map((d: any) => d.id);
      expect(seen).toEqual(all);
      expect([...seen].sort()).toEqual([...ids].sort());
      for (const bad of ['page[size]=0', 'page[size]=101', 'page[size]=abc', 'page[size]=1&page[size]=2', 'filter[title]=a&filter[title]=b']) {
        const res = await t.get(`/v2/courses/?${bad}`, { token: tk });
        expect(res.status).toBe(422);
      }
      expect((await t.get('/v2/courses/?page[cursor]=garbage', { token: tk })).status).toBe(400);
      expect((await t.get('/v2/courses/?filter[title]=%00', { token: tk })).status).toBe(422);
    });
  });

  describe('batch create', () => {
    it('creates every item (no within-batch dedupe) and applies defaults', async () => {
      const res = await t.post(
        '/v2/courses/',
        { data: [item({ title: 'Same' }), item({ title: 'Same', short_description: 's', long_description_html: '<p>l</p>', enforce_sequential_navigation: true })] },
        { token },
      );
      expect(res.status).toBe(200);
      expect(res.body.summary).toEqual({ total: 2, succeeded: 2, failed: 0 });
      const [a, b] = res.body.data;
      expect(a.id).not.toBe(b.id);
      expect(a.result.attributes).toMatchObject({
        title: 'Same',
        short_description: '',
        long_description_html: '',
        enforce_sequential_navigation: false,
        lesson_count: 0,
        is_published: false,
        average_rating: null,
      });
      expect(b.result.attributes).toMatchObject({ short_description: 's', long_description_html: '<p>l</p>', enforce_sequential_navigation: true });
      expect((await t.get(`/v2/courses/${b.id}`, { token })).body.data.attributes.title).toBe('Same');
    });

    it('created_by_email must resolve to a student or administrator of the organization; only that row fails', async () => {
      const stu = await insertStudent(t, org, { email: 'Author@Example.test' });
      void stu;
      const inactive = await insertStudent(t, org, { email: 'gone@example.test', is_inactive: true });
      void inactive;
      const theirs = await insertStudent(t, other, { email: 'theirs@example.test' });
      void theirs;
      const [admin] = await t.ds.query(`SELECT email FROM admins WHERE organization_id = $1 LIMIT 1`, [orgUuid(org)]);
      const data = [
        item({ title: 'ok student', created_by_email: 'author@EXAMPLE.test' }),
        item({ title: 'unknown', created_by_email: 'nobody@example.test' }),
        item({ title: 'other org', created_by_email: 'theirs@example.test' }),
        item({ title: 'inactive', created_by_email: 'gone@example.test' }),
        item({ title: 'not an email', created_by_email: 'not-an-email' }),
        item({ title: 'null is fine', created_by_email: null }),
        ...(admin ? [item({ title: 'admin', created_by_email: String(admin.email).toUpperCase() })] : []),
      ];
      const res = await t.post('/v2/courses/', { data }, { token });
      expect(res.status).toBe(207);
      const st = res.body.data.map((d: any) => d.status);
      expect(st.slice(0, 6)).toEqual(['succeeded', 'failed', 'failed', 'failed', 'failed', 'succeeded']);
      if (admin) expect(st[6]).toBe('succeeded');
      for (const i of [1, 2, 3, 4]) {
        expect(res.body.data[i].error).toMatchObject({ code: 'validation_error', source: { pointer: `/data/${i}/attributes/created_by_email` } });
        expect(res.body.data[i].id).toBeNull();
      }
      const [row] = await t.ds.query(`SELECT created_by_email FROM courses WHERE id = $1`, [res.body.data[0].result ? decodeCourse(res.body.data[0].id) : null]);
      expect(row.created_by_email).toBe('Author@Example.test');
      const titles = (await t.ds.query(`SELECT title FROM courses WHERE organization_id = $1`, [orgUuid(org)])).map((r: any) => r.title);
      expect(titles).not.toContain('unknown');
    });

    it('per-item validation errors with pointers; bad envelopes are 400; never a 500', async () => {
      const res = await t.post(
        '/v2/courses/',
        {
          data: [
            item({ title: 'fine' }),
            item({}),
            item({ title: '' }),
            item({ title: 'x'.repeat(501) }),
            item({ title: 42 }),
            item({ title: 'bad bool', enforce_sequential_navigation: 'yes' }),
            { type: 'lessons', attributes: { title: 'wrong type' } },
            'not an object',
            { type: 'courses' },
            { type: 'courses', attributes: [] },
            null,
          ],
        },
        { token },
      );
      expect(res.status).toBe(207);
      expect(res.body.data.map((d: any) => d.status)).toEqual(['succeeded', ...Array(10).fill('failed')]);
      expect(res.body.data[1].error.source.pointer).toBe('/data/1/attributes/title');
      expect(res.body.data[2].error.source.pointer).toBe('/data/2/attributes/title');
      expect(res.body.data[5].error.source.pointer).toBe('/data/5/attributes/enforce_sequential_navigation');
      expect(res.body.data[6].error.source.pointer).toBe('/data/6/type');
      for (const d of res.body.data.slice(1)) expect(d.error.code).toBe('validation_error');
      for (const body of [{ data: [] }, { data: Array(101).fill(item({ title: 'x' })) }, { data: 'x' }, { nope: 1 }, []]) {
        const r = await t.post('/v2/courses/', body, { token });
        expect(r.status).toBe(400);
      }
    });
  });

  describe('batch update', () => {
    it('updates by id; null or omitted members are unchanged', async () => {
      const c = await insertCourse(t, org, { title: 'Before' });
      const res = await t.patch('/v2/courses/', { data: [{ type: 'courses', id: c.id, attributes: { short_description: 'new', title: null, enforce_sequential_navigation: true } }] }, { token });
      expect(res.status).toBe(200);
      expect(res.body.data[0]).toMatchObject({ status: 'succeeded', id: c.id });
      expect(res.body.data[0].result.attributes).toMatchObject({ title: 'Before', short_description: 'new', enforce_sequential_navigation: true });
      const again = await t.get(`/v2/courses/${c.id}`, { token });
      expect(again.body.data.attributes).toMatchObject({ title: 'Before', short_description: 'new' });
    });

    it('not_found for malformed, missing, other-organization, deleted and draft ids; the other rows are untouched', async () => {
      const mine = await insertCourse(t, org, { title: 'Mine' });
      const theirs = await insertCourse(t, other, { title: 'Theirs' });
      const draft = await insertCourse(t, org, { title: 'Draft', is_draft: true });
      const gone = await insertCourse(t, org, { title: 'Gone', deleted: true });
      const ids = ['garbage', 'crs_' + 'B'.repeat(22), theirs.id, draft.id, gone.id];
      const res = await t.patch(
        '/v2/courses/',
        { data: [{ type: 'courses', id: mine.id, attributes: { title: 'Mine 2' } }, ...ids.map((id) => ({ type: 'courses', id, attributes: { title: 'Hacked' } }))] },
        { token },
      );
      expect(res.status).toBe(207);
      expect(res.body.data[0].status).toBe('succeeded');
      res.body.data.slice(1).forEach((d: any, i: number) => {
        expect(d.status).toBe('failed');
        expect(d.error).toMatchObject({ code: 'not_found', source: { pointer: `/data/${i + 1}/id` } });
      });
      const titles = await t.ds.query(`SELECT id, title FROM courses WHERE id = ANY($1::uuid[])`, [[theirs.uuid, draft.uuid, gone.uuid]]);
      expect(titles.map((r: any) => r.title).sort()).toEqual(['Draft', 'Gone', 'Theirs']);
      expect((await t.get(`/v2/courses/${theirs.id}`, { token: otherToken })).body.data.attributes.title).toBe('Theirs');
    });

    it('repeated ids apply in order; bad attributes are validation_error; an unhandled error fails only its item (internal_error)', async () => {
      const c = await insertCourse(t, org, { title: 'R0' });
      const d = await insertCourse(t, org, { title: 'D0' });
      const e = await insertCourse(t, org, { title: 'E0' });
      // an unexpected server-side failure for one row: a trigger that raises for one title
      await t.ownerQuery(`CREATE FUNCTION explode_trg() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.title = 'explode' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$`);
      await t.ownerQuery(`CREATE TRIGGER explode BEFORE UPDATE ON courses FOR EACH ROW EXECUTE FUNCTION explode_trg()`);
      try {
        const res = await t.patch(
          '/v2/courses/',
          {
            data: [
              { type: 'courses', id: c.id, attributes: { title: 'R1' } },
              { type: 'courses', id: c.id, attributes: { short_description: 'S' } },
              { type: 'courses', id: c.id, attributes: { title: 5 } },
              { type: 'courses', attributes: { title: 'no id' } },
              { type: 'courses', id: ['x'], attributes: {} },
              { type: 'courses', id: d.id, attributes: { title: '' } },
              { type: 'courses', id: c.id, attributes: 'nope' },
              { type: 'courses', id: e.id, attributes: { title: 'explode' } },
            ],
          },
          { token },
        );
        expect(res.status).toBe(207);
        expect(res.body.data.map((x: any) => x.status)).toEqual(['succeeded', 'succeeded', 'failed', 'failed', 'failed', 'failed', 'failed', 'failed']);
        expect(res.body.data[1].result.attributes).toMatchObject({ title: 'R1', short_description: 'S' });
        expect(res.body.data[2].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/2/attributes/title' } });
        expect(res.body.data[3].error).toMatchObject({ code: 'validation_error', source: { pointer: '/data/3/id' } });
        expect(res.body.data[5].error.code).toBe('validation_error'); // (a NUL character is refused with the whole request: test/platform/nul-characters)
        expect(res.body.data[6].error.code).toBe('validation_error');
        expect(res.body.data[7].error.code).toBe('internal_error');
        const rows = await t.ds.query(`SELECT id, title FROM courses WHERE id = ANY($1) ORDER BY title`, [[d.uuid, e.uuid]]);
        expect(rows.map((r: any) => r.title)).toEqual(['D0', 'E0']);
      } finally {
        await t.ownerQuery(`DROP TRIGGER explode ON courses`);
        await t.ownerQuery(`DROP FUNCTION explode_trg()`);
      }
    });
  });

  describe('statement counts', () => {
    it('a batch create and a batch update of 100 courses take at most 10 SQL statements each', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o, ['courses:read', 'courses:write']);
      const s = await insertStudent(t, o, { email: 'maker@example.test' });
      void s;
      const data = Array.from({ length: 100 }, (_, i) => item({ title: `Bulk ${i}`, created_by_email: i % 2 ? 'maker@example.test' : undefined }));
      const created = await countQueries(() => t.post('/v2/courses/', { data }, { token: tk }));
      expect(created.result.status).toBe(200);
      expect(created.result.body.summary.succeeded).toBe(100);
      expect(created.count).toBeLessThanOrEqual(10);

      const ids = created.result.body.data.map((d: any) => d.id);
      const upd = await countQueries(() => t.patch('/v2/courses/', { data: ids.map((id: string, i: number) => ({ type: 'courses', id, attributes: { title: `Renamed ${i}` } })) }, { token: tk }));
      expect(upd.result.status).toBe(200);
      expect(upd.result.body.data[99].result.attributes.title).toBe('Renamed 99');
      expect(upd.count).toBeLessThanOrEqual(10);
      // eslint-disable-next-line no-console
      console.log(
        `SQL statements: create 100 = ${created.count}, update 100 = ${upd.count}\n${[...created.statements, '---', ...upd.statements].map((q) => q.slice(0, 90).replace(/\s+/g, ' ')).join('\n')}`,
      );
    });
  });
});

function decodeCourse(id: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../../src/core/ids/ids').decodeId('course', id);
}

describe('/openapi.json documents the area', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lists the paths with their filters', async () => {
    const doc = (await t.get('/openapi.json')).body;
    for (const p of [
      '/v2/courses',
      '/v2/courses/{id}',
      '/v2/lessons',
      '/v2/lessons/{id}',
      '/v2/analytics/courses/{course_id}',
      '/v2/analytics/courses/{course_id}/ratings',
      '/v2/certificates',
      '/v2/certificates/{id}',
    ]) {
      expect(doc.paths).toHaveProperty([p]);
    }
    const names = (op: any) => op.parameters.map((x: any) => x.name);
    expect(names(doc.paths['/v2/lessons'].get)).toEqual(expect.arrayContaining(['filter[course_id]', 'filter[type]', 'filter[title]', 'filter[updated_since]', 'page[size]', 'page[cursor]']));
    expect(names(doc.paths['/v2/certificates'].get)).toEqual(expect.arrayContaining(['filter[status]', 'filter[issued_gte]', 'filter[course.id]']));
  });
});
