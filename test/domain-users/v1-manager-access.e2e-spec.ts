import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

/**
 * PUT / DELETE /v1/domains/{domain_name}/users/{user_id}/manager-access (issue 29 point 4,
 * CONVENTIONS §17): the managed group made from group_name when new (reused when it exists), the
 * access levels, the course, path and license package ids (ignored and listed in invalid_ids when not
 * the organization's), can_create_users; PUT replaces the setting; DELETE revokes it.
 */
describe('/v1 manager access', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  const rnd = () => newUuid().slice(0, 8);
  const key = () => ({ basic: org.api_key });
  const MA = (user: string, o = org) => `/v1/domains/${o.domain_name}/users/${user}/manager-access`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
  });
  afterAll(() => t.close());

  const member = async (o = org) =>
    (await t.post(`/v1/domains/${o.domain_name}/users`, { user: { email: `m-${rnd()}@example.test`, first_name: 'Mana', last_name: 'Ger' } }, { basic: o.api_key })).body.user;
  const course = async (o = org) => (await t.post('/v1/courses', { title: `C ${rnd()}`, short_description: 's', enforce_sequential_navigation: false }, { basic: o.api_key })).body.id as string;
  const path = async (o = org) => (await t.post(`/v1/domains/${o.domain_name}/published-paths`, { slug: `p-${rnd()}`, path: { title: `P ${rnd()}` } }, { basic: o.api_key })).body.path.id as string;
  const licensePackage = async (o = org) => {
    const domainId = (await t.get(`/v2/domains/?filter[name]=${o.domain_name}`, { token: await t.tokenFor(o, ['domains:read']) })).body.data[0].id;
    const res = await t.post('/v1/license-packages', { domain_id: domainId, name: `Pkg ${rnd()}`, license_count: 2 }, { basic: o.api_key });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it('PUT grants (group made from group_name), answers ids and invalid_ids; PUT again replaces; DELETE revokes', async () => {
    const user = await member();
    const [c1, c2, p1, l1] = [await course(), await course(), await path(), await licensePackage()];
    const foreignCourse = await course(other);
    const groupName = `Managed ${rnd()}`;
    const res = await t.request('PUT', MA(user.id), {
      ...key(),
      body: {
        group_name: groupName,
        can_create_users: true,
        course_access_level: 'SELECTED',
        course_ids: [c1, c2, foreignCourse, 'nope'],
        path_access_level: 'ALL',
        path_ids: [p1],
        license_ids: [l1, encodeId('licensePackage', newUuid())],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: { id: user.id, email: user.email, first_name: 'Mana', last_name: 'Ger' },
      manager_access: {
        group_id: expect.any(String),
        can_create_users: true,
        course_access_level: 'SELECTED',
        course_ids: [c1, c2],
        path_access_level: 'ALL',
        path_ids: [p1],
        license_ids: [l1],
      },
      invalid_ids: { course_ids: [foreignCourse, 'nope'], path_ids: [], license_ids: [expect.any(String)] },
    });
    // the group exists under that name in the organization
    const group = await t.get(`/v1/groups/${res.body.manager_access.group_id}`, key());
    expect(group.status).toBe(200);
    expect(group.body.name).toBe(groupName);

    // PUT again: the same group by name (no second one), lists replaced, can_create_users back to its default
    const again = await t.request('PUT', MA(user.id), { ...key(), body: { group_name: groupName, course_access_level: 'NONE', path_access_level: 'SELECTED', path_ids: [p1] } });
    expect(again.status).toBe(200);
    expect(again.body.manager_access).toEqual({
      group_id: res.body.manager_access.group_id,
      can_create_users: false,
      course_access_level: 'NONE',
      course_ids: [],
      path_access_level: 'SELECTED',
      path_ids: [p1],
      license_ids: [],
    });
    expect(again.body.invalid_ids).toEqual({ course_ids: [], path_ids: [], license_ids: [] });
    const [{ n }] = await t.ownerQuery(`SELECT count(*)::int AS n FROM groups WHERE name = $1`, [groupName]);
    expect(n).toBe(1);
    // an existing group by its name is reused
    const existing = (await t.post('/v1/groups', { name: `Existing ${rnd()}` }, key())).body;
    const reuse = await t.request('PUT', MA(user.id), { ...key(), body: { group_name: existing.name, course_access_level: 'ALL', path_access_level: 'ALL' } });
    expect(reuse.body.manager_access.group_id).toBe(existing.id);

    expect((await t.delete(MA(user.id), key())).status).toBe(204);
    expect((await t.delete(MA(user.id), key())).status).toBe(404);
    const [{ left }] = await t.ownerQuery(`SELECT count(*)::int AS left FROM manager_access`);
    expect(left).toBe(0);
    // the group stays
    expect((await t.get(`/v1/groups/${existing.id}`, key())).status).toBe(200);
  });

  it('bad bodies: 400 naming the member, nothing stored; unknown users 404; another organization sees nothing', async () => {
    const user = await member();
    for (const [body, members] of [
      [{}, ['group_name', 'course_access_level', 'path_access_level']],
      [{ group_name: 'G', course_access_level: 'SOME', path_access_level: 'ALL' }, ['course_access_level']],
      [{ group_name: '', course_access_level: 'ALL', path_access_level: 'ALL' }, ['group_name']],
      [{ group_name: 'G', course_access_level: 'ALL', path_access_level: 'ALL', course_ids: 'abc' }, ['course_ids']],
      [{ group_name: 'G', course_access_level: 'ALL', path_access_level: 'ALL', can_create_users: 'maybe' }, ['can_create_users']],
    ] as const) {
      const res = await t.request('PUT', MA(user.id), { ...key(), body });
      expect({ body, status: res.status, keys: Object.keys(res.body).sort() }).toEqual({ body, status: 400, keys: [...members].sort() });
    }
    const [{ n }] = await t.ownerQuery(`SELECT count(*)::int AS n FROM manager_access`);
    expect(n).toBe(0);
    const valid = { group_name: `G ${rnd()}`, course_access_level: 'ALL', path_access_level: 'ALL' };
    expect((await t.request('PUT', MA(encodeId('student', newUuid())), { ...key(), body: valid })).status).toBe(404);
    // a user of the organization who is not on the domain
    const student = (
      await t.post(
        '/v2/students/',
        { data: [{ type: 'students', attributes: { email: `s-${rnd()}@example.test`, first_name: 'A', last_name: 'B' } }] },
        { token: await t.tokenFor(org, ['students:write']) },
      )
    ).body.data[0].id;
    expect((await t.request('PUT', MA(student), { ...key(), body: valid })).status).toBe(404);
    // another organization, on its own domain path or ours
    expect((await t.request('PUT', MA(user.id, other), { basic: other.api_key, body: valid })).status).toBe(404);
    expect((await t.request('PUT', MA(user.id), { basic: other.api_key, body: valid })).status).toBe(404);
    expect((await t.request('PUT', MA(user.id), { ...key(), body: valid })).status).toBe(200);
    expect((await t.delete(MA(user.id), { basic: other.api_key })).status).toBe(404);
    expect((await t.delete(MA(user.id), key())).status).toBe(204);
  });

  it('the database refuses a link across organizations', async () => {
    const user = await member();
    const res = await t.request('PUT', MA(user.id), { ...key(), body: { group_name: `G ${rnd()}`, course_access_level: 'ALL', path_access_level: 'ALL' } });
    const [ma] = await t.ownerQuery(`SELECT id, organization_id FROM manager_access LIMIT 1`);
    const foreign = await course(other);
    const { decodeId } = await import('../../src/core/ids/ids');
    await expect(
      t.ownerQuery(`INSERT INTO manager_access_courses (organization_id, manager_access_id, course_id, position) VALUES ($1, $2, $3, 1)`, [ma.organization_id, ma.id, decodeId('course', foreign)]),
    ).rejects.toThrow(/foreign key/);
    expect(res.status).toBe(200);
  });
});
