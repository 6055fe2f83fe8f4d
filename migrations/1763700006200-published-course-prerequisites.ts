import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/** Prerequisites of a published course: other published courses, and student groups (OpenAPI-only sub-resources). */
export class PublishedCoursePrerequisites1763700006200 implements MigrationInterface {
  name = 'PublishedCoursePrerequisites1763700006200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE published_course_prerequisites (
        published_course_id uuid NOT NULL REFERENCES published_courses(id) ON DELETE CASCADE,
        prerequisite_id uuid NOT NULL REFERENCES published_courses(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        created_at ${TS},
        PRIMARY KEY (published_course_id, prerequisite_id),
        CHECK (published_course_id <> prerequisite_id)
      )`);
    await q.query(`CREATE INDEX published_course_prerequisites_list_idx ON published_course_prerequisites (published_course_id, created_at, prerequisite_id)`);
    await q.query(`CREATE INDEX published_course_prerequisites_prereq_idx ON published_course_prerequisites (prerequisite_id)`);
    await q.query(`
      CREATE TABLE published_course_group_prerequisites (
        published_course_id uuid NOT NULL REFERENCES published_courses(id) ON DELETE CASCADE,
        group_id uuid NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        created_at ${TS},
        PRIMARY KEY (published_course_id, group_id)
      )`);
    await q.query(`CREATE INDEX published_course_group_prerequisites_list_idx ON published_course_group_prerequisites (published_course_id, created_at, group_id)`);
    await q.query(`CREATE INDEX published_course_group_prerequisites_group_idx ON published_course_group_prerequisites (group_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS published_course_group_prerequisites`);
    await q.query(`DROP TABLE IF EXISTS published_course_prerequisites`);
  }
}
