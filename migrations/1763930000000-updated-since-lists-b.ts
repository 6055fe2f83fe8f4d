import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tables of a /v2 list by last change whose writes set `updated_at` with microseconds (TypeORM's CURRENT_TIMESTAMP): a /v2 cursor holds milliseconds, so `updated_at_ms()` (migration 1763890000000) keeps them at the millisecond. */
const MS_TABLES = ['assets', 'web_packages', 'oauth_clients', 'data_exports'];

/**
 * `updated_since` on the lists of paths, published-course sub-lists, content files, admins, OAuth
 * clients, audit, exports and ratings (docs/decisions/data-out.md, issue 32 point 1): the indexes
 * their lists ordered by last change read. A list of one parent's rows starts with the parent.
 */
const INDEXES: [name: string, definition: string][] = [
  // /v1/paths (live paths), a path's items, a domain's live published paths, a published path's group visibility overrides
  ['paths_org_updated_idx', 'paths (organization_id, updated_at, id) WHERE deleted_at IS NULL'],
  ['path_items_path_updated_idx', 'path_items (path_id, updated_at, id)'],
  ['published_paths_domain_updated_idx', 'published_paths (domain_id, updated_at, id) WHERE unpublished_at IS NULL'],
  ['path_visibility_overrides_pp_updated_idx', 'path_visibility_overrides (published_path_id, updated_at, group_id)'],
  // a published course's group visibility overrides (its tags and prerequisites are links: their (published_course_id, created_at, <linked>) list indexes serve)
  ['visibility_overrides_pc_updated_idx', 'visibility_overrides (published_course_id, updated_at, id)'],
  // /v1 and /v2 assets and web packages
  ['assets_org_updated_idx', 'assets (organization_id, updated_at, id)'],
  ['web_packages_org_updated_idx', 'web_packages (organization_id, updated_at, id)'],
  // /v1/admins, /v1/admin-roles (the custom roles)
  ['admins_org_updated_idx', 'admins (organization_id, updated_at, id)'],
  ['admin_roles_org_updated_idx', 'admin_roles (organization_id, updated_at, id)'],
  // /v2/clients
  ['oauth_clients_org_updated_idx', 'oauth_clients (organization_id, updated_at, id)'],
  // /v2/exports (a state change, rows done)
  ['data_exports_org_updated_idx', 'data_exports (organization_id, updated_at, id)'],
];

export class UpdatedSinceListsB1763930000000 implements MigrationInterface {
  name = 'UpdatedSinceListsB1763930000000';

  async up(q: QueryRunner): Promise<void> {
    for (const t of MS_TABLES) {
      await q.query(`CREATE TRIGGER ${t}_updated_at_ms BEFORE INSERT OR UPDATE ON ${t} FOR EACH ROW EXECUTE FUNCTION updated_at_ms()`);
      await q.query(`UPDATE ${t} SET updated_at = updated_at WHERE updated_at <> date_trunc('milliseconds', updated_at)`);
    }
    for (const [name, definition] of INDEXES) await q.query(`CREATE INDEX IF NOT EXISTS ${name} ON ${definition}`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name] of [...INDEXES].reverse()) await q.query(`DROP INDEX IF EXISTS ${name}`);
    for (const t of MS_TABLES) await q.query(`DROP TRIGGER IF EXISTS ${t}_updated_at_ms ON ${t}`);
  }
}
