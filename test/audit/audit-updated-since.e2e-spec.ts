import { startTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { v1SinceChecks, v2SinceChecks } from '../support/since-checks';

/**
 * `filter[updated_since]` on /v2/audit-events (docs/decisions/data-out.md, issue 32 point 1): an
 * audit event never changes, so its creation is its last change: the events made at or after the
 * time, in the list's order (created_at, id) across cursor pages, 422 naming the parameter on a bad
 * value, on audit_events_org_created_idx (EXPLAIN, no Seq Scan).
 */
jest.setTimeout(120_000);

describe('/v2/audit-events: filter[updated_since]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('the events made since, oldest first', async () => {
    const o = await t.newOrg();
    const token = await t.tokenFor(o);
    const { ok, between } = v1SinceChecks(t, { token });
    const v2 = v2SinceChecks(t, token);
    const write = async (name: string) => ok(await t.post('/v1/group-categories', { name }, { basic: o.api_key }), 201);
    await write('before');
    const all = await eventually(async () => {
      const ids = await v2.pages('/v2/audit-events/');
      expect(ids.length).toBeGreaterThan(0);
      return ids;
    });
    const mid = await between();
    await write('after 1');
    await write('after 2');
    const since = await eventually(async () => {
      const ids = await v2.pages(`/v2/audit-events/?filter[updated_since]=${mid}`);
      expect(ids).toHaveLength(2);
      return ids;
    });
    // the two new events, in the list's order, after every earlier one
    expect(await v2.pages('/v2/audit-events/')).toEqual([...all, ...since]);
    expect(await v2.pages('/v2/audit-events/?filter[updated_since]=2000-01-01T00:00:00Z')).toEqual([...all, ...since]);
    await v2.refusesBadTime('/v2/audit-events/');
    await v2.servedBy('/v2/audit-events/', /FROM audit_events WHERE .*created_at >= /s, 'audit_events_org_created_idx');
  });
});
