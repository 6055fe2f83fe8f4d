import { MigrationInterface, QueryRunner } from 'typeorm';

/** `filter[updated_since]` on /v2/published-courses (docs/decisions/data-out.md): the organization's published courses by last change. */
export class PublishedCoursesUpdatedSince1763890003000 implements MigrationInterface {
  name = 'PublishedCoursesUpdatedSince1763890003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS published_courses_org_updated_idx ON published_courses (organization_id, updated_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS published_courses_org_updated_idx`);
  }
}
