import { seedDemo, DemoResult } from '../../src/seed-demo';
import { startTestApp, TestApp } from '../support/app';

/**
 * `cli seed-demo` (CONVENTIONS §23, issue 28): the demo organization it makes (on this test's
 * database and Redis prefix, as the CLI does on the configured ones) has something in every list a
 * newcomer opens, on /v1 and on /v2, read with the credentials it printed.
 */
describe('seed-demo', () => {
  let t: TestApp;
  let demo: DemoResult;
  beforeAll(async () => {
    t = await startTestApp();
    demo = await seedDemo(t.config);
  }, 120_000);
  afterAll(() => t.close());

  it('prints working credentials and made everything it meant to, with nothing left out', async () => {
    expect(demo.not_made).toEqual([]);
    expect(demo.made).toMatchObject({
      courses: 3,
      'published courses': 3,
      students: 4,
      enrollments: 6,
      'lesson progress': 4,
      'published paths': 1,
      groups: 1,
      'group members': 3,
      'webhooks (inactive)': 1,
      'priced offers': 1,
      instructors: 1,
      'live sessions': 1,
    });
    for (const type of ['HTML', 'QUIZ', 'VILT', 'SECTION', 'MODULAR', 'ASSET', 'WEB_PACKAGE']) expect(demo.made[`lessons (${type})`]).toBeGreaterThanOrEqual(1);
    const token = await t.post('/v2/auth/token', { client_id: demo.client_id, client_secret: demo.client_secret });
    expect(token.status).toBe(200);
    expect(demo.admin_password.length).toBeGreaterThanOrEqual(12);
  });

  it('every /v1 list a newcomer opens is non-empty', async () => {
    const A = { basic: demo.api_key };
    const d = demo.domain_name;
    for (const path of [
      '/v1/courses',
      '/v1/lessons',
      '/v1/ilt-sessions',
      '/v1/ilt-instructors',
      '/v1/users',
      '/v1/groups',
      '/v1/webhooks',
      '/v1/domains',
      `/v1/domains/${d}/published-courses`,
      `/v1/domains/${d}/published-paths`,
      `/v1/domains/${d}/users`,
    ]) {
      const res = await t.get(path, A);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      const items = res.body.results ?? res.body;
      expect({ path, empty: !Array.isArray(items) || items.length === 0 }).toEqual({ path, empty: false });
    }
    const hooks = (await t.get('/v1/webhooks', A)).body.results;
    expect(hooks.every((h: { active: boolean }) => h.active === false)).toBe(true);
  });

  it('every /v2 list a newcomer opens is non-empty', async () => {
    const token = (await t.post('/v2/auth/token', { client_id: demo.client_id, client_secret: demo.client_secret })).body.access_token;
    for (const path of ['/v2/students', '/v2/courses', '/v2/lessons', '/v2/published-courses', '/v2/domains', '/v2/enrollments', '/v2/groups']) {
      const res = await t.get(path, { token });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect({ path, empty: !Array.isArray(res.body.data) || res.body.data.length === 0 }).toEqual({ path, empty: false });
    }
  });
});
