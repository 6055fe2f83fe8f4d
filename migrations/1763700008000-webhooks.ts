import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * Webhooks, their deliveries (one per outbox event and distinct target URL) and every attempt of a
 * delivery. The delivery row is the state of at-least-once delivery; BullMQ jobs only wake it up.
 * Secrets (the whsec_ signing secret, the basic-auth password) are stored encrypted, since they
 * must be used. See docs/decisions/webhooks.md.
 */
export class Webhooks1763700008000 implements MigrationInterface {
  name = 'Webhooks1763700008000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhooks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        target_url text NOT NULL,
        event_type text,
        active boolean NOT NULL DEFAULT true,
        deactivate_reason text CHECK (deactivate_reason IN ('HTTP_4XX_RESPONSE', 'RETRY_COUNT', 'TOO_MANY_REDIRECTS', 'ORG_DISABLED')),
        basic_auth_username text NOT NULL DEFAULT '',
        basic_auth_password text,
        additional_headers jsonb NOT NULL DEFAULT '{}'::jsonb,
        secret text NOT NULL,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX webhooks_org_created_idx ON webhooks (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX webhooks_org_active_type_idx ON webhooks (organization_id, event_type) WHERE active`);

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id uuid NOT NULL REFERENCES outbox_events(id) ON DELETE CASCADE,
        target_url text NOT NULL,
        attempt_count integer NOT NULL DEFAULT 0,
        retry_base integer NOT NULL DEFAULT 0,
        status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED', 'DEAD')),
        next_attempt_at timestamptz DEFAULT now(),
        last_status integer,
        last_error text,
        created_at ${TS},
        updated_at ${TS},
        UNIQUE (event_id, target_url)
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_webhook_created_idx ON webhook_deliveries (webhook_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status IN ('PENDING', 'FAILED')`);

    await q.query(`
      CREATE TABLE webhook_attempts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempt_no integer NOT NULL,
        started_at timestamptz NOT NULL,
        http_status integer,
        latency_ms integer NOT NULL,
        error text,
        response_excerpt text
      )`);
    await q.query(`CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempt_no)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['webhook_attempts', 'webhook_deliveries', 'webhooks']) await q.query(`DROP TABLE IF EXISTS ${t}`);
  }
}
