import { randomBytes } from 'node:crypto';
import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries } from '../support/fixtures';

const ref = (id: unknown) => ({ type: 'students', id });
const path = (groupId: string) => `/v2/groups/${groupId}/relationships/students/`;
const rnd = () => randomBytes(4).toString('hex');

/** POST and DELETE /v2/groups/{id}/relationships/students/: docs/decisions/v2-enrollments.md. */
describe('/v2/groups/{id}/relationships/students/', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org);
    otherToken = await t.tokenFor(other);
  });
  afterAll(() => t.close());

  async function group(tok = token): Promise<string> {
    const res = await t.post('/v2/groups/', { data: [{ type: 'groups', attributes: { name: `G ${rnd()}` } }] }, { token: tok });
    expect(res.status).toBe(200);
    return res.body.data[0].id;
  }
  async function students(n: number, tok = token): Promise<string[]> {
    const res = await t.post('/v2/students/', { data: Array.from({ length: n }, () => ({ type: 'students', attributes: { email: `gs-${rnd()}@example.test` } })) }, { token: tok });
    expect(res.status).toBe(200);
    return res.body.data.map((d: any) => d.id);
  }
  /** the group's members as /v1 lists them */
  const members = async (groupId: string, o: CreatedOrg = org) => {
    const res = await t.get(`/v1/groups/${groupId}/users?page_size=1000`, { basic: o.api_key });
    expect(res.status).toBe(200);
    return res.body.results.map((u: any) => u.id ?? u.user?.id).sort();
  };

  it('401 without a token, 403 without student-groups:write; nothing changes', async () => {
    const g = await group();
    const [s] = await students(1);
    const body = { data: [ref(s)] };
    expect((await t.post(path(g), body)).status).toBe(401);
    const readOnly = await t.tokenFor(org, ['student-groups:read', 'students:write']);
    const res = await t.post(path(g), body, { token: readOnly });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('forbidden');
    expect((await t.request('DELETE', path(g), { token: readOnly, body })).status).toBe(403);
    expect(await members(g)).toEqual([]);
  });

  it('adds students (MembershipResource), idempotently: a re-add answers the same membership', async () => {
    const g = await group();
    const [a, b] = await students(2);
    const res = await t.post(path(g), { data: [ref(a), ref(b)] }, { token });
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({ total: 2, succeeded: 2, failed: 0 });
    const [ra] = res.body.data;
    expect(ra).toEqual({
      status: 'succeeded',
      id: ra.result.id,
      result: { type: 'memberships', id: expect.stringMatching(/^gmem[0-9a-z]{25}$/), attributes: { student_id: a, is_manager: false, created_at: expect.stringMatching(/Z$/) } },
    });
    expect(res.body.data[1].result.attributes.student_id).toBe(b);
    expect(await members(g)).toEqual([a, b].sort());
    const again = await t.post(path(g), { data: [ref(b), ref(a)] }, { token });
    expect(again.status).toBe(200);
    expect(again.body.data.map((d: any) => d.result)).toEqual([res.body.data[1].result, res.body.data[0].result]);
    expect(await members(g)).toEqual([a, b].sort());
    // a membership made by /v1 is answered the same way
    const [c] = await students(1);
    expect((await t.post(`/v1/groups/${g}/users`, { user: { id: c } }, { basic: org.api_key })).status).toBeLessThan(300);
    const viaV2 = await t.post(path(g), { data: [ref(c)] }, { token });
    expect(viaV2.body.data[0].result.attributes.student_id).toBe(c);
  });

  it('removes students, idempotently (a non-member is "deleted" too); the id echoes the student', async () => {
    const g = await group();
    const [a, b, c] = await students(3);
    await t.post(path(g), { data: [ref(a), ref(b)] }, { token });
    const res = await t.request('DELETE', path(g), { token, body: { data: [ref(a), ref(c)] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { status: 'deleted', id: a },
        { status: 'deleted', id: c },
      ],
      summary: { total: 2, succeeded: 2, failed: 0 },
    });
    expect(await members(g)).toEqual([b]);
    const again = await t.request('DELETE', path(g), { token, body: { data: [ref(a)] } });
    expect(again.body.data).toEqual([{ status: 'deleted', id: a }]);
    expect(await members(g)).toEqual([b]);
  });

  it('per-item failures: duplicate id (first wins at /data/{i}/id), unknown / malformed / over-long / other-organization students, extra members, wrong type, anonymized', async () => {
    const g = await group();
    const [a, b, anon] = await students(3);
    const [foreign] = await students(1, otherToken);
    expect((await t.post(`/v2/students/${anon}/anonymize/`, {}, { token, headers: { 'x-confirm-destructive': 'true' } })).status).toBe(204);
    const data = [
      ref(a),
      ref(a),
      ref(encodeId('student', newUuid())),
      ref('stu-nope'),
      ref(foreign),
      { type: 'students', id: b, attributes: { email: 'x@example.test' } },
      { type: 'groups', id: b },
      { type: 'students' },
      ref('x'.repeat(65)),
      ref(anon),
    ];
    const res = await t.post(path(g), { data }, { token });
    expect(res.status).toBe(207);
    const outcome = res.body.data.map((d: any) => (d.status === 'failed' ? `${d.error.code} ${d.error.source.pointer}` : d.status));
    expect(outcome).toEqual([
      'succeeded',
      'duplicate_in_batch /data/1/id',
      'not_found /data/2/id',
      'not_found /data/3/id',
      'not_found /data/4/id',
      'validation_error /data/5/attributes',
      'validation_error /data/6/type',
      'validation_error /data/7/id',
      'not_found /data/8/id',
      'validation_error /data/9/id',
    ]);
    expect(await members(g)).toEqual([a]);
    // remove: the same vocabulary (an anonymized student can be removed)
    const del = await t.request('DELETE', path(g), { token, body: { data: [ref(a), ref(a), ref(foreign), ref('stu-nope'), ref(anon)] } });
    expect(del.status).toBe(207);
    expect(del.body.data.map((d: any) => (d.status === 'failed' ? `${d.error.code} ${d.error.source.pointer}` : d.status))).toEqual([
      'deleted',
      'duplicate_in_batch /data/1/id',
      'not_found /data/2/id',
      'not_found /data/3/id',
      'deleted',
    ]);
    expect(await members(g)).toEqual([]);
  });

  it("a group outside the organization is 404 whatever the body (before the envelope check), and the other organization's group is unchanged", async () => {
    const theirs = await group(otherToken);
    const [s] = await students(1);
    const [theirStudent] = await students(1, otherToken);
    await t.post(path(theirs), { data: [ref(theirStudent)] }, { token: otherToken });
    for (const g of [theirs, encodeId('group', newUuid()), 'grp-nope']) {
      for (const body of [{ data: [ref(s)] }, { data: [] }, {}, undefined, { data: Array.from({ length: 101 }, () => ref(s)) }]) {
        for (const method of ['POST', 'DELETE']) {
          const res = await t.request(method, path(g), { token, body });
          expect({ g, method, body, status: res.status, code: res.body?.errors?.[0]?.code }).toEqual({ g, method, body, status: 404, code: 'not_found' });
        }
      }
    }
    expect(await members(theirs, other)).toEqual([theirStudent]);
    // the caller's own group: the envelope is checked (400)
    const mine = await group();
    for (const body of [{ data: [] }, {}, { data: Array.from({ length: 101 }, () => ref(s)) }]) {
      expect((await t.post(path(mine), body, { token })).status).toBe(400);
      expect((await t.request('DELETE', path(mine), { token, body })).status).toBe(400);
    }
  });

  it('no N+1: adding or removing 100 students sends as many statements as 1', async () => {
    const g = await group();
    const ids = await students(100);
    const [first] = await students(1);
    await t.post(path(g), { data: [ref(first)] }, { token }); // warm the caches
    const addOne = await countQueries(() => t.post(path(g), { data: [ref(ids[0])] }, { token }));
    const addAll = await countQueries(() => t.post(path(g), { data: ids.map(ref) }, { token }));
    expect(addAll.result.status).toBe(200);
    expect(addAll.count).toBe(addOne.count);
    const delOne = await countQueries(() => t.request('DELETE', path(g), { token, body: { data: [ref(ids[0])] } }));
    // 100 members (the absent ones' look-up, one statement, runs in neither)
    const delAll = await countQueries(() => t.request('DELETE', path(g), { token, body: { data: [...ids.slice(1), first].map(ref) } }));
    expect(delAll.result.status).toBe(200);
    expect(delAll.result.body.summary).toEqual({ total: 100, succeeded: 100, failed: 0 });
    expect(delAll.count).toBe(delOne.count);
  });
});
