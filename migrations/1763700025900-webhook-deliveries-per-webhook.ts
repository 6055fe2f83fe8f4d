import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One delivery per event and WEBHOOK (issue 25 item 9), no longer per event and target_url: two
 * webhooks of an organization on the same URL are two subscriptions, each POSTed to with its own
 * secret, auth and headers, and each listing its own deliveries (docs/decisions/webhooks.md). The
 * relay's `ON CONFLICT (event_id, webhook_id) DO NOTHING` keeps it idempotent. Existing rows are
 * unique per (event_id, webhook_id) already (they were unique per event and URL, and a webhook has
 * one URL when its event is relayed).
 */
export class WebhookDeliveriesPerWebhook1763700025900 implements MigrationInterface {
  name = 'WebhookDeliveriesPerWebhook1763700025900';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_id_webhook_id_key UNIQUE (event_id, webhook_id)`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_id_target_url_key`);
  }

  async down(q: QueryRunner): Promise<void> {
    // going back keeps the oldest delivery of each event and URL (the others' webhooks lose theirs)
    await q.query(`DELETE FROM webhook_deliveries d USING webhook_deliveries o
                    WHERE o.event_id = d.event_id AND o.target_url = d.target_url AND (o.created_at, o.id) < (d.created_at, d.id)`);
    await q.query(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_id_target_url_key UNIQUE (event_id, target_url)`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_event_id_webhook_id_key`);
  }
}
