import { decodeId, encodeId, newUuid } from '../../src/core/ids/ids';
import { DomainsService } from '../../src/modules/domains/domains.service';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

const V = '/v2/signup-field-values/';
const item = (id: string, value: string) => ({ type: 'signup-field-values', id, attributes: { value } });

describe('/v2/signup-field-values', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let second: string;

  /** A signup field of a domain, through POST /v1/domains/{domain}/signup-fields (issue 15). */
  async function field(o: CreatedOrg, domainName: string, body: { label: string; type?: string; options?: { value: string }[] }): Promise<string> {
    const res = await t.post(`/v1/domains/${domainName}/signup-fields`, body, { basic: o.api_key });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  /** A student who is a member of the domain (POST /v1/domains/{d}/users). */
  async function member(o: CreatedOrg, domainName: string): Promise<string> {
    const res = await t.post(`/v1/domains/${domainName}/users`, { user: { email: `m-${newUuid().slice(0, 8)}@example.test`, first_name: 'M', last_name: 'B' } }, { basic: o.api_key });
    expect(res.status).toBe(201);
    return res.body.user.id;
  }

  beforeAll(async () => {
    t = await startTestApp({ BATCH_MAX_ITEMS: 5 });
    org = await t.newOrg();
    token = await t.tokenFor(org, ['signup-fields:read', 'signup-fields:write', 'students:write']);
    second = (await t.app.get(DomainsService).create(decodeId('organization', org.organization_id)!, `sf-${newUuid().slice(0, 8)}.example.test`)).name;
  });
  afterAll(() => t?.close());

  it('401 without a token; 403 without the signup-fields scopes on every operation', async () => {
    expect((await t.get(V)).status).toBe(401);
    const none = await t.tokenFor(org, ['students:read']);
    const readOnly = await t.tokenFor(org, ['signup-fields:read']);
    for (const [method, path, tok] of [
      ['GET', V, none],
      ['GET', `${V}${encodeId('signupFieldValue', newUuid())}`, none],
      ['POST', V, readOnly],
      ['PATCH', V, readOnly],
    ]) {
      const res = await t.request(method, path, { token: tok, body: method === 'GET' ? undefined : { student_id: 'x', data: [item('x', 'y')] } });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
  });

  it('create: items keyed by signup-field id for the top-level student, upserting; per-item not_found, validation_error (PICKLIST), duplicate_in_batch; 404 for a student without memberships', async () => {
    const team = await field(org, org.domain_name, { label: 'Team' });
    const size = await field(org, org.domain_name, { label: 'Size', type: 'PICKLIST', options: [{ value: 'S' }, { value: 'M' }] });
    const elsewhere = await field(org, second, { label: 'Elsewhere' });
    const student = await member(org, org.domain_name);

    const res = await t.post(
      V,
      { student_id: student, data: [item(team, 'Sales'), item(size, 'XXL'), item(team, 'Again'), item(elsewhere, 'x'), item(encodeId('signupField', newUuid()), 'x')] },
      { token },
    );
    expect(res.status).toBe(207);
    expect(res.body.data.map((d: any) => (d.status === 'failed' ? `${d.error.code} ${d.error.source.pointer}` : d.status))).toEqual([
      'succeeded',
      'validation_error /data/1/attributes/value',
      'duplicate_in_batch /data/2/id',
      'not_found /data/3/id', // a field of a domain the student is not a member of
      'not_found /data/4/id',
    ]);
    const picked = await t.post(V, { student_id: student, data: [item(size, 'M')] }, { token });
    expect(picked.status).toBe(200);
    expect(picked.body.data[0].result.attributes).toEqual({ label: 'Size', value: 'M' });
    const v = res.body.data[0];
    expect(v).toEqual({
      status: 'succeeded',
      id: expect.stringMatching(/^sfv[0-9a-z]{25}$/),
      result: {
        type: 'signup-field-values',
        id: v.id,
        attributes: { label: 'Team', value: 'Sales' },
        relationships: { student: { data: { type: 'students', id: student } }, 'signup-field': { data: { type: 'signup-fields', id: team } } },
      },
    });
    // the same value on /v1 (one row)
    const v1 = await t.get(`/v1/domains/${org.domain_name}/users/${student}/signup-fields/${team}`, { basic: org.api_key });
    expect(v1.body).toEqual({ signup_field: { id: team, label: 'Team' }, value: 'Sales' });

    // upsert: the same field again overwrites and keeps the value's id
    const again = await t.post(V, { student_id: student, data: [item(team, 'Support')] }, { token });
    expect(again.status).toBe(200);
    expect(again.body.data[0].id).toBe(v.id);
    expect(again.body.data[0].result.attributes.value).toBe('Support');

    // request level: a student of no domain, another organization's or an unknown student is 404; student_id missing 422; envelope 400
    const loner = (await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: `l-${newUuid().slice(0, 6)}@example.test`, first_name: 'L', last_name: 'N' } }] }, { token })).body
      .data[0].id;
    for (const sid of [loner, encodeId('student', newUuid()), 'nope']) {
      expect((await t.post(V, { student_id: sid, data: [item(team, 'x')] }, { token })).status).toBe(404);
    }
    const missing = await t.post(V, { data: [item(team, 'x')] }, { token });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].source).toEqual({ pointer: '/student_id' });
    expect((await t.post(V, { student_id: student, data: [] }, { token })).status).toBe(400);
    expect((await t.post(V, { student_id: student, data: Array.from({ length: 6 }, () => item(team, 'x')) }, { token })).status).toBe(400);
  });

  it('update by value id; list with filters and cursors; read by signup_field_value_id; other organizations see and change nothing', async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o, ['signup-fields:read', 'signup-fields:write']);
    const color = await field(o, o.domain_name, { label: 'Color', type: 'PICKLIST', options: [{ value: 'red' }, { value: 'blue' }] });
    const city = await field(o, o.domain_name, { label: 'City' });
    const s1 = await member(o, o.domain_name);
    const s2 = await member(o, o.domain_name);
    const a = (await t.post(V, { student_id: s1, data: [item(color, 'red'), item(city, 'Oslo')] }, { token: tok })).body.data.map((d: any) => d.id);
    const b = (await t.post(V, { student_id: s2, data: [item(color, 'blue')] }, { token: tok })).body.data.map((d: any) => d.id);

    const upd = await t.patch(V, { data: [item(a[0], 'blue'), item(a[1], 'green'), item(a[0], 'red'), item(b[0], 'purple'), item(color, 'x')] }, { token: tok });
    expect(upd.status).toBe(207);
    expect(upd.body.data.map((d: any) => (d.status === 'failed' ? `${d.error.code} ${d.error.source.pointer}` : d.status))).toEqual([
      'succeeded',
      'succeeded',
      'duplicate_in_batch /data/2/id',
      'validation_error /data/3/attributes/value',
      'not_found /data/4/id', // a signup-field id is not a value id
    ]);
    expect(upd.body.data[0].result.attributes).toEqual({ label: 'Color', value: 'blue' });

    const read = await t.get(`${V}${a[1]}`, { token: tok });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: a[1], attributes: { label: 'City', value: 'green' } });

    const ids = (q: string) => t.get(`${V}${q}`, { token: tok }).then((r) => (expect(r.status).toBe(200), r.body.data.map((d: any) => d.id).sort()));
    expect(await ids('')).toEqual([...a, ...b].sort());
    expect(await ids(`?filter[student.id]=${s1}`)).toEqual([...a].sort());
    expect(await ids(`?filter[signup-field.id]=${color}`)).toEqual([a[0], b[0]].sort());
    expect(await ids(`?filter[domains]=${o.domain_name.toUpperCase()},unknown.example`)).toEqual([...a, ...b].sort());
    expect(await ids(`?filter[domains]=unknown.example`)).toEqual([]);
    expect(await ids(`?filter[student.id]=garbage`)).toEqual([]);
    const p1 = await t.get(`${V}?page[size]=2`, { token: tok });
    expect(p1.body.has_more).toBe(true);
    const p2 = await t.get(`${V}?page[size]=2&page[cursor]=${encodeURIComponent(p1.body.next_cursor)}`, { token: tok });
    expect([...p1.body.data, ...p2.body.data].map((d: any) => d.id).sort()).toEqual([...a, ...b].sort());

    // organization A (the suite's org) neither reads nor writes these
    expect((await t.get(`${V}${a[0]}`, { token })).status).toBe(404);
    expect((await t.get(`${V}?filter[student.id]=${s1}`, { token })).body.data).toEqual([]);
    const foreign = await t.patch(V, { data: [item(a[0], 'red')] }, { token });
    expect(foreign.body.data[0].error.code).toBe('not_found');
    expect((await t.post(V, { student_id: s1, data: [item(color, 'red')] }, { token })).status).toBe(404);
    expect((await t.get(`${V}${a[0]}`, { token: tok })).body.data.attributes.value).toBe('blue');
    expect((await t.get(`${V}not-an-id`, { token: tok })).status).toBe(404);
  });
});
