import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * /v2 courses `filter[updated_since]` (docs/decisions/data-out.md): the list of live courses
 * changed at or after a time is ordered by last change (updated_at, id), on this partial index
 * (the same rows as courses_org_created_idx: not soft-deleted, not drafts).
 */
export class CoursesUpdatedSince1763840000000 implements MigrationInterface {
  name = 'CoursesUpdatedSince1763840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX courses_org_updated_idx ON courses (organization_id, updated_at, id) WHERE deleted_at IS NULL AND NOT is_draft`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX courses_org_updated_idx`);
  }
}
