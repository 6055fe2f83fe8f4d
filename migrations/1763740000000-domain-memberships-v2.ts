import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * /v2/students/{id}/relationships/domain-memberships/ (issue 29 point 5): a student's memberships,
 * keyset-paged by (created_at, id) within the organization and the student.
 */
export class DomainMembershipsV21763740000000 implements MigrationInterface {
  name = 'DomainMembershipsV21763740000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX domain_users_org_user_created_idx ON domain_users (organization_id, user_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS domain_users_org_user_created_idx`);
  }
}
