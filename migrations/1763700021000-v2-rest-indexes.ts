import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The /v2 lists of issue 14 (docs/decisions/v2-rest.md), each keyset page (created_at, id) served
 * by an index that starts with its filter:
 * - published courses by domain or by course (live and unpublished rows alike, so the partial
 *   /v1 indexes on live rows do not serve them);
 * - signup-field values of the organization, of one student, of one signup field.
 */
export class V2RestIndexes1763700021000 implements MigrationInterface {
  name = 'V2RestIndexes1763700021000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX published_courses_org_domain_created_idx ON published_courses (organization_id, domain_id, created_at, id)`);
    await q.query(`CREATE INDEX published_courses_org_course_created_idx ON published_courses (organization_id, course_id, created_at, id)`);
    await q.query(`CREATE INDEX signup_field_values_org_created_idx ON signup_field_values (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX signup_field_values_org_user_created_idx ON signup_field_values (organization_id, user_id, created_at, id)`);
    await q.query(`CREATE INDEX signup_field_values_org_field_created_idx ON signup_field_values (organization_id, signup_field_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const i of [
      'signup_field_values_org_field_created_idx',
      'signup_field_values_org_user_created_idx',
      'signup_field_values_org_created_idx',
      'published_courses_org_course_created_idx',
      'published_courses_org_domain_created_idx',
    ]) {
      await q.query(`DROP INDEX IF EXISTS ${i}`);
    }
  }
}
