import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * /v2 enrollments and group memberships (issue 10 item 5; docs/decisions/v2-enrollments.md).
 *
 * - enrollments.due_at: the published EnrollmentAttributes' due date (null = none).
 * - indexes for GET /v2/enrollments/: the organization's keyset (created_at, id) narrowed by a
 *   student, a course or a published course (filter[domains]), the enrolled/completed date ranges,
 *   and the certificate linked to an enrollment (has_certificate, the certificate relationship).
 * - group_memberships.id: the membership's own id (MembershipResource.id, public prefix `gmem`).
 */
export class V2Enrollments1763700016200 implements MigrationInterface {
  name = 'V2Enrollments1763700016200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE enrollments ADD COLUMN due_at timestamptz`);
    await q.query(`CREATE INDEX enrollments_org_user_created_idx ON enrollments (organization_id, user_id, created_at, id)`);
    await q.query(`CREATE INDEX enrollments_org_course_created_idx ON enrollments (organization_id, course_id, created_at, id)`);
    await q.query(`CREATE INDEX enrollments_org_pc_created_idx ON enrollments (organization_id, published_course_id, created_at, id)`);
    await q.query(`CREATE INDEX enrollments_org_enrolled_idx ON enrollments (organization_id, enrolled_at)`);
    await q.query(`CREATE INDEX enrollments_org_completed_idx ON enrollments (organization_id, completed_at) WHERE completed_at IS NOT NULL`);
    await q.query(`CREATE INDEX certificates_org_enrollment_idx ON certificates (organization_id, enrollment_id, issued_at) WHERE enrollment_id IS NOT NULL`);
    await q.query(`ALTER TABLE group_memberships ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid()`);
    await q.query(`CREATE UNIQUE INDEX group_memberships_id_uq ON group_memberships (id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS group_memberships_id_uq`);
    await q.query(`ALTER TABLE group_memberships DROP COLUMN id`);
    await q.query(`DROP INDEX IF EXISTS certificates_org_enrollment_idx`);
    await q.query(`DROP INDEX IF EXISTS enrollments_org_completed_idx`);
    await q.query(`DROP INDEX IF EXISTS enrollments_org_enrolled_idx`);
    await q.query(`DROP INDEX IF EXISTS enrollments_org_pc_created_idx`);
    await q.query(`DROP INDEX IF EXISTS enrollments_org_course_created_idx`);
    await q.query(`DROP INDEX IF EXISTS enrollments_org_user_created_idx`);
    await q.query(`ALTER TABLE enrollments DROP COLUMN due_at`);
  }
}
