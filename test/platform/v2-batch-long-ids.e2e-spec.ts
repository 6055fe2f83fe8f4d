import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

/**
 * v2-api.md rule 4: an item naming an id that does not exist is that item's `not_found`. An id too
 * long to be ours (65 characters) is such an id, never a `validation_error` of the item. Checked
 * on every /v2 batch update and delete.
 */
describe('/v2 batches: an over-long id is a per-item not_found', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  const LONG = 'a'.repeat(65);
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org, [
      'courses:read',
      'courses:write',
      'lessons:read',
      'lessons:write',
      'student-groups:read',
      'student-groups:write',
      'published-courses:read',
      'published-courses:write',
      'students:read',
      'students:write',
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  function expectNotFound(res: any, index = 0) {
    expect(res.status).toBe(207);
    expect(res.body.data[index]).toMatchObject({ status: 'failed', error: { code: 'not_found' } });
    expect(res.body.summary.failed).toBeGreaterThanOrEqual(1);
  }

  it('PATCH /v2/courses/', async () => {
    const created = await t.post('/v2/courses/', { data: [{ type: 'courses', attributes: { title: 'Long ids' } }] }, { token });
    expect(created.status).toBe(200);
    const id = created.body.data[0].id;
    const res = await t.patch(
      '/v2/courses/',
      {
        data: [
          { type: 'courses', id: LONG, attributes: { title: 'x' } },
          { type: 'courses', id, attributes: { title: 'Renamed' } },
        ],
      },
      { token },
    );
    expectNotFound(res);
    expect(res.body.data[1]).toMatchObject({ status: 'succeeded', id });
  });

  it('PATCH /v2/lessons/', async () => {
    const res = await t.patch('/v2/lessons/', { data: [{ type: 'lessons', id: LONG, attributes: { title: 'x' } }] }, { token });
    expectNotFound(res);
  });

  it('PATCH and DELETE /v2/groups/', async () => {
    expectNotFound(await t.patch('/v2/groups/', { data: [{ type: 'groups', id: LONG, attributes: { name: 'x' } }] }, { token }));
    expectNotFound(await t.request('DELETE', '/v2/groups/', { token, body: { data: [{ type: 'groups', id: LONG }] } }));
  });

  it('PATCH /v2/students/', async () => {
    expectNotFound(await t.patch('/v2/students/', { data: [{ type: 'students', id: LONG, attributes: { first_name: 'x' } }] }, { token }));
  });

  it("visibility overrides: an over-long published_course_id is that item's not_found", async () => {
    const g = await t.post('/v2/groups/', { data: [{ type: 'groups', attributes: { name: 'Long ids group' } }] }, { token });
    expect(g.status).toBe(200);
    const path = `/v2/groups/${g.body.data[0].id}/relationships/published-course-visibility/`;
    const body = { data: [{ type: 'visibility-overrides', attributes: { published_course_id: LONG, is_visible: true } }] };
    expectNotFound(await t.post(path, body, { token }));
  });
});
