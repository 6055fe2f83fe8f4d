import { HttpResponse, startTestApp, TestApp } from '../support/app';
import { countQueries, domainOf, planOf } from '../support/fixtures';
import { journey } from '../support/learner-journey';

/**
 * `updated_since` on /v1/domains/{name}/users and `filter[updated_since]` on
 * /v2/students/{id}/relationships/domain-memberships (docs/decisions/data-out.md): changed
 * memberships only, ordered by last change, each on its index; bad values 400 / 422.
 */
jest.setTimeout(120_000);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('domain users: updated_since', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('/v1/domains/{name}/users updated_since and /v2 domain memberships filter[updated_since]: by last change, on their indexes', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const tok = await t.tokenFor(o);
    const { name } = await domainOf(t, o);
    const j = journey(t, o);
    const a = await j.learner();
    const b = await j.learner();
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await t.patch(`/v1/domains/${name}/users/${a.id}`, { active: false }, key)).status).toBe(200);

    const since = await t.get(`/v1/domains/${name}/users?updated_since=${encodeURIComponent(mid)}`, key);
    expect(since.status).toBe(200);
    expect(since.body.count).toBe(1);
    expect(since.body.results.map((r: any) => r.user.id)).toEqual([a.id]);
    const early = await t.get(`/v1/domains/${name}/users?updated_since=2000-01-01T00:00:00Z`, key);
    expect(early.body.results.map((r: any) => r.user.id).filter((id: string) => id === a.id || id === b.id)).toEqual([b.id, a.id]);
    const bad = await t.get(`/v1/domains/${name}/users?updated_since=soon`, key);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['updated_since']);
    const run = await countQueries(() => t.get(`/v1/domains/${name}/users?updated_since=2000-01-01T00:00:00Z`, key));
    expect(await planOf(t, run, /FROM domain_users du .*ORDER BY du\.updated_at/s)).toMatch(/domain_users_domain_updated_idx/);

    const path = (id: string) => `/v2/students/${id}/relationships/domain-memberships/`;
    const list = async (url: string): Promise<HttpResponse> => t.get(url, { token: tok });
    expect((await list(`${path(a.id)}?filter[updated_since]=${encodeURIComponent(mid)}`)).body.data).toHaveLength(1);
    expect((await list(`${path(b.id)}?filter[updated_since]=${encodeURIComponent(mid)}`)).body.data).toEqual([]);
    expect((await list(`${path(b.id)}?filter[updated_since]=2000-01-01T00:00:00Z`)).body.data).toHaveLength(1);
    const badV2 = await list(`${path(a.id)}?filter[updated_since]=2026-01-01`);
    expect(badV2.status).toBe(422);
    expect(badV2.body.errors[0].source).toEqual({ parameter: 'filter[updated_since]' });
    const runV2 = await countQueries(() => list(`${path(a.id)}?filter[updated_since]=2000-01-01T00:00:00Z`));
    expect(await planOf(t, runV2, /FROM domain_users du .*ORDER BY du\.updated_at/s)).toMatch(/domain_users_org_user_updated_idx/);
  });
});
