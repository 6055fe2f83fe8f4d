import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency-Key records (CONVENTIONS §14), per organization. One row per (organization, lookup)
 * where `lookup` is the SHA-256 of caller, method, path and key: the claim, the replay and the
 * store are each one probe of the primary key. `status` NULL means the first request is in flight.
 */
export class IdempotencyKeys1763700014500 implements MigrationInterface {
  name = 'IdempotencyKeys1763700014500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        lookup bytea NOT NULL,
        claim_id uuid NOT NULL,
        fingerprint bytea NOT NULL,
        status smallint,
        headers jsonb,
        body bytea,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, lookup)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS idempotency_keys`);
  }
}
