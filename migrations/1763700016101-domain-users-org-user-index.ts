import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * /v1 users (docs/decisions/v1-users.md): "registered on at least one domain of the organization"
 * is a semi-join of users on domain_users by organization and user. Counting a whole organization
 * needs the organization's memberships, which domain_users_user_idx (user_id) cannot give without
 * scanning every organization's rows: (organization_id, user_id) gives them index-only, and
 * serves the per-user check of a page as well.
 */
export class DomainUsersOrgUserIndex1763700016101 implements MigrationInterface {
  name = 'DomainUsersOrgUserIndex1763700016101';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX domain_users_org_user_idx ON domain_users (organization_id, user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS domain_users_org_user_idx`);
  }
}
