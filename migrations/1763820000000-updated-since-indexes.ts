import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `updated_since` on the lists of the enrollments and quizzes modules (docs/decisions/data-out.md):
 * a list filtered by last change is ordered by (updated_at, id) and served by an index that starts
 * with the organization (and the list's parent where it has one), then (updated_at, id).
 * - /v1 enrollments of a published course: (organization_id, published_course_id, updated_at, id)
 *   (the organization-wide (organization_id, updated_at, id) of the data-out migration serves
 *   /v2/enrollments);
 * - /v2 quizzes and question banks with filter[updated_since], ordered by last change with the
 *   cursor at (updated_at, id): (organization_id, updated_at, id) over the live rows, which replaces
 *   the (organization_id, updated_at) indexes the keyset could not use.
 */
const INDEXES = [
  `CREATE INDEX enrollments_org_pc_updated_idx ON enrollments (organization_id, published_course_id, updated_at, id)`,
  `CREATE INDEX quizzes_org_updated_id_idx ON quizzes (organization_id, updated_at, id) WHERE deleted_at IS NULL`,
  `CREATE INDEX question_banks_org_updated_id_idx ON question_banks (organization_id, updated_at, id) WHERE deleted_at IS NULL`,
];

export class UpdatedSinceIndexes1763820000000 implements MigrationInterface {
  name = 'UpdatedSinceIndexes1763820000000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of INDEXES) await q.query(sql);
    await q.query(`DROP INDEX IF EXISTS quizzes_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS question_banks_updated_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of ['enrollments_org_pc_updated_idx', 'quizzes_org_updated_id_idx', 'question_banks_org_updated_id_idx']) await q.query(`DROP INDEX IF EXISTS ${name}`);
    await q.query(`CREATE INDEX quizzes_updated_idx ON quizzes (organization_id, updated_at) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX question_banks_updated_idx ON question_banks (organization_id, updated_at) WHERE deleted_at IS NULL`);
  }
}
