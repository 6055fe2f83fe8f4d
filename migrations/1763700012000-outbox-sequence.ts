import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbox events get a write-order sequence. created_at is truncated to milliseconds, so events
 * written in the same millisecond (by one multi-row INSERT, or by quick successive transactions)
 * tied and were relayed in random uuid order; the relay now takes pending events by `seq`.
 */
export class OutboxSequence1763700012000 implements MigrationInterface {
  name = 'OutboxSequence1763700012000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox_events ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY`);
    await q.query(`CREATE INDEX outbox_events_pending_seq_idx ON outbox_events (seq) WHERE relayed_at IS NULL`);
    await q.query(`DROP INDEX IF EXISTS outbox_events_pending_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX outbox_events_pending_idx ON outbox_events (created_at, id) WHERE relayed_at IS NULL`);
    await q.query(`DROP INDEX IF EXISTS outbox_events_pending_seq_idx`);
    await q.query(`ALTER TABLE outbox_events DROP COLUMN seq`);
  }
}
