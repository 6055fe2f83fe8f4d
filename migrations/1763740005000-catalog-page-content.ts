import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * What a catalog page holds (issue 29 point 1; modules/catalog-pages): the content blocks of a builder
 * page (one row per block, its kind's members beside it: HTML, tile container, component) and the
 * items of a classic page or of a tile container block (one row each, naming one catalog page,
 * published course, published path or plan). `order` is dense (1..n) in its list. Composite keys
 * with organization_id; a page's blocks and items, and a block's items, go with it.
 */
export class CatalogPageContent1763740005000 implements MigrationInterface {
  name = 'CatalogPageContent1763740005000';

  async up(q: QueryRunner): Promise<void> {
    for (const parent of ['published_courses', 'published_paths', 'plans']) {
      await q.query(`DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = '${parent}_organization_id_id_key') THEN
          ALTER TABLE ${parent} ADD CONSTRAINT ${parent}_organization_id_id_key UNIQUE (organization_id, id);
        END IF; END $$`);
    }
    await q.query(`
      CREATE TABLE catalog_page_blocks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        catalog_page_id uuid NOT NULL,
        "order" integer NOT NULL CHECK ("order" >= 1),
        type text NOT NULL,
        html text NOT NULL DEFAULT '',
        component text,
        header_text text NOT NULL DEFAULT '',
        header_sub_text text NOT NULL DEFAULT '',
        include_profile_link boolean NOT NULL DEFAULT true,
        max_tiles integer NOT NULL DEFAULT 4 CHECK (max_tiles >= 1),
        alignment text,
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT catalog_page_blocks_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT catalog_page_blocks_catalog_page_id_fkey FOREIGN KEY (organization_id, catalog_page_id) REFERENCES catalog_pages (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX catalog_page_blocks_page_order_idx ON catalog_page_blocks (organization_id, catalog_page_id, "order", id)`);
    await q.query(`
      CREATE TABLE catalog_page_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        catalog_page_id uuid NOT NULL,
        block_id uuid,
        "order" integer NOT NULL CHECK ("order" >= 1),
        item_type text NOT NULL,
        item_catalog_page_id uuid,
        item_published_course_id uuid,
        item_published_path_id uuid,
        item_plan_id uuid,
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT catalog_page_items_one_target CHECK (num_nonnulls(item_catalog_page_id, item_published_course_id, item_published_path_id, item_plan_id) = 1),
        CONSTRAINT catalog_page_items_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT catalog_page_items_catalog_page_id_fkey FOREIGN KEY (organization_id, catalog_page_id) REFERENCES catalog_pages (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT catalog_page_items_block_id_fkey FOREIGN KEY (organization_id, block_id) REFERENCES catalog_page_blocks (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT catalog_page_items_item_catalog_page_id_fkey FOREIGN KEY (organization_id, item_catalog_page_id) REFERENCES catalog_pages (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT catalog_page_items_item_published_course_id_fkey FOREIGN KEY (organization_id, item_published_course_id) REFERENCES published_courses (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT catalog_page_items_item_published_path_id_fkey FOREIGN KEY (organization_id, item_published_path_id) REFERENCES published_paths (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT catalog_page_items_item_plan_id_fkey FOREIGN KEY (organization_id, item_plan_id) REFERENCES plans (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX catalog_page_items_page_order_idx ON catalog_page_items (organization_id, catalog_page_id, "order", id) WHERE block_id IS NULL`);
    await q.query(`CREATE INDEX catalog_page_items_block_order_idx ON catalog_page_items (organization_id, block_id, "order", id) WHERE block_id IS NOT NULL`);
    await q.query(`CREATE INDEX catalog_page_items_page_idx ON catalog_page_items (organization_id, catalog_page_id)`);
    await q.query(`CREATE INDEX catalog_page_items_item_page_idx ON catalog_page_items (organization_id, item_catalog_page_id) WHERE item_catalog_page_id IS NOT NULL`);
    await q.query(`CREATE INDEX catalog_page_items_item_course_idx ON catalog_page_items (organization_id, item_published_course_id) WHERE item_published_course_id IS NOT NULL`);
    await q.query(`CREATE INDEX catalog_page_items_item_path_idx ON catalog_page_items (organization_id, item_published_path_id) WHERE item_published_path_id IS NOT NULL`);
    await q.query(`CREATE INDEX catalog_page_items_item_plan_idx ON catalog_page_items (organization_id, item_plan_id) WHERE item_plan_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['catalog_page_items', 'catalog_page_blocks']) await q.query(`DROP TABLE IF EXISTS ${t}`);
  }
}
