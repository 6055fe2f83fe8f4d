import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

/** scopes_supported of the published authorization metadata (shared/reference/skilljar-authz-metadata.json), copied so the test stands alone. */
const REFERENCE_SCOPES = [
  'courses:read',
  'courses:write',
  'lessons:read',
  'lessons:write',
  'assets:read',
  'assets:write',
  'quizzes:read',
  'quizzes:write',
  'question-banks:read',
  'question-banks:write',
  'web-packages:read',
  'web-packages:write',
  'content-items:read',
  'content-items:write',
  'labels:read',
  'labels:write',
  'instructors:read',
  'instructors:write',
  'course-families:read',
  'course-families:write',
  'domains:read',
  'domains:write',
  'published-courses:read',
  'published-courses:write',
  'catalog-pages:read',
  'catalog-pages:write',
  'paths:read',
  'paths:write',
  'plans:read',
  'plans:write',
  'tags:read',
  'tags:write',
  'themes:read',
  'themes:write',
  'enrollments:read',
  'enrollments:write',
  'students:read',
  'students:write',
  'students:manage-password',
  'signup-fields:read',
  'signup-fields:write',
  'student-groups:read',
  'student-groups:write',
  'certificates:read',
  'certificates:write',
  'email-templates:read',
  'email-templates:write',
  'language-packs:read',
  'language-packs:write',
  'admin-users:read',
  'admin-users:write',
  'roles:read',
  'roles:write',
  'analytics:read',
  'audit:read',
  'promo-codes:read',
  'promo-codes:write',
  'training-credits:read',
  'training-credits:write',
  'licensing:read',
  'licensing:write',
  'offers:read',
  'offers:write',
  'orders:read',
  'access-codes:read',
  'access-codes:write',
  'vilt-sessions:read',
  'vilt-sessions:write',
  'scheduled-reports:read',
  'scheduled-reports:write',
  'data-export:read',
  'data-export:write',
  'workflows:read',
  'workflows:write',
  'syndication:read',
  'syndication:write',
  'announcements:read',
  'announcements:write',
  'action-items:read',
  'action-items:write',
  'organization:read',
  'organization:write',
  'webhooks:read',
  'webhooks:write',
  'integrations:read',
  'integrations:write',
  'clients:read',
  'clients:write',
];

describe('/v2/clients and /v2/scopes', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 0 });
    org = await t.newOrg();
    admin = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  const tokenOf = async (attrs: { client_id: string; client_secret: string }) => t.post('/v2/auth/token', { client_id: attrs.client_id, client_secret: attrs.client_secret });

  it('create answers 201 with a one-time secret that works; read and list never return it', async () => {
    const res = await t.post('/v2/clients/', { name: 'Reporting', description: 'nightly export', scope_codenames: ['students:read', 'courses:read'] }, { token: admin });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
    expect(res.body.data).toMatchObject({
      type: 'clients',
      id: expect.any(String),
      attributes: {
        name: 'Reporting',
        description: 'nightly export',
        client_id: expect.any(String),
        client_secret: expect.any(String),
        scopes: ['courses:read', 'students:read'],
        is_active: true,
        ip_allowlist: [],
        created_at: expect.any(String),
      },
    });
    const { id, attributes } = res.body.data;
    expect((await tokenOf(attributes)).status).toBe(200);

    const read = await t.get(`/v2/clients/${id}`, { token: admin });
    expect(read.status).toBe(200);
    expect(read.body.data.attributes.client_id).toBe(attributes.client_id);
    expect(read.body.data.attributes.client_secret).toBeUndefined();
    expect(read.text).not.toContain(attributes.client_secret);
    const list = await t.get('/v2/clients/?page[size]=100', { token: admin });
    expect(list.text).not.toContain(attributes.client_secret);
    expect(list.body.data.every((c: any) => c.attributes.client_secret === undefined)).toBe(true);
  });

  it('a preset expands to its scopes', async () => {
    const res = await t.post('/v2/clients/', { name: 'ro', scope_preset: 'read-only' }, { token: admin });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes.scopes.every((s: string) => s.endsWith(':read'))).toBe(true);
    expect(res.body.data.attributes.scopes).toContain('students:read');
  });

  it('list pages with a cursor in links.next, stable and without repeats; a tampered cursor is 400', async () => {
    const fresh = await t.newOrg();
    const token = await t.tokenFor(fresh);
    for (let i = 0; i < 4; i++) expect((await t.post('/v2/clients/', { name: `c${i}` }, { token })).status).toBe(201);
    const seen: string[] = [];
    let path: string | null = '/v2/clients/?page[size]=2';
    let pages = 0;
    while (path) {
      const res: { status: number; body: any } = await t.get(path, { token });
      expect(res.status).toBe(200);
      expect(res.body.meta.page_size).toBe(2);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((c: any) => c.id));
      expect(res.body.has_more).toBe(res.body.links.next !== null);
      path = res.body.links.next ? new URL(res.body.links.next).pathname + new URL(res.body.links.next).search : null;
      pages++;
    }
    expect(pages).toBe(3); // bootstrap client + 4
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const all = await t.get('/v2/clients/?page[size]=100', { token });
    expect(all.body.data.map((c: any) => c.id)).toEqual(seen);

    const first = await t.get('/v2/clients/?page[size]=2', { token });
    const cursor = first.body.next_cursor as string;
    const tampered = await t.get(`/v2/clients/?page[size]=2&page[cursor]=${encodeURIComponent(cursor.slice(0, -2) + 'xx')}`, { token });
    expect(tampered.status).toBe(400);
    expect((await t.get('/v2/clients/?page[size]=0', { token })).status).toBe(422);
    expect((await t.get('/v2/clients/?page[size]=101', { token })).status).toBe(422);
  });

  it('update changes name, description, scopes and allowlist; null leaves a member unchanged', async () => {
    const made = await t.post('/v2/clients/', { name: 'before', description: 'd', scope_codenames: ['students:read'] }, { token: admin });
    const id = made.body.data.id;
    const res = await t.patch(`/v2/clients/${id}`, { name: 'after', scope_codenames: ['students:read', 'students:write'], ip_allowlist: ['127.0.0.1'] }, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ name: 'after', description: 'd', scopes: ['students:read', 'students:write'], ip_allowlist: ['127.0.0.1'] });
    expect(res.body.data.attributes.client_secret).toBeUndefined();
    const again = await t.patch(`/v2/clients/${id}`, { name: null, description: null }, { token: admin });
    expect(again.body.data.attributes).toMatchObject({ name: 'after', description: null });
    const tok = await tokenOf(made.body.data.attributes);
    expect(tok.body.scope).toBe('students:read students:write');
  });

  it('deactivate answers 204; the client and its tokens are refused from then on', async () => {
    const made = await t.post('/v2/clients/', { name: 'gone', scope_codenames: ['clients:read'] }, { token: admin });
    const tok = await tokenOf(made.body.data.attributes);
    expect((await t.get('/v2/scopes/', { token: tok.body.access_token })).status).toBe(200);
    const del = await t.delete(`/v2/clients/${made.body.data.id}`, { token: admin });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await t.get('/v2/scopes/', { token: tok.body.access_token })).status).toBe(401);
    const retry = await tokenOf(made.body.data.attributes);
    expect(retry.status).toBe(401);
    expect(retry.body.error).toBe('invalid_client');
    // deactivated, not removed
    const read = await t.get(`/v2/clients/${made.body.data.id}`, { token: admin });
    expect(read.status).toBe(200);
    expect(read.body.data.attributes.is_active).toBe(false);
  });

  it('rotate-secret returns a new secret once; the old one stops working', async () => {
    const made = await t.post('/v2/clients/', { name: 'rotating' }, { token: admin });
    const old = made.body.data.attributes;
    const rotated = await t.post(`/v2/clients/${made.body.data.id}/rotate-secret`, undefined, { token: admin });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.attributes;
    expect(fresh.client_secret).toEqual(expect.any(String));
    expect(fresh.client_secret).not.toBe(old.client_secret);
    expect((await tokenOf(old)).status).toBe(401);
    expect((await tokenOf(fresh)).status).toBe(200);
  });

  it('a client cannot be given scopes the caller lacks (403); unknown scopes and presets are 422', async () => {
    const limited = await t.tokenFor(org, ['clients:write', 'clients:read', 'students:read']);
    const denied = await t.post('/v2/clients/', { name: 'escalate', scope_codenames: ['students:write'] }, { token: limited });
    expect(denied.status).toBe(403);
    const preset = await t.post('/v2/clients/', { name: 'escalate', scope_preset: 'full-access' }, { token: limited });
    expect(preset.status).toBe(403);
    const ok = await t.post('/v2/clients/', { name: 'fine', scope_codenames: ['students:read'] }, { token: limited });
    expect(ok.status).toBe(201);
    const upd = await t.patch(`/v2/clients/${ok.body.data.id}`, { scope_codenames: ['students:write'] }, { token: limited });
    expect(upd.status).toBe(403);

    const unknown = await t.post('/v2/clients/', { name: 'x', scope_codenames: ['students:read', 'nope:read'] }, { token: admin });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].code).toBe('validation_error');
    expect((await t.post('/v2/clients/', { name: 'x', scope_preset: 'everything' }, { token: admin })).status).toBe(422);
    expect((await t.patch(`/v2/clients/${ok.body.data.id}`, { scope_codenames: ['nope:read'] }, { token: admin })).status).toBe(422);
    expect((await t.post('/v2/clients/', { name: '' }, { token: admin })).status).toBe(422);
    expect((await t.post('/v2/clients/', { name: 'x', ip_allowlist: ['not-an-ip'] }, { token: admin })).status).toBe(422);
  });

  it('client operations need clients:read / clients:write', async () => {
    const reader = await t.tokenFor(org, ['clients:read']);
    expect((await t.get('/v2/clients/', { token: reader })).status).toBe(200);
    expect((await t.post('/v2/clients/', { name: 'x' }, { token: reader })).status).toBe(403);
    const writer = await t.tokenFor(org, ['clients:write']);
    expect((await t.get('/v2/clients/', { token: writer })).status).toBe(403);
    expect((await t.get('/v2/clients/')).status).toBe(401);
  });

  it('unknown or undecodable ids are 404', async () => {
    expect((await t.get('/v2/clients/cli_AAAAAAAAAAAAAAAAAAAAAA', { token: admin })).status).toBe(404);
    expect((await t.get('/v2/clients/garbage', { token: admin })).status).toBe(404);
    expect((await t.delete('/v2/clients/garbage', { token: admin })).status).toBe(404);
  });

  it('the scope catalog: every reference codename plus students:deactivate and students:anonymize, and the presets', async () => {
    const res = await t.get('/v2/scopes/', { token: admin });
    expect(res.status).toBe(200);
    const ids = res.body.data.map((s: any) => s.id);
    for (const codename of [...REFERENCE_SCOPES, 'students:deactivate', 'students:anonymize']) expect(ids).toContain(codename);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of res.body.data) {
      expect(s).toEqual({ type: 'scopes', id: s.id, attributes: { codename: s.id, description: expect.any(String), category: expect.any(String) } });
    }
    expect(Object.keys(res.body.meta.presets).sort()).toEqual(['content-management', 'full-access', 'read-only', 'student-management']);
    expect(res.body.meta.presets['full-access'].sort()).toEqual([...ids].sort());
    expect(res.body.meta.presets['read-only'].every((s: string) => s.endsWith(':read'))).toBe(true);
    for (const list of Object.values(res.body.meta.presets) as string[][]) for (const s of list) expect(ids).toContain(s);
    expect((await t.get('/v2/scopes/', { token: await t.tokenFor(org, ['students:read']) })).status).toBe(403);
  });
});

describe('clients across organizations', () => {
  let t: TestApp;
  let a: string;
  let b: string;
  let bClient: { id: string; attributes: { client_id: string; client_secret: string } };
  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 0 });
    a = await t.tokenFor(await t.newOrg('A'));
    b = await t.tokenFor(await t.newOrg('B'));
    bClient = (await t.post('/v2/clients/', { name: 'B private' }, { token: b })).body.data;
  });
  afterAll(() => t.close());

  it("a token of org A cannot read, update, rotate or delete org B's client (404), and never lists it", async () => {
    const list = await t.get('/v2/clients/?page[size]=100', { token: a });
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: any) => c.id)).not.toContain(bClient.id);
    expect(list.text).not.toContain(bClient.attributes.client_id);

    expect((await t.get(`/v2/clients/${bClient.id}`, { token: a })).status).toBe(404);
    expect((await t.patch(`/v2/clients/${bClient.id}`, { name: 'hijacked' }, { token: a })).status).toBe(404);
    expect((await t.post(`/v2/clients/${bClient.id}/rotate-secret`, undefined, { token: a })).status).toBe(404);
    const del = await t.delete(`/v2/clients/${bClient.id}`, { token: a });
    expect(del.status).toBe(404);
    expect(del.body.errors[0].code).toBe('not_found');

    // untouched
    const mine = await t.get(`/v2/clients/${bClient.id}`, { token: b });
    expect(mine.body.data.attributes).toMatchObject({ name: 'B private', is_active: true });
    expect((await t.post('/v2/auth/token', { client_id: bClient.attributes.client_id, client_secret: bClient.attributes.client_secret })).status).toBe(200);
  });
});
