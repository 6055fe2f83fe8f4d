import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `updated_since` on the lists of the enrollments module (docs/decisions/data-out.md): a list
 * filtered by last change is ordered by (updated_at, id) and served by an index that starts with
 * the organization and the list's parent, then (updated_at, id).
 * - /v1 enrollments of a published course: (organization_id, published_course_id, updated_at, id)
 *   (the organization-wide (organization_id, updated_at, id) of the data-out migration serves
 *   /v2/enrollments).
 */
const INDEXES: [string, string, string][] = [['enrollments_org_pc_updated_idx', 'enrollments', 'organization_id, published_course_id, updated_at, id']];

export class UpdatedSinceIndexes1763820000000 implements MigrationInterface {
  name = 'UpdatedSinceIndexes1763820000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [name, table, columns] of INDEXES) await q.query(`CREATE INDEX ${name} ON ${table} (${columns})`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name] of INDEXES) await q.query(`DROP INDEX IF EXISTS ${name}`);
  }
}
