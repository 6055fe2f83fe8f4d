import { randomBytes } from 'node:crypto';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

/**
 * Automatic group assignment (the published Group's `sign_up_field_rule` and `rule_email_domains`;
 * docs/decisions/group-auto-assignment.md): a user whose signup-field values match an enforced
 * rule joins the group, on /v1 and /v2 value writes; a user registering on a domain with a
 * matching email domain joins the group. Everything through HTTP.
 */
describe('groups: automatic assignment by sign-up-field rule and email domain', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let dn: string;
  const rnd = () => randomBytes(3).toString('hex');
  const basic = (o: CreatedOrg = org) => ({ basic: o.api_key });

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org, ['signup-fields:read', 'signup-fields:write', 'students:read', 'students:write']);
    dn = org.domain_name;
  });
  afterAll(() => t?.close());

  const register = async (email = `a-${rnd()}@example.test`, o: CreatedOrg = org) => {
    const u = await t.post(`/v1/domains/${o.domain_name}/users`, { user: { email, first_name: 'A', last_name: 'B' } }, basic(o));
    expect(u.status).toBe(201);
    return u.body.user.id as string;
  };
  const groupsOf = async (userId: string, o: CreatedOrg = org) => {
    const r = await t.get(`/v1/users/${userId}/groups`, basic(o));
    expect(r.status).toBe(200);
    return (r.body.results as { id: string }[]).map((g) => g.id).sort();
  };
  const picklist = async (label: string, values: string[]) => {
    const f = await t.post(`/v1/domains/${dn}/signup-fields`, { type: 'PICKLIST', label, options: values.map((value) => ({ value })) }, basic());
    expect(f.status).toBe(201);
    return { id: f.body.id as string, options: f.body.options as { id: string; value: string }[] };
  };
  const group = async (rule: Record<string, unknown> | null, extra: Record<string, unknown> = {}) => {
    const g = await t.post('/v1/groups', { name: `G ${rnd()}`, sign_up_field_rule: rule, ...extra }, basic());
    expect(g.status).toBe(201);
    return g.body.id as string;
  };
  const setV1 = (userId: string, fieldId: string, value: string) => t.post(`/v1/domains/${dn}/users/${userId}/signup-fields`, { signup_field: { id: fieldId }, value }, basic());

  it('an enforced any-match rule admits the user when a /v1 value matches one option, and only then', async () => {
    const region = await picklist(`Region ${rnd()}`, ['EMEA', 'APAC', 'AMER']);
    const [emea, apac] = region.options;
    const any = await group({ enforce: true, require_match_all: false, options: [{ id: emea.id }, { id: apac.id }] });
    const notEnforced = await group({ enforce: false, require_match_all: false, options: [{ id: emea.id }] });
    const plain = await group(null);

    const u = await register();
    expect(await groupsOf(u)).toEqual([]);
    expect((await setV1(u, region.id, 'AMER')).status).toBe(201);
    expect(await groupsOf(u)).toEqual([]);
    expect((await setV1(u, region.id, 'EMEA')).status).toBe(201);
    expect(await groupsOf(u)).toEqual([any]);
    // a changed value never removes the membership
    expect((await setV1(u, region.id, 'AMER')).status).toBe(201);
    expect(await groupsOf(u)).toEqual([any]);
    // the other groups were never joined
    for (const g of [notEnforced, plain]) expect((await t.get(`/v1/groups/${g}/users`, basic())).body.count).toBe(0);
  });

  it('a match-all rule needs every option matched (two fields), through the /v1 bulk write and the /v2 values', async () => {
    const region = await picklist(`Region ${rnd()}`, ['EMEA', 'APAC']);
    const tier = await picklist(`Tier ${rnd()}`, ['Gold', 'Silver']);
    const all = await group({ enforce: true, require_match_all: true, options: [{ id: region.options[0].id }, { id: tier.options[0].id }] });

    const a = await register();
    const half = await t.post(
      `/v1/domains/${dn}/users/${a}/signup-fields-bulk`,
      {
        signup_fields: [
          { id: region.id, value: 'EMEA' },
          { id: tier.id, value: 'Silver' },
        ],
      },
      basic(),
    );
    expect(half.status).toBeLessThan(300);
    expect(await groupsOf(a)).toEqual([]);
    const full = await t.post(`/v1/domains/${dn}/users/${a}/signup-fields-bulk`, { signup_fields: [{ id: tier.id, value: 'Gold' }] }, basic());
    expect(full.status).toBeLessThan(300);
    expect(await groupsOf(a)).toEqual([all]);

    // /v2: create keyed by signup-field id, then update keyed by value id
    const b = await register();
    const item = (id: string, value: string) => ({ type: 'signup-field-values', id, attributes: { value } });
    const created = await t.post('/v2/signup-field-values/', { student_id: b, data: [item(region.id, 'EMEA'), item(tier.id, 'Silver')] }, { token });
    expect(created.status).toBe(200);
    expect(await groupsOf(b)).toEqual([]);
    const tierValueId = created.body.data[1].result.id;
    const updated = await t.patch('/v2/signup-field-values/', { data: [item(tierValueId, 'Gold')] }, { token });
    expect(updated.status).toBe(200);
    expect(await groupsOf(b)).toEqual([all]);
  });

  it('a user registering on a domain joins the groups whose email domains match theirs (case-insensitive); others do not', async () => {
    const d = `corp-${rnd()}.example`;
    const byDomain = await group(null, { rule_email_domains: [d.toUpperCase()] });
    const elsewhere = await group(null, { rule_email_domains: ['elsewhere.example'] });
    const u = await register(`Someone.${rnd()}@${d}`);
    expect(await groupsOf(u)).toEqual([byDomain]);
    const v = await register(`x-${rnd()}@example.test`);
    expect(await groupsOf(v)).toEqual([]);
    expect((await t.get(`/v1/groups/${elsewhere}/users`, basic())).body.count).toBe(0);
    // bulk registration too
    const bulk = await t.post(`/v1/domains/${dn}/users/bulk-create`, { users: [{ email: `b1-${rnd()}@${d}`, first_name: 'B', last_name: 'One' }] }, basic());
    expect(bulk.status).toBeLessThan(300);
    expect((await t.get(`/v1/groups/${byDomain}/users`, basic())).body.count).toBe(2);
  });

  it("another organization's groups are never joined, even with the same email domain", async () => {
    const d = `shared-${rnd()}.example`;
    const ours = await group(null, { rule_email_domains: [d] });
    const theirs = await t.post('/v1/groups', { name: `T ${rnd()}`, rule_email_domains: [d] }, basic(other));
    expect(theirs.status).toBe(201);
    const u = await register(`u-${rnd()}@${d}`);
    expect(await groupsOf(u)).toEqual([ours]);
    expect((await t.get(`/v1/groups/${theirs.body.id}/users`, basic(other))).body.count).toBe(0);
  });
});
