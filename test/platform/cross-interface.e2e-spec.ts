import { startTestApp, TestApp } from '../support/app';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

/** One data model, two interfaces: what one creates, the other reads as the same object. */
describe('/v1 and /v2 share one data model', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());
  const key = () => ({ basic: org.api_key });

  it('a student created on /v2 is the user a /v1 domain-user create finds, and a /v1 user reads on /v2', async () => {
    const created = await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: 'Ada@Example.com', first_name: 'Ada', last_name: 'L' } }] }, { token });
    expect(created.status).toBe(200);
    const id = created.body.data[0].id;
    const joined = await t.post(`/v1/domains/${org.domain_name}/users`, { user: { email: 'ada@example.com', first_name: 'X', last_name: 'Y' } }, key());
    expect(joined.status).toBeLessThan(300);
    expect(joined.body.user).toMatchObject({ id, email: 'ada@example.com', first_name: 'Ada', last_name: 'L' });

    const fresh = await t.post(`/v1/domains/${org.domain_name}/users`, { user: { email: 'grace@example.com', first_name: 'Grace', last_name: 'H' } }, key());
    expect(fresh.status).toBe(201);
    const v2 = await t.get(`/v2/students/${fresh.body.user.id}`, { token });
    expect(v2.status).toBe(200);
    expect(v2.body.data.attributes).toMatchObject({ email: 'grace@example.com', first_name: 'Grace', last_name: 'H', is_inactive: false });
  });

  it('a course and a lesson created on /v1 read on /v2, and the /v2 ones read on /v1', async () => {
    const course = await t.post('/v1/courses', { title: 'Shared', short_description: 'S', enforce_sequential_navigation: false }, key());
    expect(course.status).toBe(201);
    const v2course = await t.get(`/v2/courses/${course.body.id}`, { token });
    expect(v2course.body.data.attributes).toMatchObject({ title: 'Shared', short_description: 'S', enforce_sequential_navigation: false });
    const lesson = await t.post('/v1/lessons', { course_id: course.body.id, order: 1, title: 'L1', type: 'HTML', content_html: '<p>x</p>' }, key());
    expect(lesson.status).toBe(201);
    const v2lesson = await t.get(`/v2/lessons/${lesson.body.id}`, { token });
    expect(v2lesson.body.data.attributes).toMatchObject({ title: 'L1', type: 'HTML', course_id: course.body.id, content_html: '<p>x</p>' });

    const c2 = await t.post('/v2/courses/', { data: [{ type: 'courses', attributes: { title: 'From v2', short_description: 'd' } }] }, { token });
    const c2id = c2.body.data[0].id;
    expect((await t.get(`/v1/courses/${c2id}`, key())).body).toMatchObject({ id: c2id, title: 'From v2', short_description: 'd' });
    const l2 = await t.post('/v2/lessons/', { data: [{ type: 'lessons', attributes: { course_id: c2id, type: 'HTML', title: 'L2', content_html: 'y' } }] }, { token });
    const l2id = l2.body.data[0].id;
    expect((await t.get(`/v1/lessons/${l2id}`, key())).body).toMatchObject({ id: l2id, course_id: c2id, title: 'L2', type: 'HTML' });
  });

  it('a group created on either interface is the same group on the other', async () => {
    const g1 = await t.post('/v1/groups', { name: 'From v1' }, key());
    expect(g1.status).toBe(201);
    expect((await t.get(`/v2/groups/${g1.body.id}`, { token })).body.data.attributes.name).toBe('From v1');
    const g2 = await t.post('/v2/groups/', { data: [{ type: 'groups', attributes: { name: 'From v2' } }] }, { token });
    const g2id = g2.body.data[0].id;
    expect((await t.get(`/v1/groups/${g2id}`, key())).body).toMatchObject({ id: g2id, name: 'From v2', user_count: 0 });
  });
});
