import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * Tags on published paths (the content module's `tags`) and student-group visibility overrides of
 * published paths (the groups module's `groups`): the OpenAPI-only sub-resources of a published path.
 */
export class PathTagsVisibility1763700007002 implements MigrationInterface {
  name = 'PathTagsVisibility1763700007002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE path_tags (
        published_path_id uuid NOT NULL REFERENCES published_paths(id) ON DELETE CASCADE,
        tag_id uuid NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        created_at ${TS},
        PRIMARY KEY (published_path_id, tag_id)
      )`);
    await q.query(`CREATE INDEX path_tags_list_idx ON path_tags (published_path_id, created_at, tag_id)`);
    await q.query(`CREATE INDEX path_tags_tag_idx ON path_tags (tag_id)`);

    await q.query(`
      CREATE TABLE path_visibility_overrides (
        published_path_id uuid NOT NULL REFERENCES published_paths(id) ON DELETE CASCADE,
        group_id uuid NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        is_visible boolean NOT NULL,
        created_at ${TS},
        updated_at ${TS},
        PRIMARY KEY (published_path_id, group_id)
      )`);
    await q.query(`CREATE INDEX path_visibility_overrides_list_idx ON path_visibility_overrides (published_path_id, created_at, group_id)`);
    await q.query(`CREATE INDEX path_visibility_overrides_group_idx ON path_visibility_overrides (group_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS path_visibility_overrides`);
    await q.query(`DROP TABLE IF EXISTS path_tags`);
  }
}
