import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { CleanupService } from '../../src/modules/maintenance/cleanup.service';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

/** The maintenance clean-up also prunes old relayed outbox events whose deliveries are finished. */
describe('outbox retention', () => {
  let t: TestApp;
  let org: CreatedOrg;
  beforeAll(async () => {
    t = await startTestApp({ OUTBOX_RETENTION_DAYS: 7 });
    org = await t.newOrg();
  });
  afterAll(() => t.close());

  async function event(relayedDaysAgo: number | null): Promise<string> {
    const [row] = await t.ds.query(
      `INSERT INTO outbox_events (organization_id, event_type, payload, relayed_at)
       VALUES ($1, 'COURSE_ENROLLMENT', '{}'::jsonb, CASE WHEN $2::int IS NULL THEN NULL ELSE now() - make_interval(days => $2::int) END) RETURNING id`,
      [orgUuid(org), relayedDaysAgo],
    );
    return row.id;
  }
  async function delivery(eventId: string, status: string, webhookId: string, url: string): Promise<string> {
    const [row] = await t.ds.query(`INSERT INTO webhook_deliveries (organization_id, webhook_id, event_id, target_url, status) VALUES ($1, $2, $3, $4, $5) RETURNING id`, [
      orgUuid(org),
      webhookId,
      eventId,
      url,
      status,
    ]);
    await t.ds.query(`INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, latency_ms) VALUES ($1, 1, now(), 5)`, [row.id]);
    return row.id;
  }

  it('deletes events relayed before the retention window once every delivery is finished, with their deliveries and attempts', async () => {
    const [hook] = await t.ds.query(`INSERT INTO webhooks (organization_id, target_url, secret) VALUES ($1, 'https://a.test/h', 'x') RETURNING id`, [orgUuid(org)]);
    const oldDone = await event(10);
    const oldDead = await event(10);
    const oldRetrying = await event(10);
    await event(10); // relayed, no webhook subscribed: nothing to wait for
    const recent = await event(2);
    const pending = await event(null);
    const doneDelivery = await delivery(oldDone, 'SUCCEEDED', hook.id, 'https://a.test/h');
    await delivery(oldDead, 'DEAD', hook.id, 'https://a.test/h');
    await delivery(oldRetrying, 'FAILED', hook.id, 'https://a.test/h');
    await delivery(recent, 'SUCCEEDED', hook.id, 'https://a.test/h');

    const result = await new CleanupService(t.ds, t.config).run({ batchSize: 2 });
    expect(result.outboxEvents).toBe(3);
    const left = (await t.ds.query(`SELECT id FROM outbox_events WHERE organization_id = $1`, [orgUuid(org)])).map((r: any) => r.id).sort();
    expect(left).toEqual([oldRetrying, recent, pending].sort());
    expect(await t.ds.query(`SELECT 1 FROM webhook_deliveries WHERE id = $1`, [doneDelivery])).toEqual([]);
    expect(await t.ds.query(`SELECT 1 FROM webhook_attempts WHERE delivery_id = $1`, [doneDelivery])).toEqual([]);
  });
});
