import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `awaiting_enqueue`: a delivery the relay (or a retry request) committed but whose BullMQ job is
 * not known to be queued yet. Cleared once the job is added; the relay's quick sweep queues the
 * rows still marked a few seconds later (a worker killed between the commit and the enqueue).
 * Existing rows get false at once (a constant default rewrites nothing); the partial index only
 * holds the few marked rows.
 */
export class WebhookDeliveryAwaitingEnqueue1763700014210 implements MigrationInterface {
  name = 'WebhookDeliveryAwaitingEnqueue1763700014210';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN awaiting_enqueue boolean NOT NULL DEFAULT false`);
    await q.query(`CREATE INDEX webhook_deliveries_awaiting_enqueue_idx ON webhook_deliveries (updated_at) WHERE awaiting_enqueue`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS webhook_deliveries_awaiting_enqueue_idx`);
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS awaiting_enqueue`);
  }
}
