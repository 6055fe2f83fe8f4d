import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `updated_since` on /v1/lessons (docs/decisions/data-out.md): the live lessons ordered by last
 * change (updated_at, id), the same rows as lessons_org_created_idx. The older
 * lessons_org_updated_idx (organization_id, updated_at) has neither the id nor the live predicate.
 */
export class LessonsUpdatedSince1763890002000 implements MigrationInterface {
  name = 'LessonsUpdatedSince1763890002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS lessons_org_live_updated_idx ON lessons (organization_id, updated_at, id) WHERE deleted_at IS NULL AND NOT is_draft`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS lessons_org_live_updated_idx`);
  }
}
