import { startTestApp, TestApp } from '../support/app';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

/**
 * NUL characters (issue 25 item 15d): PostgreSQL refuses U+0000 in text and jsonb, so a NUL that
 * reached a statement came back as a database error (a 400 from the filter's safety net, after the
 * statements before it had run). body-guard.ts refuses them before any route code: anywhere in a
 * body (any content type), in query parameters and in path parameters, in the interface's envelope,
 * naming the member or parameter. Nothing is stored.
 */
describe('NUL characters are refused before the database', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  const basic = () => ({ basic: org.api_key });
  const NUL_V1 = ['Null characters are not allowed.'];

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  describe('in a body', () => {
    it('/v1 JSON: 400 naming every member (a list of strings by its name, a nested member by its path), nothing stored', async () => {
      const before = (await t.get('/v1/courses', basic())).body.count;
      const res = await t.post('/v1/courses', { title: 'a\u0000b', short_description: 's', enforce_sequential_navigation: false, labels: ['ok', 'x\u0000'], extra: { deep: '\u0000' } }, basic());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ title: NUL_V1, labels: NUL_V1, extra: { deep: NUL_V1 } }); // nested as DRF nests (issue 25 item 7)
      expect((await t.get('/v1/courses', basic())).body.count).toBe(before);
    });

    it('/v1 a member the service reads itself (nested user of a domain user)', async () => {
      const res = await t.post(`/v1/domains/${org.domain_name}/users`, { user: { email: 'nul@example.test', first_name: 'a\u0000' } }, basic());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ user: { first_name: NUL_V1 } });
      expect((await t.ds.query(`SELECT 1 FROM users WHERE email = 'nul@example.test'`)).length).toBe(0);
    });

    it('/v1 a member name holding a NUL', async () => {
      const res = await t.post('/v1/courses', { title: 't', short_description: 's', enforce_sequential_navigation: false, ['x\u0000y']: 1 }, basic());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ 'x\ufffdy': NUL_V1 });
    });

    it('/v1 url-encoded form: the same answer', async () => {
      const res = await t.post('/v1/courses', undefined, {
        ...basic(),
        raw: { contentType: 'application/x-www-form-urlencoded', data: 'title=a%00b&short_description=s&enforce_sequential_navigation=false' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ title: NUL_V1 });
    });

    it('/v2 batch: 422 validation_error pointing at the member, before any item is written (it reached the UPDATE before)', async () => {
      const created = await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: 'nul-v2@example.test', first_name: 'F', last_name: 'L' } }] }, { token });
      expect(created.status).toBe(200);
      const id = created.body.data[0].result.id;
      const res = await t.patch(
        '/v2/students/',
        {
          data: [
            { type: 'students', id, attributes: { last_name: 'Fine' } },
            { type: 'students', id, attributes: { first_name: 'nul \u0000 here' } },
          ],
        },
        { token },
      );
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ code: 'validation_error', source: { pointer: '/data/1/attributes/first_name' }, detail: 'data.1.attributes.first_name: Null characters are not allowed.' }),
      ]);
      const [row] = await t.ds.query(`SELECT first_name, last_name FROM users WHERE email = 'nul-v2@example.test'`);
      expect(row).toEqual({ first_name: 'F', last_name: 'L' });
    });

    it('the token endpoint: invalid_request', async () => {
      const res = await t.post('/v2/auth/token', undefined, { raw: { contentType: 'application/x-www-form-urlencoded', data: 'grant_type=client_credentials&client_id=a%00b&client_secret=x' } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_request' });
    });
  });

  describe('in a query parameter', () => {
    it('/v2: 422 naming the parameter (the students filter reached the database before)', async () => {
      const res = await t.get('/v2/students/?filter[email]=a%00b', { token });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ code: 'validation_error', source: { parameter: 'filter[email]' } })]);
    });

    it('/v1 reads: a list filter holding a NUL matches nothing (CONVENTIONS §16), without a statement', async () => {
      const empty = { count: 0, next: null, previous: null, results: [] };
      const res = await t.get('/v1/courses?label__name=a%00b', basic());
      expect(res.status).toBe(200);
      expect(res.body).toEqual(empty);
      const repeated = await t.get(`/v1/domains/${org.domain_name}/users?user__first_name=ok&user__first_name=%00`, basic());
      expect(repeated.status).toBe(200);
      expect(repeated.body).toEqual(empty);
    });
  });

  describe('in a path parameter', () => {
    it('/v1: 404, as an id that cannot be decoded (CONVENTIONS §2; a NUL in a domain name was looked up before)', async () => {
      const res = await t.get('/v1/domains/a%00b/plan', basic());
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: expect.any(String) });
      const write = await t.request('PATCH', '/v1/courses/%00', { ...basic(), body: { title: 'x' } });
      expect(write.status).toBe(404);
      expect(write.body).toEqual({ detail: expect.any(String) });
    });

    it('/v2: 404 in the JSON:API envelope', async () => {
      const res = await t.get('/v2/students/a%00b', { token });
      expect(res.status).toBe(404);
      expect(res.body.errors).toEqual([expect.objectContaining({ status: '404' })]);
    });

    it('an ordinary %-encoded value is untouched', async () => {
      expect((await t.get('/v1/courses?label__name=a%2500b', basic())).status).toBe(200);
      expect((await t.get('/v1/domains/nope%20x/plan', basic())).status).toBe(404);
    });
  });
});
