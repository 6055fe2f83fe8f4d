import { DomainUserInvitesService } from '../../src/modules/domain-users/domain-user-invites.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, planOf, v2Pages } from '../support/fixtures';
import { journey } from '../support/learner-journey';
import { pause, v1Ids } from '../support/updated-since';

/**
 * `updated_since` on a domain's signup fields, a member's signup-field values and invites (/v1), and
 * `filter[updated_since]` on /v2/signup-field-values (docs/decisions/data-out.md): changed rows only, by
 * last change (an invite changes when it is used: its new `updated_at`, kept by a trigger), across
 * pages and cursor pages; 400 (/v1) or 422 naming the parameter (/v2) on a bad value; EXPLAIN naming
 * each index, no sequential scan.
 */
jest.setTimeout(120_000);

describe('signup fields, values and invites: updated_since', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const ids = (path: string, key: { basic: string }, idOf?: (r: any) => string) => v1Ids(t, path, key, idOf);

  async function served(run: { statements: string[]; params: unknown[][] }, statement: RegExp, index: string) {
    const plan = await planOf(t, run, statement);
    expect({ index, plan }).toEqual({ index, plan: expect.stringContaining(index) });
    expect(plan).not.toMatch(/Seq Scan/);
  }

  async function badV1(url: string, key: { basic: string }) {
    const bad = await t.get(`${url}?updated_since=yesterday`, key);
    expect({ url, status: bad.status, keys: Object.keys(bad.body) }).toEqual({ url, status: 400, keys: ['updated_since'] });
  }

  it("a domain's signup fields and a member's values (/v1), and /v2 signup-field values, by last change on their indexes", async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const token = await t.tokenFor(o);
    const j = journey(t, o);
    const D = `/v1/domains/${o.domain_name}`;
    const field = async (label: string) => (await t.post(`${D}/signup-fields`, { label }, key)).body.id as string;
    const [f1, f2, f3] = [await field('F1'), await field('F2'), await field('F3')];
    const [a, b] = [await j.learner(), await j.learner()];
    const set = async (user: string, f: string, value: string) => expect((await t.post(`${D}/users/${user}/signup-fields`, { signup_field: { id: f }, value }, key)).status).toBe(201);
    await set(a.id, f1, 'a1');
    await set(a.id, f2, 'a2');
    await pause(5);
    const mid = encodeURIComponent(new Date().toISOString());
    await pause(5);
    expect((await t.patch(`${D}/signup-fields/${f3}`, { help_text: 'changed' }, key)).status).toBe(200);
    await pause(5);
    expect((await t.patch(`${D}/signup-fields/${f1}`, { help_text: 'changed' }, key)).status).toBe(200);
    await set(a.id, f1, 'a1'); // the same value: no change
    await set(a.id, f2, 'a2 again');
    await pause(5);
    await set(b.id, f1, 'b1');

    // the fields
    const fields = await t.get(`${D}/signup-fields?updated_since=${mid}`, key);
    expect(fields.status).toBe(200);
    expect(fields.body.count).toBe(2);
    expect(fields.body.results.map((r: any) => r.id)).toEqual([f3, f1]);
    expect(await ids(`${D}/signup-fields?updated_since=2000-01-01T00:00:00Z&page_size=1`, key)).toEqual([f2, f3, f1]);
    expect(await ids(`${D}/signup-fields?page_size=1`, key)).toEqual([f1, f2, f3]);
    await badV1(`${D}/signup-fields`, key);
    await served(await countQueries(() => t.get(`${D}/signup-fields?updated_since=2000-01-01T00:00:00Z`, key)), /FROM signup_fields WHERE .*ORDER BY updated_at/s, 'signup_fields_org_updated_idx');

    // a member's values (/v1)
    const V = `${D}/users/${a.id}/signup-fields`;
    const values = await t.get(`${V}?updated_since=${mid}`, key);
    expect(values.body.count).toBe(1);
    expect(values.body.results.map((r: any) => [r.signup_field.id, r.value])).toEqual([[f2, 'a2 again']]);
    expect(await ids(`${V}?updated_since=2000-01-01T00:00:00Z&page_size=1`, key, (r) => r.signup_field.id)).toEqual([f1, f2]);
    await badV1(V, key);
    await served(
      await countQueries(() => t.get(`${V}?updated_since=2000-01-01T00:00:00Z`, key)),
      /FROM signup_field_values v JOIN signup_fields sf .*ORDER BY v\.updated_at/s,
      'signup_field_values_org_user_updated_idx',
    );

    // /v2: the organization's, one student's, one field's; by last change across cursor pages
    const L = '/v2/signup-field-values/';
    const fieldOf = (r: any) => `${r.relationships.student.data.id}:${r.relationships['signup-field'].data.id}`;
    const v2 = async (q: string) => {
      const res = await t.get(`${L}?${q}`, { token });
      expect({ q, status: res.status }).toEqual({ q, status: 200 });
      return res.body.data.map(fieldOf);
    };
    expect(await v2(`filter[updated_since]=${mid}`)).toEqual([`${a.id}:${f2}`, `${b.id}:${f1}`]);
    expect(await v2(`filter[updated_since]=${mid}&filter[student.id]=${a.id}`)).toEqual([`${a.id}:${f2}`]);
    expect(await v2(`filter[updated_since]=${mid}&filter[signup-field.id]=${f1}`)).toEqual([`${b.id}:${f1}`]);
    expect((await v2Pages(t, `${L}?filter[updated_since]=2000-01-01T00:00:00Z&page[size]=1`, token)).map(fieldOf)).toEqual([`${a.id}:${f1}`, `${a.id}:${f2}`, `${b.id}:${f1}`]);
    // without it: oldest value first, as before
    expect((await v2Pages(t, `${L}?page[size]=1`, token)).map(fieldOf)).toEqual([`${a.id}:${f1}`, `${a.id}:${f2}`, `${b.id}:${f1}`]);
    for (const bad of ['2026-01-01', 'soon']) {
      const res = await t.get(`${L}?filter[updated_since]=${bad}`, { token });
      expect({ bad, status: res.status, source: res.body.errors?.[0]?.source }).toEqual({ bad, status: 422, source: { parameter: 'filter[updated_since]' } });
    }
    const since = (q = '') => countQueries(() => t.get(`${L}?filter[updated_since]=2000-01-01T00:00:00Z${q}`, { token }));
    const statement = /FROM signup_field_values v JOIN signup_fields sf .*ORDER BY v\.updated_at/s;
    await served(await since(), statement, 'signup_field_values_org_updated_idx');
    await served(await since(`&filter[student.id]=${a.id}`), statement, 'signup_field_values_org_user_updated_idx');
    await served(await since(`&filter[signup-field.id]=${f1}`), statement, 'signup_field_values_org_field_updated_idx');
    // another organization sees none of them
    expect((await t.get(`${L}?filter[updated_since]=2000-01-01T00:00:00Z`, { token: await t.tokenFor(await t.newOrg()) })).body.data).toEqual([]);
  });

  it("a member's invites: made or used since, by last change, on domain_user_invites_user_updated_idx", async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const a = await journey(t, o).learner();
    const I = `/v1/domains/${o.domain_name}/users/${a.id}/invites`;
    const invite = async () => (await t.post(I, { send_email: false }, key)).body as { id: string; token: string };
    const [i1, i2] = [await invite(), await invite()];
    await pause(5);
    const mid = encodeURIComponent(new Date().toISOString());
    await pause(5);
    const i3 = await invite();
    await pause(5);
    // using an invite changes it (used_at): the trigger moves updated_at
    expect(await t.app.get(DomainUserInvitesService).acceptInvite(i1.token)).not.toBeNull();

    const since = await t.get(`${I}?updated_since=${mid}`, key);
    expect(since.status).toBe(200);
    expect(since.body.count).toBe(2);
    expect(since.body.results.map((r: any) => [r.id, r.used_at !== null])).toEqual([
      [i3.id, false],
      [i1.id, true],
    ]);
    expect(await ids(`${I}?updated_since=2000-01-01T00:00:00Z&page_size=1`, key)).toEqual([i2.id, i3.id, i1.id]);
    expect(await ids(`${I}?page_size=1`, key)).toEqual([i1.id, i2.id, i3.id]);
    await badV1(I, key);
    await served(await countQueries(() => t.get(`${I}?updated_since=2000-01-01T00:00:00Z`, key)), /FROM domain_user_invites WHERE .*ORDER BY updated_at/s, 'domain_user_invites_user_updated_idx');
  });
});
