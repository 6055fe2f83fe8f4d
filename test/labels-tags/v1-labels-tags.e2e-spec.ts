import { decodeId } from '../../src/core/ids/ids';
import { startTestApp, TestApp } from '../support/app';
import { twoOrgs } from '../support/two-orgs';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

type Auth = { basic?: string; token?: string };

describe('/v1 labels and tags', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    ({ a: org, b: other, tokenA: token } = await twoOrgs(t));
  });
  afterAll(() => t.close());

  for (const family of ['labels', 'tags'] as const) {
    describe(`/v1/${family}`, () => {
      for (const mode of ['api key', 'bearer'] as const) {
        it(`create, read, list, update (PUT, PATCH) and delete with the ${mode}`, async () => {
          const auth: Auth = mode === 'api key' ? { basic: org.api_key } : { token };
          const name = `${family}-${mode}-Alpha`;
          const created = await t.post(`/v1/${family}`, { name }, auth);
          expect(created.status).toBe(201);
          expect(created.body.id).toMatch(/^[0-9a-z]+$/);
          expect(decodeId(family === 'labels' ? 'label' : 'tag', created.body.id)).not.toBeNull();
          expect(created.body.name).toBe(name);
          if (family === 'tags') expect(created.body.slug).toBe(`tags-${mode.replace(' ', '-')}-alpha`);
          else expect(Object.keys(created.body).sort()).toEqual(['id', 'name']);

          const read = await t.get(`/v1/${family}/${created.body.id}`, auth);
          expect(read.status).toBe(200);
          expect(read.body).toEqual(created.body);

          const list = await t.get(`/v1/${family}`, auth);
          expect(list.status).toBe(200);
          expect(list.body.results).toContainEqual(created.body);

          const put = await t.request('PUT', `/v1/${family}/${created.body.id}`, { ...auth, body: { name: `${name} Two` } });
          expect(put.status).toBe(200);
          expect(put.body.name).toBe(`${name} Two`);
          if (family === 'tags') expect(put.body.slug).toBe(`tags-${mode.replace(' ', '-')}-alpha-two`);

          const patch = await t.patch(`/v1/${family}/${created.body.id}`, { name: `${name} Three` }, auth);
          expect(patch.status).toBe(200);
          expect(patch.body.name).toBe(`${name} Three`);
          const emptyPatch = await t.patch(`/v1/${family}/${created.body.id}`, {}, auth);
          expect(emptyPatch.status).toBe(200);
          expect(emptyPatch.body.name).toBe(`${name} Three`);

          const del = await t.delete(`/v1/${family}/${created.body.id}`, auth);
          expect(del.status).toBe(204);
          expect((await t.get(`/v1/${family}/${created.body.id}`, auth)).status).toBe(404);
          expect((await t.delete(`/v1/${family}/${created.body.id}`, auth)).status).toBe(404);
        });
      }

      it('name is required on create and PUT, not on PATCH; blank, too long and non-string names are 400', async () => {
        const auth = { basic: org.api_key };
        const missing = await t.post(`/v1/${family}`, {}, auth);
        expect(missing.status).toBe(400);
        expect(missing.body).toEqual({ name: ['This field is required.'] });
        expect((await t.post(`/v1/${family}`, { name: null }, auth)).body).toEqual({ name: ['This field may not be null.'] });
        const blank = await t.post(`/v1/${family}`, { name: '' }, auth);
        expect(blank.status).toBe(400);
        expect(blank.body.name).toContain('This field may not be blank.');
        const long = await t.post(`/v1/${family}`, { name: 'x'.repeat(256) }, auth);
        expect(long.status).toBe(400);
        expect(long.body.name).toContain('Ensure this field has no more than 255 characters.');
        const nul = await t.post(`/v1/${family}`, { name: 'a\u0000' }, auth);
        expect(nul.body).toEqual({ name: ['Null characters are not allowed.'] });
        const num = await t.post(`/v1/${family}`, { name: 12 }, auth);
        expect(num.status).toBe(400);
        expect(num.body.name).toContain('Not a valid string.');
        expect((await t.request('POST', `/v1/${family}`, { ...auth, raw: { contentType: 'application/json', data: '[1]' } })).status).toBe(400);

        const created = await t.post(`/v1/${family}`, { name: `${family} req` }, auth);
        const put = await t.request('PUT', `/v1/${family}/${created.body.id}`, { ...auth, body: {} });
        expect(put.status).toBe(400);
        expect(put.body).toEqual({ name: ['This field is required.'] });
        const patchNull = await t.patch(`/v1/${family}/${created.body.id}`, { name: null }, auth);
        expect(patchNull.status).toBe(400);
        expect((await t.get(`/v1/${family}/${created.body.id}`, auth)).body.name).toBe(`${family} req`);
      });

      it('names are unique in the organization, case-insensitively (create, PUT, PATCH); another organization may reuse them', async () => {
        const auth = { basic: org.api_key };
        const a = await t.post(`/v1/${family}`, { name: `Unique ${family}` }, auth);
        expect(a.status).toBe(201);
        const dup = await t.post(`/v1/${family}`, { name: `unique ${family.toUpperCase()}` }, auth);
        expect(dup.status).toBe(400);
        expect(dup.body).toEqual({ name: [`${family.slice(0, -1)} with this name already exists.`] });
        const b = await t.post(`/v1/${family}`, { name: `Other ${family}` }, auth);
        const put = await t.request('PUT', `/v1/${family}/${b.body.id}`, { ...auth, body: { name: `UNIQUE ${family}` } });
        expect(put.status).toBe(400);
        expect(put.body.name).toHaveLength(1);
        const patch = await t.patch(`/v1/${family}/${b.body.id}`, { name: `unique ${family}` }, auth);
        expect(patch.status).toBe(400);
        expect((await t.get(`/v1/${family}/${b.body.id}`, auth)).body.name).toBe(`Other ${family}`);
        // renaming to its own name in another case is fine
        const self = await t.patch(`/v1/${family}/${a.body.id}`, { name: `UNIQUE ${family}` }, auth);
        expect(self.status).toBe(200);
        const elsewhere = await t.post(`/v1/${family}`, { name: `Unique ${family}` }, { basic: other.api_key });
        expect(elsewhere.status).toBe(201);
      });

      it('concurrent creates of one name give one 201 and 400s, never a 500', async () => {
        const results = await Promise.all(Array.from({ length: 5 }, () => t.post(`/v1/${family}`, { name: `Racy ${family}` }, { basic: org.api_key })));
        expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400]);
      });

      it('paginates with count, next and previous; page_size caps at 1000; a page past the end is 404', async () => {
        const o = await t.newOrg();
        const auth = { basic: o.api_key };
        for (let i = 0; i < 5; i++) expect((await t.post(`/v1/${family}`, { name: `p${i}` }, auth)).status).toBe(201);
        const p1 = await t.get(`/v1/${family}?page_size=2`, auth);
        expect(p1.status).toBe(200);
        expect(p1.body.count).toBe(5);
        expect(p1.body.results.map((r: any) => r.name)).toEqual(['p0', 'p1']);
        expect(p1.body.previous).toBeNull();
        expect(p1.body.next).toBe(`${t.baseUrl}/v1/${family}?page_size=2&page=2`);
        const p3 = await t.get(`/v1/${family}?page_size=2&page=3`, auth);
        expect(p3.body.results.map((r: any) => r.name)).toEqual(['p4']);
        expect(p3.body.next).toBeNull();
        expect(p3.body.previous).toBe(`${t.baseUrl}/v1/${family}?page_size=2&page=2`);
        expect((await t.get(`/v1/${family}?page=4&page_size=2`, auth)).status).toBe(404);
        expect((await t.get(`/v1/${family}?page=abc`, auth)).status).toBe(400);
        const all = await t.get(`/v1/${family}?page_size=5000`, auth);
        expect(all.body.results).toHaveLength(5);
        expect(all.body.next).toBeNull();
      });

      it('another organization never sees, reads, changes or deletes them', async () => {
        const mine = await t.post(`/v1/${family}`, { name: `Private ${family}` }, { basic: org.api_key });
        const theirs = { basic: other.api_key };
        const list = await t.get(`/v1/${family}?page_size=1000`, theirs);
        expect(list.body.results.map((r: any) => r.id)).not.toContain(mine.body.id);
        expect((await t.get(`/v1/${family}/${mine.body.id}`, theirs)).status).toBe(404);
        expect((await t.request('PUT', `/v1/${family}/${mine.body.id}`, { ...theirs, body: { name: 'hijack' } })).status).toBe(404);
        expect((await t.patch(`/v1/${family}/${mine.body.id}`, { name: 'hijack' }, theirs)).status).toBe(404);
        expect((await t.delete(`/v1/${family}/${mine.body.id}`, theirs)).status).toBe(404);
        const still = await t.get(`/v1/${family}/${mine.body.id}`, { basic: org.api_key });
        expect(still.status).toBe(200);
        expect(still.body.name).toBe(`Private ${family}`);
        expect((await t.get(`/v1/${family}/nonsense`, { basic: org.api_key })).status).toBe(404);
        expect((await t.get(`/v1/${family}/${family === 'labels' ? 'tag_' : 'lbl_'}${mine.body.id.split('_')[1]}`, { basic: org.api_key })).status).toBe(404);
      });

      it(`needs a credential (401) and the ${family} scope (403)`, async () => {
        expect((await t.get(`/v1/${family}`)).status).toBe(401);
        expect((await t.post(`/v1/${family}`, { name: 'x' })).status).toBe(401);
        const readOnly = await t.tokenFor(org, [`${family}:read`]);
        expect((await t.get(`/v1/${family}`, { token: readOnly })).status).toBe(200);
        const denied = await t.post(`/v1/${family}`, { name: 'no scope' }, { token: readOnly });
        expect(denied.status).toBe(403);
        expect(denied.body.detail).toBeDefined();
        const wrong = await t.tokenFor(org, ['courses:read']);
        expect((await t.get(`/v1/${family}`, { token: wrong })).status).toBe(403);
      });
    });
  }

  it('tag slugs are lowercase letters, digits and dashes, unique in the organization', async () => {
    const auth = { basic: org.api_key };
    const a = await t.post('/v1/tags', { name: 'Café & Crème!' }, auth);
    expect(a.body.slug).toBe('cafe-creme');
    const b = await t.post('/v1/tags', { name: 'Cafe Creme' }, auth);
    expect(b.status).toBe(201);
    expect(b.body.slug).toBe('cafe-creme-2');
    const c = await t.post('/v1/tags', { name: '日本語' }, auth);
    expect(c.body.slug).toBe('tag');
    const other2 = await t.post('/v1/tags', { name: 'Café & Crème!' }, { basic: other.api_key });
    expect(other2.body.slug).toBe('cafe-creme');
  });

  it('deleting a label removes it from its courses', async () => {
    const auth = { basic: org.api_key };
    const course = await t.post('/v1/courses', { title: 'Labelled', short_description: 's', enforce_sequential_navigation: false, labels: ['Doomed'] }, auth);
    expect(course.body.labels).toEqual(['Doomed']);
    const labels = await t.get('/v1/labels?page_size=1000', auth);
    const doomed = labels.body.results.find((l: any) => l.name === 'Doomed');
    expect((await t.delete(`/v1/labels/${doomed.id}`, auth)).status).toBe(204);
    expect((await t.get(`/v1/courses/${course.body.id}`, auth)).body.labels).toEqual([]);
  });
});
