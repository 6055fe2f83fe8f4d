import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `updated_since` on the /v1 domain catalog, /v2 domains and /v1 webhooks with their deliveries
 * (docs/decisions/data-out.md): the indexes the lists ordered by last change `(updated_at, id)` read,
 * each starting as the list's creation-order index does.
 */
export class UpdatedSinceCatalogWebhooks1763890000000 implements MigrationInterface {
  name = 'UpdatedSinceCatalogWebhooks1763890000000';

  async up(q: QueryRunner): Promise<void> {
    // a domain's live published courses (as published_courses_domain_created_idx)
    await q.query(`CREATE INDEX IF NOT EXISTS published_courses_domain_updated_idx ON published_courses (domain_id, updated_at, id) WHERE unpublished_at IS NULL`);
    await q.query(`CREATE INDEX IF NOT EXISTS domains_org_updated_idx ON domains (organization_id, updated_at, id)`);
    // /v2/domains pages by a cursor at (updated_at, id) with millisecond times: an update through the
    // ORM sets CURRENT_TIMESTAMP (microseconds), so the row keeps it truncated to the millisecond
    await q.query(`
      CREATE FUNCTION updated_at_ms() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.updated_at := date_trunc('milliseconds', NEW.updated_at);
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER domains_updated_at_ms BEFORE INSERT OR UPDATE ON domains FOR EACH ROW EXECUTE FUNCTION updated_at_ms()`);
    await q.query(`UPDATE domains SET updated_at = updated_at WHERE updated_at <> date_trunc('milliseconds', updated_at)`);
    await q.query(`CREATE INDEX IF NOT EXISTS webhooks_org_updated_idx ON webhooks (organization_id, updated_at, id)`);
    // one webhook's deliveries (as webhook_deliveries_webhook_created_idx)
    await q.query(`CREATE INDEX IF NOT EXISTS webhook_deliveries_webhook_updated_idx ON webhook_deliveries (webhook_id, updated_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS webhook_deliveries_webhook_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS webhooks_org_updated_idx`);
    await q.query(`DROP TRIGGER IF EXISTS domains_updated_at_ms ON domains`);
    await q.query(`DROP FUNCTION IF EXISTS updated_at_ms()`);
    await q.query(`DROP INDEX IF EXISTS domains_org_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS published_courses_domain_updated_idx`);
  }
}
