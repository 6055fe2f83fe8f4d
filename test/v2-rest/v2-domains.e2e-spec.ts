import { decodeId, encodeId, newUuid } from '../../src/core/ids/ids';
import { DomainsService } from '../../src/modules/domains/domains.service';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

describe('/v2/domains', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let names: string[];

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org, ['domains:read']);
    const svc = t.app.get(DomainsService);
    const orgId = decodeId('organization', org.organization_id)!;
    const priv = await svc.create(orgId, `priv-${newUuid().slice(0, 8)}.example.test`, { private: true });
    const code = await svc.create(orgId, `code-${newUuid().slice(0, 8)}.example.test`);
    // the access mode is changed through /v1 (the same rows)
    expect((await t.patch(`/v1/domains/${code.name}`, { access: 'PRIVATE_CODE', marketing_message: 'Welcome' }, { basic: org.api_key })).status).toBe(200);
    names = [org.domain_name, priv.name, code.name];
  });
  afterAll(() => t?.close());

  it('401 without a token, 403 without domains:read', async () => {
    expect((await t.get('/v2/domains/')).status).toBe(401);
    const none = await t.tokenFor(org, ['courses:read']);
    const res = await t.get('/v2/domains/', { token: none });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('forbidden');
    expect((await t.get(`/v2/domains/${encodeId('domain', newUuid())}`, { token: none })).status).toBe(403);
  });

  it("lists the organization's domains oldest first as DomainResource, with cursor pages", async () => {
    const all = await t.get('/v2/domains/', { token });
    expect(all.status).toBe(200);
    expect(all.body.data.map((d: any) => d.attributes.name)).toEqual(names);
    expect(all.body.has_more).toBe(false);
    expect(all.body.next_cursor).toBeNull();
    const code = all.body.data[2];
    expect(code).toEqual({
      type: 'domains',
      id: expect.stringMatching(/^dom[0-9a-z]{25}$/),
      attributes: {
        external_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: names[2],
        access: 'PRIVATE_CODE',
        access_message_html: '',
        marketing_message: 'Welcome',
        require_https: true,
        created_at: expect.any(String),
        modified_at: expect.any(String),
      },
      relationships: { theme: { data: null } },
      links: { self: `${t.baseUrl}/v2/domains/${code.id}` },
    });
    expect(all.body).not.toHaveProperty('included');

    const first = await t.get('/v2/domains/?page[size]=2', { token });
    expect(first.body.data.map((d: any) => d.attributes.name)).toEqual(names.slice(0, 2));
    expect(first.body.has_more).toBe(true);
    expect(first.body.meta).toEqual({ page_size: 2 });
    const second = await t.get(`/v2/domains/?page[size]=2&page[cursor]=${encodeURIComponent(first.body.next_cursor)}`, { token });
    expect(second.body.data.map((d: any) => d.attributes.name)).toEqual(names.slice(2));
    expect(second.body.has_more).toBe(false);
    expect(first.body.links.next).toContain('page%5Bcursor%5D=');
    expect((await t.get('/v2/domains/?page[size]=0', { token })).status).toBe(422);
    expect((await t.get('/v2/domains/?page[cursor]=forged', { token })).status).toBe(400);
  });

  it('filter[access] (422 on a value outside the enumeration), filter[name] (exact hostname, case-insensitive), include=theme', async () => {
    const priv = await t.get('/v2/domains/?filter[access]=PRIVATE', { token });
    expect(priv.body.data.map((d: any) => d.attributes.name)).toEqual([names[1]]);
    const pub = await t.get('/v2/domains/?filter[access]=PUBLIC', { token });
    expect(pub.body.data.map((d: any) => d.attributes.name)).toEqual([names[0]]);
    const bad = await t.get('/v2/domains/?filter[access]=SECRET', { token });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source).toEqual({ parameter: 'filter[access]' });

    const byName = await t.get(`/v2/domains/?filter[name]=${names[2].toUpperCase()}`, { token });
    expect(byName.body.data.map((d: any) => d.attributes.name)).toEqual([names[2]]);
    expect((await t.get(`/v2/domains/?filter[name]=${names[2].slice(0, 6)}`, { token })).body.data).toEqual([]);
    // another organization's domain name matches nothing
    expect((await t.get(`/v2/domains/?filter[name]=${other.domain_name}`, { token })).body.data).toEqual([]);

    const inc = await t.get('/v2/domains/?include=theme', { token });
    expect(inc.status).toBe(200);
    expect(inc.body.included).toEqual([]);
    expect((await t.get('/v2/domains/?include=owner', { token })).status).toBe(422);
  });

  it("reads one domain by id; malformed, unknown and another organization's ids are 404 alike", async () => {
    const list = await t.get('/v2/domains/', { token });
    const d = list.body.data[1];
    const read = await t.get(`/v2/domains/${d.id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: d });

    const otherToken = await t.tokenFor(other, ['domains:read']);
    const otherDomain = (await t.get('/v2/domains/', { token: otherToken })).body.data[0];
    const foreign = await t.get(`/v2/domains/${otherDomain.id}`, { token });
    const random = await t.get(`/v2/domains/${encodeId('domain', newUuid())}`, { token });
    expect(foreign.status).toBe(404);
    expect(random.status).toBe(404);
    expect(foreign.body.errors[0].detail).toBe(random.body.errors[0].detail);
    expect((await t.get('/v2/domains/not-an-id', { token })).status).toBe(404);
    expect((await t.get(`/v2/domains/${encodeId('course', newUuid())}`, { token })).status).toBe(404);
  });
});
