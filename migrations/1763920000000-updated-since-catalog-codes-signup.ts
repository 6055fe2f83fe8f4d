import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `updated_since` on the lists of catalog pages, course series, access codes, labels and tags, signup
 * fields and their values, and domain-user invites (docs/decisions/data-out.md): the indexes the lists
 * ordered by last change read, each starting as the list's creation-order index does; invites get an
 * `updated_at` (backfilled with the latest of creation, mailing and use) kept by data_out_touch, the
 * BEFORE UPDATE trigger of users and certificates, so the mailer's `sent_at` and an acceptance move it;
 * access codes get the same trigger (a redemption bumps `use_count`).
 */
export class UpdatedSinceCatalogCodesSignup1763920000000 implements MigrationInterface {
  name = 'UpdatedSinceCatalogCodesSignup1763920000000';

  async up(q: QueryRunner): Promise<void> {
    // catalog pages of a domain, the items of a classic page or of a tile container, a page's blocks, its overrides
    await q.query(`CREATE INDEX IF NOT EXISTS catalog_pages_domain_updated_idx ON catalog_pages (organization_id, domain_id, updated_at, id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS catalog_page_items_page_updated_idx ON catalog_page_items (organization_id, catalog_page_id, updated_at, id) WHERE block_id IS NULL`);
    await q.query(`CREATE INDEX IF NOT EXISTS catalog_page_items_block_updated_idx ON catalog_page_items (organization_id, block_id, updated_at, id) WHERE block_id IS NOT NULL`);
    await q.query(`CREATE INDEX IF NOT EXISTS catalog_page_blocks_page_updated_idx ON catalog_page_blocks (organization_id, catalog_page_id, updated_at, id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS catalog_page_visibility_overrides_page_updated_idx ON catalog_page_visibility_overrides (catalog_page_id, updated_at, group_id)`);
    // a series' published courses: the item rows are rewritten on every change of the series' courses (created_at)
    await q.query(`CREATE INDEX IF NOT EXISTS course_series_items_series_created_idx ON course_series_items (course_series_id, created_at, id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS access_code_pools_domain_updated_idx ON access_code_pools (domain_id, updated_at, id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS access_codes_pool_updated_idx ON access_codes (pool_id, updated_at, id)`);
    // a redemption (whoever writes it) bumps use_count without naming updated_at: the trigger moves it
    await q.query(`CREATE TRIGGER access_codes_data_out_touch BEFORE UPDATE ON access_codes FOR EACH ROW EXECUTE FUNCTION data_out_touch()`);
    await q.query(`CREATE INDEX IF NOT EXISTS labels_org_updated_idx ON labels (organization_id, updated_at, id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS tags_org_updated_idx ON tags (organization_id, updated_at, id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS signup_fields_org_updated_idx ON signup_fields (organization_id, updated_at, id)`);
    // the values: the organization's, one student's, one field's (as the three creation-order indexes)
    await q.query(`CREATE INDEX IF NOT EXISTS signup_field_values_org_updated_idx ON signup_field_values (organization_id, updated_at, id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS signup_field_values_org_user_updated_idx ON signup_field_values (organization_id, user_id, updated_at, id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS signup_field_values_org_field_updated_idx ON signup_field_values (organization_id, signup_field_id, updated_at, id)`);

    await q.query(`ALTER TABLE domain_user_invites ADD COLUMN IF NOT EXISTS updated_at timestamptz`);
    await q.query(`UPDATE domain_user_invites SET updated_at = date_trunc('milliseconds', greatest(created_at, sent_at, used_at)) WHERE updated_at IS NULL`);
    await q.query(`ALTER TABLE domain_user_invites ALTER COLUMN updated_at SET DEFAULT date_trunc('milliseconds', now()), ALTER COLUMN updated_at SET NOT NULL`);
    await q.query(`CREATE TRIGGER domain_user_invites_data_out_touch BEFORE UPDATE ON domain_user_invites FOR EACH ROW EXECUTE FUNCTION data_out_touch()`);
    await q.query(`CREATE INDEX IF NOT EXISTS domain_user_invites_user_updated_idx ON domain_user_invites (domain_id, user_id, updated_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS domain_user_invites_user_updated_idx`);
    await q.query(`DROP TRIGGER IF EXISTS domain_user_invites_data_out_touch ON domain_user_invites`);
    await q.query(`ALTER TABLE domain_user_invites DROP COLUMN IF EXISTS updated_at`);
    await q.query(`DROP TRIGGER IF EXISTS access_codes_data_out_touch ON access_codes`);
    for (const i of [
      'signup_field_values_org_field_updated_idx',
      'signup_field_values_org_user_updated_idx',
      'signup_field_values_org_updated_idx',
      'signup_fields_org_updated_idx',
      'tags_org_updated_idx',
      'labels_org_updated_idx',
      'access_codes_pool_updated_idx',
      'access_code_pools_domain_updated_idx',
      'course_series_items_series_created_idx',
      'catalog_page_visibility_overrides_page_updated_idx',
      'catalog_page_blocks_page_updated_idx',
      'catalog_page_items_block_updated_idx',
      'catalog_page_items_page_updated_idx',
      'catalog_pages_domain_updated_idx',
    ]) {
      await q.query(`DROP INDEX IF EXISTS ${i}`);
    }
  }
}
