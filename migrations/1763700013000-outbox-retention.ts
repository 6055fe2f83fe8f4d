import { MigrationInterface, QueryRunner } from 'typeorm';

/** Index for the retention clean-up of relayed outbox events (their deliveries and attempts go with them). */
export class OutboxRetention1763700013000 implements MigrationInterface {
  name = 'OutboxRetention1763700013000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX outbox_events_relayed_idx ON outbox_events (relayed_at) WHERE relayed_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS outbox_events_relayed_idx`);
  }
}
