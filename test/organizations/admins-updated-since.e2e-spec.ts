import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { v1SinceChecks } from '../support/since-checks';

/**
 * `updated_since` on /v1/admins and /v1/admin-roles (docs/decisions/data-out.md, issue 32 point 1):
 * the administrators and the custom roles changed at or after the time (the built-in roles never
 * change), by last change across pages, 400 `{"updated_since"}` on a bad value, on
 * `<table>_org_updated_idx` (EXPLAIN, no Seq Scan).
 */
jest.setTimeout(120_000);

describe('/v1/admins and /v1/admin-roles: updated_since', () => {
  let t: TestApp;
  let o: CreatedOrg;
  let u: ReturnType<typeof v1SinceChecks>;
  const key = () => ({ basic: o.api_key });
  beforeAll(async () => {
    t = await startTestApp();
    o = await t.newOrg();
    u = v1SinceChecks(t, key());
  });
  afterAll(() => t.close());

  it('administrators: changed since, by last change', async () => {
    const n = Date.now().toString(36);
    const admin = async (i: number) => u.ok(await t.post('/v1/admins', { email: `a${i}-${n}@admins.test`, role: 'reporter' }, key()), 201).id as string;
    const before = (await u.pages('/v1/admins')).length; // the organization's first owner
    const [a1, a2, a3] = [await admin(1), await admin(2), await admin(3)];
    const mid = await u.between();
    u.ok(await t.patch(`/v1/admins/${a3}`, { role: 'admin' }, key()));
    await u.pause(5);
    u.ok(await t.patch(`/v1/admins/${a1}`, { role: 'admin' }, key()));

    const since = u.ok(await t.get(`/v1/admins?updated_since=${mid}`, key()));
    expect({ count: since.count, ids: since.results.map((r: any) => r.id) }).toEqual({ count: 2, ids: [a3, a1] });
    expect((await u.pages('/v1/admins?updated_since=2000-01-01T00:00:00Z')).slice(before)).toEqual([a2, a3, a1]);
    expect((await u.pages('/v1/admins')).slice(before)).toEqual([a1, a2, a3]);
    await u.refusesBadTime('/v1/admins');
    await u.servedBy('/v1/admins', /FROM admins WHERE .*ORDER BY updated_at/s, 'admins_org_updated_idx');
  });

  it('custom roles: changed since, by last change; the built-in roles are never changed', async () => {
    const role = async (name: string) => u.ok(await t.post('/v1/admin-roles', { name, scopes: ['students:read'] }, key()), 201).name as string;
    const [r1, r2, r3] = [await role('one'), await role('two'), await role('three')];
    const mid = await u.between();
    u.ok(await t.patch(`/v1/admin-roles/${r3}`, { scopes: ['students:read', 'students:write'] }, key()));
    await u.pause(5);
    u.ok(await t.patch(`/v1/admin-roles/${r1}`, { scopes: ['courses:read'] }, key()));

    const since = u.ok(await t.get(`/v1/admin-roles?updated_since=${mid}`, key()));
    expect({ count: since.count, names: since.results.map((r: any) => r.name) }).toEqual({ count: 2, names: [r3, r1] });
    expect(await u.pages('/v1/admin-roles?updated_since=2000-01-01T00:00:00Z', (r) => r.name)).toEqual([r2, r3, r1]);
    expect(await u.pages('/v1/admin-roles', (r) => r.name)).toEqual(['owner', 'admin', 'content-editor', 'reporter', r1, r2, r3]);
    await u.refusesBadTime('/v1/admin-roles');
    await u.servedBy('/v1/admin-roles', /FROM admin_roles WHERE .*ORDER BY updated_at/s, 'admin_roles_org_updated_idx');
  });
});
