import { startTestApp, TestApp } from '../support/app';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

/**
 * Issue 8 items 3 and 6: /v1 field errors in Django REST framework's own wording, and bad input
 * that used to reach a 500 (deep nesting, lone surrogates, null content_url, nested lists in
 * bulk-create, uncapped arrays). Each answer is the documented 4xx and nothing is stored.
 */
const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('bad input', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let courseId: string;
  const basic = () => ({ basic: org.api_key });

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
    const c = await t.post('/v1/courses', { title: 'Course', short_description: 'S', enforce_sequential_navigation: false }, basic());
    expect(c.status).toBe(201);
    courseId = c.body.id;
  });
  afterAll(() => t.close());

  describe("/v1 field errors use Django REST framework's messages", () => {
    const users = () => `/v1/domains/${org.domain_name}/users`;
    // [what, method, path, body, the exact messages of the members named]
    const rows: [string, string, () => string, Record<string, unknown>, Record<string, unknown>][] = [
      // courses: the /v1 rule helpers
      [
        'course: missing members',
        'POST',
        () => '/v1/courses',
        {},
        { title: ['This field is required.'], short_description: ['This field is required.'], enforce_sequential_navigation: ['This field is required.'] },
      ],
      [
        'course: null, blank, wrong types',
        'POST',
        () => '/v1/courses',
        { title: null, short_description: '', enforce_sequential_navigation: 'yes', course_and_lesson_time_format: 'DAYS', labels: 'a' },
        {
          title: ['This field may not be null.'],
          short_description: ['This field may not be blank.'],
          enforce_sequential_navigation: ['Must be a valid boolean.'],
          course_and_lesson_time_format: ['"DAYS" is not a valid choice.'],
          labels: ['Expected a list of items but got type "str".'],
        },
      ],
      [
        'course patch: wrong types and limits',
        'PATCH',
        () => `/v1/courses/${courseId}`,
        { title: 5, manual_course_time: 'x'.repeat(16), labels: ['ok', 7] },
        {
          title: ['Not a valid string.'],
          manual_course_time: ['Ensure this field has no more than 15 characters.'],
          labels: ['Not a valid string.'],
        },
      ],
      // domain users: class-validator's decorators (these answered "first_name must be a string" before)
      [
        'domain user: builtin decorators',
        'POST',
        users,
        { user: { email: 'not-an-email', first_name: 5, last_name: 'x'.repeat(51) }, active: 'no', marketing_optin: 3 },
        {
          user: {
            email: ['Enter a valid email address.'],
            first_name: ['Not a valid string.'],
            last_name: ['Ensure this field has no more than 50 characters.'],
          },
          active: ['Must be a valid boolean.'],
          marketing_optin: ['Must be a valid boolean.'],
        },
      ],
      [
        'domain user: user missing, null, not an object',
        'POST',
        users,
        { user: 'x', active: null },
        { user: ['Invalid data. Expected a dictionary, but got str.'], active: ['This field may not be null.'] },
      ],
      ['domain user: email missing and blank', 'POST', users, { user: { first_name: 'A' } }, { user: { email: ['This field is required.'] } }],
      ['domain user: blank email', 'POST', users, { user: { email: '' } }, { user: { email: ['This field may not be blank.'] } }],
      // webhooks: a choice with its own message before
      [
        'webhook: choice and boolean',
        'POST',
        () => '/v1/webhooks',
        { target_url: 'https://example.com/hook', event_type: 'NOPE', active: 1 },
        { event_type: ['"NOPE" is not a valid choice.'], active: ['Must be a valid boolean.'] },
      ],
      // groups: integers
      ['group: integer rules', 'POST', () => '/v1/groups', { name: 'G', discount_percent: 'ten' }, { discount_percent: ['A valid integer is required.'] }],
      ['group: integer range', 'POST', () => '/v1/groups', { name: 'G', discount_percent: 101 }, { discount_percent: ['Ensure this value is less than or equal to 100.'] }],
      ['group: name too long, blank', 'POST', () => '/v1/groups', { name: '   ' }, { name: ['This field may not be blank.'] }],
      // assets
      ['asset: content_url null (was a 500)', 'POST', () => '/v1/assets', { content_url: null }, { content_url: ['This field may not be null.'] }],
      [
        'asset: content_url wrong type',
        'POST',
        () => '/v1/assets',
        { content_url: 5, asset: { aspect_ratio: '1:1', sync_completion: 'x' } },
        {
          content_url: ['Not a valid string.'],
          asset: { aspect_ratio: ['"1:1" is not a valid choice.'], sync_completion: ['Must be a valid boolean.'] },
        },
      ],
      // bulk-create: nested lists, answered as DRF's list serializer answers (one entry per item, {} for the valid ones; issue 25 item 7)
      [
        'bulk-create: a list inside the list (was a 500)',
        'POST',
        () => `${users()}/bulk-create`,
        { users: [[]] },
        { users: [{ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] }] },
      ],
      [
        'bulk-create: a string item',
        'POST',
        () => `${users()}/bulk-create`,
        { users: [{ email: 'a@example.test' }, 'x'] },
        { users: [{}, { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] }] },
      ],
      ['bulk-create: a null item', 'POST', () => `${users()}/bulk-create`, { users: [null, { email: 'a@example.test' }] }, { users: [['This field may not be null.'], {}] }],
      [
        'bulk-create: the second of three items',
        'POST',
        () => `${users()}/bulk-create`,
        { users: [{ email: 'a@example.test' }, { email: 'nope' }, { email: 'b@example.test' }] },
        { users: [{}, { email: ['Enter a valid email address.'] }, {}] },
      ],
      [
        "bulk-create: a duplicate (the service's own check)",
        'POST',
        () => `${users()}/bulk-create`,
        { users: [{ email: 'a@example.test' }, { email: 'A@example.test' }, { email: 'b@example.test' }] },
        { users: [{}, { email: ['Duplicate of users.0.email.'] }, {}] },
      ],
      ['bulk-create: empty, and not a list', 'POST', () => `${users()}/bulk-create`, { users: [] }, { users: ['Ensure this field has at least 1 elements.'] }],
      ['bulk-create: not a list', 'POST', () => `${users()}/bulk-create`, { users: { email: 'a@example.test' } }, { users: ['Expected a list of items but got type "dict".'] }],
      ["bulk-create: an item's email", 'POST', () => `${users()}/bulk-create`, { users: [{ email: 'nope' }] }, { users: [{ email: ['Enter a valid email address.'] }] }],
    ];
    it.each(rows)('%s', async (_what, method, path, body, expected) => {
      const res = await t.request(method, path(), { ...basic(), body });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      for (const [field, messages] of Object.entries(expected)) expect({ field, messages: res.body[field] }).toEqual({ field, messages });
    });
  });

  describe("nesting deeper than 64 levels is a 400 in each interface's envelope", () => {
    it('/v1 (application/json): {"detail"}', async () => {
      for (const data of [`{"title":"x","labels":${deepArray(3000)}}`, `{"title":${deepObject(3000)}}`]) {
        const res = await t.post('/v1/courses', undefined, { ...basic(), raw: { contentType: 'application/json', data } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ detail: expect.stringContaining('nested too deeply') });
      }
    });

    it('/v2 (application/vnd.api+json and merge-patch+json): JSON:API invalid_request', async () => {
      for (const contentType of ['application/vnd.api+json', 'application/merge-patch+json', 'application/json']) {
        const res = await t.post('/v2/courses/', undefined, { token, raw: { contentType, data: `{"data":[{"type":"courses","attributes":${deepObject(3000)}}]}` } });
        expect(res.status).toBe(400);
        expect(res.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_request', detail: expect.stringContaining('nested too deeply') });
      }
    });

    it('the token endpoint: RFC 6749 invalid_request', async () => {
      const res = await t.post('/v2/auth/token', undefined, { raw: { contentType: 'application/json', data: `{"client_id":${deepObject(3000)}}` } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('nested too deeply') });
    });

    it('the cap is 64 levels exactly', async () => {
      // the body object and 63 nested objects: 64 levels, accepted; one more is refused
      const body = (n: number) => `{"title":"Deep","short_description":"s","enforce_sequential_navigation":false,"extra":${deepObject(n)}}`;
      expect((await t.post('/v1/courses', undefined, { ...basic(), raw: { contentType: 'application/json', data: body(63) } })).status).toBe(201);
      expect((await t.post('/v1/courses', undefined, { ...basic(), raw: { contentType: 'application/json', data: body(64) } })).status).toBe(400);
    });
  });

  describe('a /v1 list filter never fails on a long or odd value: it matches nothing (issue 25 item 7, CONVENTIONS §16)', () => {
    const long = 'x'.repeat(300);
    const odd = ['x'.repeat(300), 'a%00b', '%F0%9F%98%80', "o'brien%25_"];
    // every /v1 list with a text filter: [path, filter]
    const filters = (): [string, string][] => [
      ['/v1/quizzes', 'name'],
      ['/v1/courses', 'label__name'],
      ['/v1/lessons', 'course_id'],
      [`/v1/domains/${org.domain_name}/published-courses`, 'search'],
      [`/v1/domains/${org.domain_name}/published-courses`, 'course__id'],
      [`/v1/domains/${org.domain_name}/published-paths`, 'search'],
      [`/v1/domains/${org.domain_name}/published-paths`, 'label__name'],
      [`/v1/domains/${org.domain_name}/access-code-pools`, 'name'],
      [`/v1/domains/${org.domain_name}/users`, 'user__email'],
      ['/v1/users', 'email'],
      ['/v1/users', 'first_name'],
      ['/v1/groups', 'name'],
      ['/v1/promo-code-pools', 'name'],
      ['/v1/promo-code-pools', 'offer_id'],
      ['/v1/promo-codes', 'code'],
      ['/v1/promo-codes', 'promo_code_pool_id'],
      ['/v1/training-credit-codes', 'tracking_identifier'],
      ['/v1/training-credit-codes', 'training_credit_code'],
    ];

    it('answers the empty list, whatever the value', async () => {
      const quiz = await t.post('/v1/quizzes', { name: 'Quiz' }, basic());
      expect(quiz.status).toBe(201);
      const seen: string[] = [];
      for (const [path, name] of filters()) {
        for (const value of odd) {
          const res = await t.get(`${path}?${name}=${value}`, basic());
          seen.push(`${path}?${name}=${value.slice(0, 12)} ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
          expect({ path, name, value: value.slice(0, 20), status: res.status, count: res.body.count }).toEqual({ path, name, value: value.slice(0, 20), status: 200, count: 0 });
        }
      }
      // the attempts of a quiz, by learner
      expect((await t.get(`/v1/quizzes/${quiz.body.id}/attempts?user_id=${long}`, basic())).body).toMatchObject({ count: 0, results: [] });
      expect((await t.get(`/v1/quizzes/${quiz.body.id}/attempts?user_id=a%00`, basic())).body).toMatchObject({ count: 0, results: [] });
      // and the filter still finds what it names
      expect((await t.get('/v1/quizzes?name=Quiz', basic())).body.count).toBe(1);
    });
  });

  describe('a lone surrogate is a field error and nothing is stored', () => {
    it("/v1: 400 naming the member, DRF's message", async () => {
      const before = (await t.get('/v1/courses', basic())).body.count;
      const res = await t.post('/v1/courses', undefined, {
        ...basic(),
        raw: { contentType: 'application/json', data: '{"title":"a\\ud800b","short_description":"s","enforce_sequential_navigation":false}' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ title: ['Surrogate characters are not allowed: U+D800.'] });
      const nested = await t.post(`/v1/domains/${org.domain_name}/users`, undefined, {
        ...basic(),
        raw: { contentType: 'application/json', data: '{"user":{"email":"a@example.test","first_name":"\\udc00"}}' },
      });
      expect(nested.body).toEqual({ user: { first_name: ['Surrogate characters are not allowed: U+DC00.'] } });
      expect((await t.get('/v1/courses', basic())).body.count).toBe(before);
    });

    it('/v2: 422 validation_error with a pointer to the member', async () => {
      const before = (await t.get('/v2/courses/?page[size]=100', { token })).body.data.length;
      const res = await t.post('/v2/courses/', undefined, {
        token,
        raw: { contentType: 'application/vnd.api+json', data: '{"data":[{"type":"courses","attributes":{"title":"ok"}},{"type":"courses","attributes":{"title":"a\\ud800"}}]}' },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        code: 'validation_error',
        source: { pointer: '/data/1/attributes/title' },
        detail: expect.stringContaining('Surrogate characters are not allowed: U+D800.'),
      });
      expect((await t.get('/v2/courses/?page[size]=100', { token })).body.data.length).toBe(before);
    });

    it('a paired surrogate (an emoji) is fine', async () => {
      const res = await t.post('/v1/courses', { title: 'Smile \ud83d\ude00', short_description: 's', enforce_sequential_navigation: false }, basic());
      expect(res.status).toBe(201);
      expect(res.body.title).toBe('Smile \ud83d\ude00');
    });

    it('the token endpoint: invalid_request', async () => {
      const res = await t.post('/v2/auth/token', undefined, { raw: { contentType: 'application/json', data: '{"client_id":"\\ud800","client_secret":"x"}' } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_request' });
    });
  });

  describe('arrays are capped', () => {
    it('1,001 labels on /v1/courses: 400, no label written', async () => {
      const labelsBefore = (await t.get('/v1/labels', basic())).body.count;
      const labels = Array.from({ length: 1001 }, (_, i) => `label-${i}`);
      const res = await t.post('/v1/courses', { title: 'Many labels', short_description: 's', enforce_sequential_navigation: false, labels }, basic());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ labels: ['Ensure this field has no more than 1000 elements.'] });
      const patch = await t.patch(`/v1/courses/${courseId}`, { labels }, basic());
      expect(patch.status).toBe(400);
      expect((await t.get('/v1/labels', basic())).body.count).toBe(labelsBefore);
    });

    it('bulk-create keeps its published maximum of 1,000 users', async () => {
      const users = Array.from({ length: 1001 }, (_, i) => ({ email: `u${i}@example.test` }));
      const res = await t.post(`/v1/domains/${org.domain_name}/users/bulk-create`, { users }, basic());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ users: ['Ensure this field has no more than 1000 elements.'] });
    });
  });
});
