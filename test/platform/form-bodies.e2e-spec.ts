import { startTestApp, TestApp } from '../support/app';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

/**
 * Form bodies on /v1 writes (issue 25 item 2, CONVENTIONS §16): url-encoded and multipart bodies are
 * read as Django REST framework reads them (booleans and numbers from their text, lists from
 * repeated names, nested objects from dotted names) and answered as the same request sent as JSON.
 * /v2 and the OAuth endpoints keep their own reading.
 */
describe('form bodies on /v1 writes', () => {
  let t: TestApp;
  let org: CreatedOrg;
  const auth = () => `Basic ${Buffer.from(`${org.api_key}:`).toString('base64')}`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
  });
  afterAll(() => t.close());

  const urlencoded = (path: string, data: string, method = 'POST') => t.request(method, path, { basic: org.api_key, raw: { contentType: 'application/x-www-form-urlencoded', data } });
  /** a multipart/form-data request built by Node's own FormData (fields as [name, value] pairs, repeats allowed) */
  async function multipart(path: string, fields: [string, string | Blob, string?][], method = 'POST') {
    const form = new FormData();
    for (const [name, value, filename] of fields) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, value, filename);
    }
    const res = await fetch(t.baseUrl + path, { method, headers: { authorization: auth() }, body: form });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  }
  const json = (path: string, body: unknown, method = 'POST') => t.request(method, path, { basic: org.api_key, body });
  /** a course as answered, without what differs between two creations */
  const comparable = (c: any) => {
    const { id, created_at, updated_at, modified_at, ...rest } = c;
    return rest;
  };
  const countCourses = async () => (await t.get('/v1/courses', { basic: org.api_key })).body.count;

  describe('POST /v1/courses', () => {
    const jsonBody = {
      title: 'Form course',
      short_description: 'x',
      enforce_sequential_navigation: false,
      display_course_and_lesson_time: true,
      display_manual_course_time: false,
      issues_certificate: false,
      certificate_validity_days: 30,
      labels: ['a', 'b'],
    };

    it('url-encoded: booleans and numbers from their text, a list from repeated names; the same answer as JSON', async () => {
      const fromJson = await json('/v1/courses', jsonBody);
      expect(fromJson.status).toBe(201);
      const res = await urlencoded(
        '/v1/courses',
        'title=Form+course&short_description=x&enforce_sequential_navigation=false&display_course_and_lesson_time=True&display_manual_course_time=off&issues_certificate=0&certificate_validity_days=30&labels=a&labels=b',
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ enforce_sequential_navigation: false, display_course_and_lesson_time: true, issues_certificate: false, certificate_validity_days: 30, labels: ['a', 'b'] });
      expect(comparable(res.body)).toEqual(comparable(fromJson.body));
    });

    it('the example of the issue: enforce_sequential_navigation=false is a boolean', async () => {
      const res = await urlencoded('/v1/courses', 'title=X&short_description=x&enforce_sequential_navigation=false');
      expect(res.status).toBe(201);
      expect(res.body.enforce_sequential_navigation).toBe(false);
    });

    it('multipart: the same answer as JSON', async () => {
      const fromJson = await json('/v1/courses', jsonBody);
      const res = await multipart('/v1/courses', [
        ['title', 'Form course'],
        ['short_description', 'x'],
        ['enforce_sequential_navigation', 'False'],
        ['display_course_and_lesson_time', 'on'],
        ['display_manual_course_time', '0'],
        ['issues_certificate', 'false'],
        ['certificate_validity_days', '30'],
        ['labels', 'a'],
        ['labels', 'b'],
      ]);
      expect(res.status).toBe(201);
      expect(comparable(res.body)).toEqual(comparable(fromJson.body));
    });

    it('one value of a list member is a list of one; an indexed name is a list too', async () => {
      const one = await urlencoded('/v1/courses', 'title=L&short_description=x&enforce_sequential_navigation=1&labels=solo');
      expect(one.status).toBe(201);
      expect(one.body.labels).toEqual(['solo']);
      const indexed = await urlencoded('/v1/courses', 'title=L&short_description=x&enforce_sequential_navigation=1&labels[1]=second&labels[0]=first');
      expect(indexed.status).toBe(201);
      expect(indexed.body.labels).toEqual(['first', 'second']);
    });

    it('an empty value: null for a nullable member, absent for an optional one (DRF), refused for a required one', async () => {
      const res = await urlencoded('/v1/courses', 'title=E&short_description=x&enforce_sequential_navigation=no&certificate_validity_days=&issues_certificate=');
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ certificate_validity_days: null, issues_certificate: true });
      const required = await urlencoded('/v1/courses', 'title=E&short_description=x&enforce_sequential_navigation=');
      expect(required.status).toBe(400);
      expect(required.body).toEqual((await json('/v1/courses', { title: 'E', short_description: 'x', enforce_sequential_navigation: '' })).body);
    });

    it('bad values: the same 400 envelope and messages as JSON, nothing stored', async () => {
      const before = await countCourses();
      const fromJson = await json('/v1/courses', {
        title: '',
        short_description: 'x',
        enforce_sequential_navigation: 'maybe',
        certificate_validity_days: 'abc',
        course_and_lesson_time_format: 'DAYS',
      });
      expect(fromJson.status).toBe(400);
      expect(fromJson.body).toEqual({
        title: ['This field may not be blank.'],
        enforce_sequential_navigation: ['Must be a valid boolean.'],
        certificate_validity_days: ['A valid integer is required.'],
        course_and_lesson_time_format: ['"DAYS" is not a valid choice.'],
      });
      const data = 'title=&short_description=x&enforce_sequential_navigation=maybe&certificate_validity_days=abc&course_and_lesson_time_format=DAYS';
      const form = await urlencoded('/v1/courses', data);
      expect(form.status).toBe(400);
      expect(form.body).toEqual(fromJson.body);
      const multi = await multipart('/v1/courses', [...new URLSearchParams(data)] as [string, string][]);
      expect(multi.status).toBe(400);
      expect(multi.body).toEqual(fromJson.body);
      // a number out of range, a missing required member
      const range = await urlencoded('/v1/courses', 'short_description=x&enforce_sequential_navigation=true&certificate_validity_days=99999999999');
      expect(range.body).toEqual((await json('/v1/courses', { short_description: 'x', enforce_sequential_navigation: true, certificate_validity_days: 99999999999 })).body);
      expect(await countCourses()).toBe(before);
    });

    it('PATCH with a form: only the members sent change', async () => {
      const created = await json('/v1/courses', jsonBody);
      const res = await urlencoded(`/v1/courses/${created.body.id}`, 'enforce_sequential_navigation=true&certificate_validity_days=7', 'PATCH');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ title: 'Form course', enforce_sequential_navigation: true, certificate_validity_days: 7, issues_certificate: false });
    });

    it('multipart: a file part is refused, naming it; nothing stored', async () => {
      const before = await countCourses();
      const res = await multipart('/v1/courses', [
        ['title', 'F'],
        ['short_description', 'x'],
        ['enforce_sequential_navigation', 'false'],
        ['long_description_html', new Blob(['<p>hi</p>'], { type: 'text/html' }), 'd.html'],
      ]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ long_description_html: ['File uploads are not accepted here: send this member as a text field.'] });
      expect(await countCourses()).toBe(before);
    });

    it('multipart: a malformed body is a 400, a body over the limit a 413', async () => {
      const bad = await t.post('/v1/courses', undefined, {
        basic: org.api_key,
        raw: { contentType: 'multipart/form-data; boundary=xyz', data: '--xyz\r\nContent-Disposition: form-data; name="title"\r\n\r\nT' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ detail: expect.any(String) });
      const big = await multipart('/v1/courses', [
        ['title', 'T'],
        ['long_description_html', 'x'.repeat(t.config.BODY_LIMIT_BYTES + 1)],
      ]);
      expect(big.status).toBe(413);
    });
  });

  describe('nested objects from dotted names', () => {
    it('POST /v1/domains/{domain_name}/users: user.email, user.first_name (url-encoded and multipart), as JSON answers', async () => {
      const users = `/v1/domains/${org.domain_name}/users`;
      const res = await urlencoded(users, 'user.email=form.one%40example.test&user.first_name=Grace&user.last_name=Hopper&marketing_optin=on&active=True');
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ user: { email: 'form.one@example.test', first_name: 'Grace', last_name: 'Hopper' }, marketing_optin: true, active: true });
      const multi = await multipart(users, [
        ['user.email', 'form.two@example.test'],
        ['user.first_name', 'Ada'],
        ['marketing_optin', 'false'],
      ]);
      expect(multi.status).toBe(201);
      expect(multi.body).toMatchObject({ user: { email: 'form.two@example.test', first_name: 'Ada' }, marketing_optin: false });
      // a bad nested member: the same answer as JSON
      const bad = await urlencoded(users, 'user.email=not-an-email&marketing_optin=perhaps');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual((await json(users, { user: { email: 'not-an-email' }, marketing_optin: 'perhaps' })).body);
      const missing = await urlencoded(users, 'marketing_optin=true');
      expect(missing.body).toEqual((await json(users, { marketing_optin: true })).body);
    });

    it('a list of objects from indexed names: POST .../users/bulk-create users[0].email, users[1]email', async () => {
      const bulk = `/v1/domains/${org.domain_name}/users/bulk-create`;
      const res = await urlencoded(bulk, 'users[0].email=bulk.a%40example.test&users[0].active=false&users[1]email=bulk.b%40example.test');
      expect(res.status).toBe(200);
      const rows = await t.ds.query(`SELECT email FROM users WHERE email IN ('bulk.a@example.test', 'bulk.b@example.test') ORDER BY email`);
      expect(rows.map((r: any) => r.email)).toEqual(['bulk.a@example.test', 'bulk.b@example.test']);
      const bad = await urlencoded(bulk, 'users[0].email=x&users[0].active=maybe');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual((await json(bulk, { users: [{ email: 'x', active: 'maybe' }] })).body);
    });

    it('names nested past the body depth cap are refused as for JSON; __proto__ is malformed', async () => {
      const deep = await urlencoded('/v1/courses', `${Array.from({ length: 70 }, (_, i) => `a${i}`).join('.')}=1`);
      expect(deep.status).toBe(400);
      expect(deep.body.detail).toContain('nested too deeply');
      const proto = await urlencoded('/v1/courses', 'title=T&short_description=x&enforce_sequential_navigation=true&__proto__.polluted=1');
      expect(proto.status).toBe(400);
      expect(({} as any).polluted).toBeUndefined();
    });
  });

  describe('other interfaces keep their reading', () => {
    it('/v2: multipart is still 415, a url-encoded body is still the flat strings (refused by the batch envelope)', async () => {
      const token = await t.tokenFor(org);
      const form = new FormData();
      form.append('data', 'x');
      const multi = await fetch(`${t.baseUrl}/v2/courses/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      expect(multi.status).toBe(415);
      const enc = await t.post('/v2/courses/', undefined, { token, raw: { contentType: 'application/x-www-form-urlencoded', data: 'data.0.type=courses' } });
      expect(enc.status).toBe(400);
      expect(enc.body.errors[0].source).toEqual({ pointer: '/data' });
    });

    it('the token endpoint still takes url-encoded forms', async () => {
      const res = await t.post('/v2/auth/token', undefined, {
        raw: {
          contentType: 'application/x-www-form-urlencoded',
          data: `grant_type=client_credentials&client_id=${encodeURIComponent(org.client_id)}&client_secret=${encodeURIComponent(org.client_secret)}`,
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.access_token).toEqual(expect.any(String));
    });
  });
});
