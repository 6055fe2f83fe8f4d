import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

/**
 * CONVENTIONS §9 compatibility: GET /v1/ping, read-modify-write round trips of /v1 objects,
 * `full_name` on /v1 user objects, and /v1-created users with the external_id /v2 gives.
 */
describe('/v1 compatibility', () => {
  let t: TestApp;
  let org: CreatedOrg;
  const key = () => ({ basic: org.api_key });
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('GET /v1/ping', () => {
    it('200 with no body for an organization API key and for a bearer token of any scope', async () => {
      const withKey = await t.get('/v1/ping', key());
      expect(withKey.status).toBe(200);
      expect(withKey.text).toBe('');
      const token = await t.tokenFor(org, ['courses:read']);
      expect((await t.get('/v1/ping', { token })).status).toBe(200);
    });

    it('401 {"detail"} without credentials, with a wrong key or a bad token', async () => {
      for (const opts of [{}, { basic: 'cpk_wrong' }, { token: 'not-a-jwt' }]) {
        const res = await t.get('/v1/ping', opts);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ detail: expect.any(String) });
      }
    });
  });

  describe('users', () => {
    it('a user created through /v1 (domain user, bulk-create) has the external_id a /v2 create gives; full_name on every /v1 user object', async () => {
      const token = await t.tokenFor(org, ['students:read', 'students:write']);
      const v2 = await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: 'v2-made@example.test', first_name: 'Vee', last_name: 'Two' } }] }, { token });
      expect(v2.status).toBe(200);
      const v2ExternalId: string = v2.body.data[0].result.attributes.external_id;
      expect(v2ExternalId).toMatch(/^[0-9a-f-]{36}$/);

      const created = await t.post(`/v1/domains/${org.domain_name}/users`, { user: { email: 'V1-Made@example.test', first_name: 'Vee', last_name: 'One' } }, key());
      expect(created.status).toBe(201);
      expect(created.body.user).toEqual({ id: expect.any(String), email: 'v1-made@example.test', first_name: 'Vee', last_name: 'One', full_name: 'Vee One' });
      const bulk = await t.post(`/v1/domains/${org.domain_name}/users/bulk-create`, { users: [{ email: 'bulk-made@example.test', first_name: '', last_name: 'Only' }] }, key());
      expect(bulk.status).toBeLessThan(300);

      const students = await t.get('/v2/students/?page[size]=100', { token });
      const byEmail = new Map<string, any>(students.body.data.map((s: any) => [s.attributes.email, s]));
      for (const email of ['v1-made@example.test', 'bulk-made@example.test']) {
        const s = byEmail.get(email);
        expect(s.attributes.external_id).toMatch(/^[0-9a-f-]{36}$/);
        expect(s.attributes.external_id).not.toBe(v2ExternalId);
      }

      // the same rule derives it: equal uuids give equal external ids, so a v1 row matches what v2 would store
      const read = await t.get(`/v1/domains/${org.domain_name}/users/${created.body.user.id}`, key());
      expect(read.body.user.full_name).toBe('Vee One');
      const list = await t.get(`/v1/domains/${org.domain_name}/users`, key());
      const bulkUser = list.body.results.find((r: any) => r.user.email === 'bulk-made@example.test');
      expect(bulkUser.user.full_name).toBe('Only');

      // groups' users
      const group = await t.post('/v1/groups', { name: 'Compat group' }, key());
      expect((await t.post(`/v1/groups/${group.body.id}/users`, { user: { id: created.body.user.id } }, key())).status).toBeLessThan(300);
      const members = await t.get(`/v1/groups/${group.body.id}/users`, key());
      expect(members.body.results[0].user).toMatchObject({ id: created.body.user.id, full_name: 'Vee One' });
    });
  });

  describe('read-modify-write: what a read returns, a PUT of the same object accepts (200)', () => {
    async function roundTrip(path: string) {
      const read = await t.get(path, key());
      expect({ path, status: read.status }).toEqual({ path, status: 200 });
      const put = await t.request('PUT', path, { ...key(), body: read.body });
      expect({ path, status: put.status, body: put.status === 200 ? 'ok' : put.body }).toEqual({ path, status: 200, body: 'ok' });
      const again = await t.get(path, key());
      const { modified_at: _m, updated_at: _u, ...unchanged } = read.body;
      expect(again.body).toMatchObject(unchanged);
      const patch = await t.patch(path, read.body, key());
      expect({ path, status: patch.status, body: patch.status === 200 ? 'ok' : patch.body }).toEqual({ path, status: 200, body: 'ok' });
    }

    it('domain (catalog_title "" included)', async () => {
      const read = await t.get(`/v1/domains/${org.domain_name}`, key());
      expect(read.body.catalog_title ?? '').toBe('');
      await roundTrip(`/v1/domains/${org.domain_name}`);
    });

    it('course, lesson, label, group', async () => {
      const course = await t.post('/v1/courses', { title: 'Round trip', short_description: 'S', enforce_sequential_navigation: false, labels: ['rt'] }, key());
      expect(course.status).toBe(201);
      await roundTrip(`/v1/courses/${course.body.id}`);
      const lesson = await t.post('/v1/lessons', { course_id: course.body.id, order: 1, title: 'L1', type: 'HTML', content_html: '<p>x</p>' }, key());
      expect(lesson.status).toBe(201);
      await roundTrip(`/v1/lessons/${lesson.body.id}`);
      const label = await t.post('/v1/labels', { name: 'Round trip label' }, key());
      await roundTrip(`/v1/labels/${label.body.id}`);
      const group = await t.post('/v1/groups', { name: 'Round trip group' }, key());
      await roundTrip(`/v1/groups/${group.body.id}`);
    });

    it('published course, domain user', async () => {
      const course = await t.post('/v1/courses', { title: 'Published RT', short_description: 'S', enforce_sequential_navigation: false }, key());
      const pc = await t.post(`/v1/domains/${org.domain_name}/published-courses`, { course: { id: course.body.id } }, key());
      expect(pc.status).toBe(201);
      await roundTrip(`/v1/domains/${org.domain_name}/published-courses/${pc.body.id}`);
      const du = await t.post(`/v1/domains/${org.domain_name}/users`, { user: { email: 'rt@example.test', first_name: 'R', last_name: 'T' } }, key());
      await roundTrip(`/v1/domains/${org.domain_name}/users/${du.body.user.id}`);
    });

    it('tag, access-code pool, access code', async () => {
      const tag = await t.post('/v1/tags', { name: 'Round trip tag' }, key());
      expect(tag.status).toBe(201);
      await roundTrip(`/v1/tags/${tag.body.id}`);
      const pools = `/v1/domains/${org.domain_name}/access-code-pools`;
      const pool = await t.post(pools, { name: 'Round trip pool' }, key());
      expect(pool.status).toBe(201);
      await roundTrip(`${pools}/${pool.body.id}`);
      const code = await t.post(`${pools}/${pool.body.id}/access-codes`, { code: 'ROUNDTRIP1' }, key());
      expect(code.status).toBe(201);
      await roundTrip(`${pools}/${pool.body.id}/access-codes/${code.body.id}`);
    });

    it('webhook', async () => {
      const w = await t.post('/v1/webhooks', { target_url: 'https://example.com/rt', event_type: 'COURSE_COMPLETION' }, key());
      expect(w.status).toBe(201);
      await roundTrip(`/v1/webhooks/${w.body.id}`);
    });
  });

  it('ids in /v1 reads match the published ^[0-9a-z]+$', async () => {
    const course = await t.post('/v1/courses', { title: 'Ids', short_description: 'S', enforce_sequential_navigation: false }, key());
    expect(course.body.id).toMatch(/^[0-9a-z]+$/);
    expect(decodeId('course', course.body.id)).not.toBeNull();
  });
});
