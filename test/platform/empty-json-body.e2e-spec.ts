import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { journey } from '../support/learner-journey';

/**
 * Many HTTP clients send `Content-Type: application/json` (or the JSON:API media type) on every
 * request, bodiless ones included: a DELETE, a webhook ping, a /v2 publish or unpublish. The
 * published platform takes an empty body there as no body; so does this API (it answered 400
 * "Body cannot be empty when content-type is set to 'application/json'" before any route ran).
 */
describe('an empty body under a JSON content type is no body', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  const json = (type = 'application/json') => ({ raw: { contentType: type, data: '' } });

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  it('/v1: a DELETE and a bodiless POST run; a route that needs a body answers as without one', async () => {
    const hook = await t.post('/v1/webhooks', { target_url: 'https://hooks.example.test/receiver' }, { basic: org.api_key });
    expect(hook.status).toBe(201);
    const rotated = await t.request('POST', `/v1/webhooks/${hook.body.id}/rotate-secret`, { basic: org.api_key, ...json() });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect((await t.request('DELETE', `/v1/webhooks/${hook.body.id}`, { basic: org.api_key, ...json('application/json; charset=utf-8') })).status).toBe(204);
    expect((await t.get(`/v1/webhooks/${hook.body.id}`, { basic: org.api_key })).status).toBe(404);

    const bare = await t.request('POST', '/v1/purchases', { basic: org.api_key });
    const empty = await t.request('POST', '/v1/purchases', { basic: org.api_key, ...json() });
    expect([empty.status, empty.body]).toEqual([bare.status, bare.body]);
    expect(empty.status).toBe(400);
  });

  it('/v2: unpublish and publish with the JSON:API media type and no body', async () => {
    const c = await journey(t, org).course([{}]);
    const off = await t.request('POST', `/v2/published-courses/${c.publishedCourseId}/unpublish`, { token, ...json('application/vnd.api+json') });
    expect(off.status).toBe(200);
    expect(off.body.data.attributes.live).toBe(false);
    const on = await t.request('POST', `/v2/published-courses/${c.publishedCourseId}/publish`, { token, ...json() });
    expect(on.status).toBe(200);
    expect(on.body.data.attributes.live).toBe(true);
  });

  it('a body that is not empty is still parsed, and malformed JSON is still a 400', async () => {
    const bad = await t.request('POST', '/v1/webhooks', { basic: org.api_key, raw: { contentType: 'application/json', data: '{"target_url":' } });
    expect(bad.status).toBe(400);
    const blank = await t.request('POST', '/v1/webhooks', { basic: org.api_key, raw: { contentType: 'application/json', data: ' ' } });
    expect(blank.status).toBe(400);
    const ok = await t.request('POST', '/v1/webhooks', { basic: org.api_key, raw: { contentType: 'application/json', data: '{"target_url":"https://hooks.example.test/two"}' } });
    expect(ok.status).toBe(201);
  });
});
