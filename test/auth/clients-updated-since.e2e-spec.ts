import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { v1SinceChecks, v2SinceChecks } from '../support/since-checks';

/**
 * `filter[updated_since]` on /v2/clients (docs/decisions/data-out.md, issue 32 point 1): the clients
 * changed at or after the time, by last change across cursor pages (the cursor at (updated_at, id):
 * `updated_at` kept at the millisecond), 422 naming the parameter on a bad value, on
 * oauth_clients_org_updated_idx (EXPLAIN, no Seq Scan).
 */
jest.setTimeout(120_000);

describe('/v2/clients: filter[updated_since]', () => {
  let t: TestApp;
  let o: CreatedOrg;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    o = await t.newOrg();
    token = await t.tokenFor(o);
  });
  afterAll(() => t.close());

  it('changed since, by last change', async () => {
    const { ok, between, pause } = v1SinceChecks(t, { token });
    const v2 = v2SinceChecks(t, token);
    const before = await v2.pages('/v2/clients/'); // the caller's own client
    const client = async (i: number) => ok(await t.post('/v2/clients/', { name: `c${i}` }, { token }), 201).data.id as string;
    const [c1, c2, c3] = [await client(1), await client(2), await client(3)];
    const mid = await between();
    ok(await t.patch(`/v2/clients/${c3}`, { name: 'c3 again' }, { token }));
    await pause(5);
    ok(await t.patch(`/v2/clients/${c1}`, { name: 'c1 again' }, { token }));

    expect(await v2.pages(`/v2/clients/?filter[updated_since]=${mid}`)).toEqual([c3, c1]);
    expect((await v2.pages('/v2/clients/?filter[updated_since]=2000-01-01T00:00:00Z')).filter((id) => !before.includes(id))).toEqual([c2, c3, c1]);
    expect((await v2.pages('/v2/clients/')).filter((id) => !before.includes(id))).toEqual([c1, c2, c3]);
    await v2.refusesBadTime('/v2/clients/');
    await v2.servedBy('/v2/clients/', /FROM "oauth_clients".*ORDER BY .*updated_at/s, 'oauth_clients_org_updated_idx');
    // another organization's clients are never in the list
    const other = await t.newOrg();
    const theirs = await t.get('/v2/clients/?filter[updated_since]=2000-01-01T00:00:00Z', { token: await t.tokenFor(other) });
    expect(theirs.body.data.map((x: any) => x.id).filter((id: string) => [c1, c2, c3].includes(id))).toEqual([]);
  });
});
