import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The purchase behind a course enrollment (issue 11; docs/decisions/commerce.md, "Enrollments made
 * without checkout"): a purchase names the course enrollments it created in `grants.enrollments`;
 * the /v1 Enrollment's `purchase` block finds it by containment, for a page of enrollments in one
 * query, through this index.
 */
export class PurchasesGrantLookup1763700017200 implements MigrationInterface {
  name = 'PurchasesGrantLookup1763700017200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX purchases_grants_enrollments_idx ON purchases USING gin ((grants -> 'enrollments') jsonb_path_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS purchases_grants_enrollments_idx`);
  }
}
