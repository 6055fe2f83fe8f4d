import { startTestApp, TestApp } from '../support/app';
import { pause } from '../support/updated-since';

/**
 * Issue 32 point 1 (CONVENTIONS §20): every list of /v1 and /v2 takes `updated_since` / `filter[updated_since]`.
 * Walks every GET operation of the served document: a read of one object (its path ends with a path
 * parameter) is no list; every other operation declares the parameter or is named in NOT_LISTS with the
 * reason (docs/decisions/data-out.md, "Not lists"). A name that is no longer an operation, or that now
 * declares the parameter, fails the walk, so the set cannot go stale.
 */
jest.setTimeout(120_000);

const NOT_LISTS: Record<string, string> = {
  '/health': 'the service health, not data',
  '/v1/ping': 'a credential check',
  '/.well-known/oauth-authorization-server': 'OAuth metadata',
  '/.well-known/oauth-protected-resource': 'OAuth metadata',
  '/.well-known/oauth-protected-resource/mcp': 'OAuth metadata',
  '/.well-known/jwks.json': 'the signing keys',
  '/orgs/{organization_id}/did.json': 'a DID document',
  '/v1/organization/sso': 'one object: the organization settings',
  '/v1/organization/certificate-template': 'one object: the organization settings',
  '/v1/domains/{domain_name}/published-courses/{published_course_id}/reenrollment_rule': "one object: the published course's rule",
  '/v2/certificates/{id}/pdf': 'a file',
  '/v2/certificates/{id}/credential': 'one credential',
  '/verify/{code}/pdf': 'a file',
  '/v2/events': 'the event log: events never change, `filter[created_gte]` is its sync parameter',
  '/v2/scopes': 'a constant catalog compiled into the application (no rows, not paginated): it changes only with a release, and any filter answers the whole catalog, a superset a mirror upserts',
  '/v1/groups/{group_id}/email-domain-rules': "one object {email_domains} of the group: its change moves the group's updated_at, seen on /v1/groups?updated_since",
  ...Object.fromEntries(
    [
      'course-completion',
      'course-enrollment',
      'dashboard-task-created',
      'domain-enrollment',
      'lesson-completion',
      'path-completion',
      'path-enrollment',
      'purchase-fulfillment',
      'quiz-completion',
      'vilt-registration',
    ].map((e) => [`/v1/webhooks/sample-${e}`, 'a constant sample event body']),
  ),
};

/** Lists that apply the parameter but do not declare it in the document yet (their module's to fix). */
const UNDECLARED: Record<string, string> = {};

describe('updated_since on every list of the document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('every GET operation but reads of one object declares updated_since or filter[updated_since], or is named a non-list with its reason', async () => {
    const doc = (await t.get('/openapi.json')).body;
    const lacking: string[] = [];
    const declaring: string[] = [];
    let lists = 0;
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      if (!ops.get || (/\}$/.test(path) && !NOT_LISTS[path])) continue;
      const names = (ops.get.parameters ?? []).filter((x: any) => x.in === 'query').map((x: any) => x.name);
      const declares = names.includes(path.startsWith('/v2/') ? 'filter[updated_since]' : 'updated_since');
      if (declares) lists++;
      if (declares && (NOT_LISTS[path] || UNDECLARED[path])) declaring.push(path);
      if (!declares && !NOT_LISTS[path] && !UNDECLARED[path]) lacking.push(path);
    }
    expect(lists).toBeGreaterThan(80);
    expect(lacking).toEqual([]);
    expect(declaring).toEqual([]);
    const stale = [...Object.keys(NOT_LISTS), ...Object.keys(UNDECLARED)].filter((p) => !doc.paths[p]?.get);
    expect(stale).toEqual([]);
  });

  it('/v2/scopes: filter[updated_since] answers the whole catalog, as /v2 ignores a query member it does not know', async () => {
    const o = await t.newOrg();
    const token = await t.tokenFor(o);
    const whole = await t.get('/v2/scopes', { token });
    expect(whole.status).toBe(200);
    expect(whole.body.data.length).toBeGreaterThan(10);
    for (const at of ['2999-01-01T00:00:00Z', 'yesterday']) {
      const res = await t.get(`/v2/scopes?filter[updated_since]=${at}`, { token });
      expect({ at, status: res.status, body: res.body }).toEqual({ at, status: 200, body: whole.body });
    }
    // the /v2 convention it follows: an unknown query member is ignored (core/http/validation.pipe.ts, whitelist)
    expect((await t.get('/v2/students/?filter[no_such_filter]=x', { token })).status).toBe(200);
  });

  it("/v1/groups/{id}/email-domain-rules: a change of the rules moves the group's updated_at, so /v1/groups?updated_since shows it", async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const group = await t.post('/v1/groups', { name: 'Rules' }, key);
    expect(group.status).toBe(201);
    const changedSince = async (at: string) => (await t.get(`/v1/groups?updated_since=${encodeURIComponent(at)}`, key)).body.results.map((g: any) => g.id);
    await pause(5);
    const at = new Date().toISOString();
    await pause(5);
    expect(await changedSince(at)).toEqual([]);
    const add = await t.patch(`/v1/groups/${group.body.id}/email-domain-rules`, { add: ['example.com'] }, key);
    expect(add.status).toBe(200);
    expect((await t.get(`/v1/groups/${group.body.id}/email-domain-rules`, key)).body).toEqual({ email_domains: ['example.com'] });
    expect(await changedSince(at)).toEqual([group.body.id]);
    await pause(5);
    const later = new Date().toISOString();
    await pause(5);
    expect((await t.patch(`/v1/groups/${group.body.id}/email-domain-rules`, { remove: ['example.com'] }, key)).status).toBe(200);
    expect(await changedSince(later)).toEqual([group.body.id]);
  });
});
