import { startTestApp, TestApp } from '../support/app';
import { domainOf, insertDomain } from '../support/fixtures';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { drfFlat } from '../support/drf';

/** /v1/domains: list, read, update (PUT), partial_update (PATCH). */
describe('/v1 domains', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  const modes = () =>
    [
      ['api key', { basic: org.api_key }],
      ['bearer', { token }],
    ] as const;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  it('lists the organization domains with both credentials, paginated with the small cap', async () => {
    const extra = await insertDomain(t, org, undefined, 'PRIVATE');
    for (const [, auth] of modes()) {
      const res = await t.get('/v1/domains', auth);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(2);
      expect(res.body.next).toBeNull();
      expect(res.body.previous).toBeNull();
      const names = res.body.results.map((d: any) => d.name);
      expect(names).toEqual([org.domain_name, extra.name]);
      const priv = res.body.results[1];
      expect(priv).toEqual({
        id: extra.id,
        name: extra.name,
        catalog_title: '',
        private: true,
        access: 'PRIVATE',
        access_code_message_html: '',
        marketing_message: '',
      });
      expect(res.body.results[0].private).toBe(false);
    }
    const p2 = await t.get('/v1/domains?page=2', { basic: org.api_key });
    expect(p2.status).toBe(404);
    expect(p2.body).toEqual({ detail: 'Invalid page.' });
    const bad = await t.get('/v1/domains?page=abc', { basic: org.api_key });
    expect(bad.status).toBe(400);
    expect(bad.body.page).toBeDefined();
  });

  it('reads a domain by name (case-insensitive, trailing slash ignored); unknown → 404', async () => {
    for (const [, auth] of modes()) {
      const res = await t.get(`/v1/domains/${org.domain_name}`, auth);
      expect(res.status).toBe(200);
      expect(res.body.name).toBe(org.domain_name);
      expect(res.body.access).toBe('PUBLIC');
      const slash = await t.get(`/v1/domains/${org.domain_name}/`, auth);
      expect(slash.status).toBe(200);
    }
    expect((await t.get('/v1/domains/%00', { basic: org.api_key })).status).toBe(404); // a NUL in a path parameter names nothing that can exist: not found, without a statement (CONVENTIONS §2, issue 25 item 15d)
    expect((await t.get('/v1/domains/a%20b', { basic: org.api_key })).status).toBe(404);
    const missing = await t.get('/v1/domains/nope.example', { basic: org.api_key });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Not found.' });
  });

  it('PATCH and PUT update only the members sent; private follows access', async () => {
    const d = await insertDomain(t, org);
    for (const [label, auth] of modes()) {
      const res = await t.patch(`/v1/domains/${d.name}`, { access: 'PRIVATE_CODE', access_code_message_html: `<p>${label}</p>` }, auth);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ access: 'PRIVATE_CODE', private: true, access_code_message_html: `<p>${label}</p>` });
      expect(res.body.catalog_title).toBe(label === 'api key' ? '' : '<h1>Hi</h1>');
      const put = await t.request('PUT', `/v1/domains/${d.name}`, { ...auth, body: { catalog_title: '<h1>Hi</h1>', access: 'PUBLIC', marketing_message: 'm' } });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ access: 'PUBLIC', private: false, catalog_title: '<h1>Hi</h1>', marketing_message: 'm', access_code_message_html: `<p>${label}</p>` });
    }
    const read = await t.get(`/v1/domains/${d.name}`, { token });
    expect(read.body.catalog_title).toBe('<h1>Hi</h1>');
    const [row] = await t.ds.query(`SELECT access, catalog_title FROM domains WHERE id = $1`, [d.uuid]);
    expect(row).toEqual({ access: 'PUBLIC', catalog_title: '<h1>Hi</h1>' });
  });

  it('bad input is a 400 with field errors, never a 500; read-only members are ignored', async () => {
    const d = await domainOf(t, org);
    // blank is not bad input: a read gives "" when unset and must be writable back (CONVENTIONS §9)
    expect((await t.patch(`/v1/domains/${d.name}`, { catalog_title: '', access_code_message_html: '' }, { basic: org.api_key })).status).toBe(200);
    const cases: [unknown, string][] = [
      [{ access: 'SECRET' }, 'access'],
      [{ access: null }, 'access'],
      [{ catalog_title: 5 }, 'catalog_title'],
      [{ access_code_message_html: null }, 'access_code_message_html'],
      [{ marketing_message: ['x'] }, 'marketing_message'],
      [{ catalog_title: 'nul \u0000 byte' }, 'catalog_title'],
    ];
    for (const [body, field] of cases) {
      const res = await t.patch(`/v1/domains/${d.name}`, body, { basic: org.api_key });
      expect(res.status).toBe(400);
      expect(drfFlat(res.body)[field]).toEqual(expect.any(Array));
    }
    const arr = await t.patch(`/v1/domains/${d.name}`, [1, 2], { basic: org.api_key });
    expect(arr.status).toBe(400);
    const malformed = await t.request('PATCH', `/v1/domains/${d.name}`, { basic: org.api_key, raw: { contentType: 'application/json', data: '{"access":' } });
    expect(malformed.status).toBe(400);
    const ro = await t.patch(`/v1/domains/${d.name}`, { name: 'hijack.example', id: 'x', private: true }, { basic: org.api_key });
    expect(ro.status).toBe(200);
    expect(ro.body.name).toBe(d.name);
    expect(ro.body.access).toBe('PUBLIC');
  });

  it('401 without credentials, 403 without the domains scope', async () => {
    expect((await t.get('/v1/domains')).status).toBe(401);
    expect((await t.get('/v1/domains', { basic: 'not-a-key' })).status).toBe(401);
    const readOnly = await t.tokenFor(org, ['domains:read']);
    const other = await t.tokenFor(org, ['courses:read']);
    expect((await t.get('/v1/domains', { token: other })).status).toBe(403);
    expect((await t.get(`/v1/domains/${org.domain_name}`, { token: other })).status).toBe(403);
    expect((await t.get(`/v1/domains/${org.domain_name}`, { token: readOnly })).status).toBe(200);
    const w = await t.patch(`/v1/domains/${org.domain_name}`, { catalog_title: 'x' }, { token: readOnly });
    expect(w.status).toBe(403);
    expect(w.body.detail).toEqual(expect.any(String));
    const put = await t.request('PUT', `/v1/domains/${org.domain_name}`, { token: readOnly, body: { catalog_title: 'x' } });
    expect(put.status).toBe(403);
  });

  it('another organization’s domain is not found and never changes', async () => {
    const other = await t.newOrg();
    const list = await t.get('/v1/domains', { basic: org.api_key });
    expect(list.body.results.map((d: any) => d.name)).not.toContain(other.domain_name);
    expect((await t.get(`/v1/domains/${other.domain_name}`, { basic: org.api_key })).status).toBe(404);
    expect((await t.patch(`/v1/domains/${other.domain_name}`, { access: 'PRIVATE' }, { basic: org.api_key })).status).toBe(404);
    expect((await t.request('PUT', `/v1/domains/${other.domain_name}`, { token, body: { access: 'PRIVATE' } })).status).toBe(404);
    const mine = await t.get(`/v1/domains/${other.domain_name}`, { basic: other.api_key });
    expect(mine.body.access).toBe('PUBLIC');
  });
});
