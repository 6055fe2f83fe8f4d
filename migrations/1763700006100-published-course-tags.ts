import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/** Tags on published courses (the content module's `tags`): the OpenAPI-only sub-resource of a published course. */
export class PublishedCourseTags1763700006100 implements MigrationInterface {
  name = 'PublishedCourseTags1763700006100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE published_course_tags (
        published_course_id uuid NOT NULL REFERENCES published_courses(id) ON DELETE CASCADE,
        tag_id uuid NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        created_at ${TS},
        PRIMARY KEY (published_course_id, tag_id)
      )`);
    await q.query(`CREATE INDEX published_course_tags_list_idx ON published_course_tags (published_course_id, created_at, tag_id)`);
    await q.query(`CREATE INDEX published_course_tags_tag_idx ON published_course_tags (tag_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS published_course_tags`);
  }
}
