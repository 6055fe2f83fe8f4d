import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * /v1 users (issue 10, docs/decisions/v1-users.md): the indexes its statements need beyond those
 * that exist already.
 * - users (organization_id, is_inactive, created_at, id): the `is_inactive` filter of the list,
 *   in the list's order (the other filters have theirs: lower(email), first_name, last_name);
 * - plan_enrollments / published_path_enrollments (organization_id, user_id, created_at, id): a
 *   user's enrollments in the order the user's sub-lists show them.
 */
export class V1UsersIndexes1763700016100 implements MigrationInterface {
  name = 'V1UsersIndexes1763700016100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX users_org_inactive_created_idx ON users (organization_id, is_inactive, created_at, id)`);
    await q.query(`CREATE INDEX plan_enrollments_org_user_created_idx ON plan_enrollments (organization_id, user_id, created_at, id)`);
    await q.query(`CREATE INDEX published_path_enrollments_org_user_created_idx ON published_path_enrollments (organization_id, user_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS published_path_enrollments_org_user_created_idx`);
    await q.query(`DROP INDEX IF EXISTS plan_enrollments_org_user_created_idx`);
    await q.query(`DROP INDEX IF EXISTS users_org_inactive_created_idx`);
  }
}
