import { decodeId } from '../../src/core/ids/ids';
import { failExport, startExport } from '../../src/modules/data-out/exports.store';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { v1SinceChecks, v2SinceChecks } from '../support/since-checks';

/**
 * `filter[updated_since]` on /v2/exports (docs/decisions/data-out.md, issue 32 point 1): the exports
 * changed at or after the time (the worker's state changes move updated_at), by last change across
 * cursor pages, 422 naming the parameter on a bad value, on data_exports_org_updated_idx (EXPLAIN,
 * no Seq Scan). No worker runs here: the state changes are the worker's own writes (exports.store).
 */
jest.setTimeout(120_000);

describe('/v2/exports: filter[updated_since]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('changed since, by last change', async () => {
    const o = await t.newOrg();
    const token = await t.tokenFor(o);
    const { ok, between, pause } = v1SinceChecks(t, { token });
    const v2 = v2SinceChecks(t, token);
    const exp = async () => ok(await t.post('/v2/exports/', { resource: 'users', format: 'csv' }, { token }), 202).data.id as string;
    const [e1, e2, e3] = [await exp(), await exp(), await exp()];
    const mid = await between();
    await failExport(t.ds, orgUuid(o), decodeId('dataExport', e3)!, 'a failure');
    await pause(5);
    expect(await startExport(t.ds, orgUuid(o), decodeId('dataExport', e1)!)).not.toBeNull();

    expect(await v2.pages(`/v2/exports/?filter[updated_since]=${mid}`)).toEqual([e3, e1]);
    expect(await v2.pages('/v2/exports/?filter[updated_since]=2000-01-01T00:00:00Z')).toEqual([e2, e3, e1]);
    expect(await v2.pages('/v2/exports/')).toEqual([e1, e2, e3]);
    await v2.refusesBadTime('/v2/exports/');
    await v2.servedBy('/v2/exports/', /FROM data_exports WHERE .*ORDER BY updated_at/s, 'data_exports_org_updated_idx');
  });
});
