import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * /v1 groups: group names become unique within an organization (case-sensitive, as both published
 * documents say), access code pools assigned to groups, and the list indexes of group users and of
 * a user's groups. See docs/decisions/v1-groups.md.
 */
export class V1Groups1763700011000 implements MigrationInterface {
  name = 'V1Groups1763700011000';

  async up(q: QueryRunner): Promise<void> {
    // Names created before the constraint may repeat: every later duplicate (by created_at, id)
    // gets the first 8 characters of its uuid appended, so the index can be built.
    await q.query(`
      UPDATE groups g SET name = g.name || ' (' || left(g.id::text, 8) || ')'
      FROM (SELECT id, row_number() OVER (PARTITION BY organization_id, name ORDER BY created_at, id) AS rn FROM groups) d
      WHERE d.id = g.id AND d.rn > 1`);
    await q.query(`CREATE UNIQUE INDEX groups_org_name_uq ON groups (organization_id, name)`);

    await q.query(`
      CREATE TABLE group_access_code_pools (
        group_id uuid NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
        access_code_pool_id uuid NOT NULL REFERENCES access_code_pools(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        created_at ${TS},
        PRIMARY KEY (group_id, access_code_pool_id)
      )`);
    await q.query(`CREATE INDEX group_access_code_pools_group_created_idx ON group_access_code_pools (group_id, created_at, access_code_pool_id)`);
    await q.query(`CREATE INDEX group_access_code_pools_pool_idx ON group_access_code_pools (access_code_pool_id)`);

    await q.query(`CREATE INDEX group_memberships_group_created_idx ON group_memberships (group_id, created_at, user_id)`);
    await q.query(`CREATE INDEX group_memberships_user_created_idx ON group_memberships (user_id, created_at, group_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS group_memberships_user_created_idx`);
    await q.query(`DROP INDEX IF EXISTS group_memberships_group_created_idx`);
    await q.query(`DROP TABLE IF EXISTS group_access_code_pools`);
    await q.query(`DROP INDEX IF EXISTS groups_org_name_uq`);
  }
}
