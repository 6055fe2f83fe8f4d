import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * Catalog pages of a domain (issue 29 point 1, CONVENTIONS §17; modules/catalog-pages): the pages,
 * their tags and their student-group visibility overrides. Composite keys with organization_id;
 * deleting a page deletes what hangs under it (ON DELETE CASCADE).
 */
export class CatalogPages1763740004000 implements MigrationInterface {
  name = 'CatalogPages1763740004000';

  async up(q: QueryRunner): Promise<void> {
    for (const parent of ['domains', 'tags', 'groups']) {
      await q.query(`DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = '${parent}_organization_id_id_key') THEN
          ALTER TABLE ${parent} ADD CONSTRAINT ${parent}_organization_id_id_key UNIQUE (organization_id, id);
        END IF; END $$`);
    }
    await q.query(`
      CREATE TABLE catalog_pages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        domain_id uuid NOT NULL,
        page_title text NOT NULL,
        slug text NOT NULL,
        short_description text NOT NULL DEFAULT '',
        tile_callout text NOT NULL DEFAULT '',
        hidden boolean NOT NULL DEFAULT false,
        strict_enforce_group_visibility boolean NOT NULL DEFAULT false,
        is_classic boolean NOT NULL DEFAULT true,
        header_html text NOT NULL DEFAULT '',
        tile_sort_method text NOT NULL DEFAULT 'catalog_settings_order',
        search_location text NOT NULL DEFAULT 'HEADER_RIGHT',
        search_behavior text NOT NULL DEFAULT 'GLOBAL',
        item_layout text NOT NULL DEFAULT 'TILE',
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT catalog_pages_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT catalog_pages_domain_slug_key UNIQUE (domain_id, slug),
        CONSTRAINT catalog_pages_domain_id_fkey FOREIGN KEY (organization_id, domain_id) REFERENCES domains (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX catalog_pages_domain_created_idx ON catalog_pages (organization_id, domain_id, created_at, id)`);
    await q.query(`
      CREATE TABLE catalog_page_tags (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        catalog_page_id uuid NOT NULL,
        tag_id uuid NOT NULL,
        created_at ${TS},
        PRIMARY KEY (catalog_page_id, tag_id),
        CONSTRAINT catalog_page_tags_catalog_page_id_fkey FOREIGN KEY (organization_id, catalog_page_id) REFERENCES catalog_pages (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT catalog_page_tags_tag_id_fkey FOREIGN KEY (organization_id, tag_id) REFERENCES tags (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX catalog_page_tags_page_created_idx ON catalog_page_tags (catalog_page_id, created_at, tag_id)`);
    await q.query(`CREATE INDEX catalog_page_tags_tag_idx ON catalog_page_tags (organization_id, tag_id)`);
    await q.query(`
      CREATE TABLE catalog_page_visibility_overrides (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        catalog_page_id uuid NOT NULL,
        group_id uuid NOT NULL,
        is_visible boolean NOT NULL,
        created_at ${TS},
        updated_at ${TS},
        PRIMARY KEY (catalog_page_id, group_id),
        CONSTRAINT catalog_page_visibility_overrides_catalog_page_id_fkey FOREIGN KEY (organization_id, catalog_page_id) REFERENCES catalog_pages (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT catalog_page_visibility_overrides_group_id_fkey FOREIGN KEY (organization_id, group_id) REFERENCES groups (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX catalog_page_visibility_overrides_page_created_idx ON catalog_page_visibility_overrides (catalog_page_id, created_at, group_id)`);
    await q.query(`CREATE INDEX catalog_page_visibility_overrides_group_idx ON catalog_page_visibility_overrides (organization_id, group_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['catalog_page_visibility_overrides', 'catalog_page_tags', 'catalog_pages']) await q.query(`DROP TABLE IF EXISTS ${t}`);
  }
}
