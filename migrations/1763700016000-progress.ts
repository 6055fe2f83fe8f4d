import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Learners' progress (issue 10, CONVENTIONS.md §10; docs/decisions/progress.md).
 *
 * course_progress: one row per user and published course (the default), or per enrollment when
 * the published course has unique_progress_per_enrollment (enrollment_id set). Partial unique
 * indexes make the database refuse a second row for the same key under concurrency.
 * lesson_progress: one row per course progress and lesson; progress_token is the row's progress token
 * (/v1/progresstokens), an opaque id distinct from the lesson-progress id.
 * Every reference is composite with organization_id (the database refuses cross-organization links).
 * courses gain their certificate settings (CONVENTIONS §15): whether completion issues one, and
 * the validity in days (null = never expires).
 */
export class Progress1763700016000 implements MigrationInterface {
  name = 'Progress1763700016000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE courses ADD COLUMN issues_certificate boolean NOT NULL DEFAULT true`);
    await q.query(`ALTER TABLE courses ADD COLUMN certificate_validity_days integer CHECK (certificate_validity_days IS NULL OR certificate_validity_days > 0)`);
    await q.query(`ALTER TABLE lessons ADD CONSTRAINT lessons_organization_id_id_key UNIQUE (organization_id, id)`);
    await q.query(`
      CREATE TABLE course_progress (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        published_course_id uuid NOT NULL,
        course_id uuid NOT NULL,
        enrollment_id uuid,
        completed_at timestamptz,
        success_status text CHECK (success_status IN ('PASSED', 'FAILED')),
        score integer CHECK (score >= 0),
        max_score integer CHECK (max_score >= 0),
        credits_earned text NOT NULL DEFAULT '',
        credit_unit_plural text NOT NULL DEFAULT '',
        latest_activity timestamptz,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        CONSTRAINT course_progress_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT course_progress_user_id_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT course_progress_published_course_id_fkey FOREIGN KEY (organization_id, published_course_id) REFERENCES published_courses (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT course_progress_course_id_fkey FOREIGN KEY (organization_id, course_id) REFERENCES courses (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT course_progress_enrollment_id_fkey FOREIGN KEY (organization_id, enrollment_id) REFERENCES enrollments (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX course_progress_user_pc_uq ON course_progress (organization_id, published_course_id, user_id) WHERE enrollment_id IS NULL`);
    await q.query(`CREATE UNIQUE INDEX course_progress_enrollment_uq ON course_progress (organization_id, enrollment_id) WHERE enrollment_id IS NOT NULL`);
    await q.query(`CREATE INDEX course_progress_user_idx ON course_progress (organization_id, user_id, published_course_id)`);
    await q.query(`CREATE INDEX course_progress_course_idx ON course_progress (organization_id, course_id)`);

    await q.query(`
      CREATE TABLE lesson_progress (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        course_progress_id uuid NOT NULL,
        user_id uuid NOT NULL,
        lesson_id uuid NOT NULL,
        progress_token uuid NOT NULL DEFAULT gen_random_uuid(),
        view_count integer NOT NULL DEFAULT 0,
        last_viewed_on timestamptz,
        finished_at timestamptz,
        completed_at timestamptz,
        success_status text CHECK (success_status IN ('PASSED', 'FAILED')),
        score integer CHECK (score >= 0),
        max_score integer CHECK (max_score >= 0),
        custom_data text,
        validation_status text CHECK (validation_status IN ('PASSED', 'FAILED')),
        validation_data jsonb,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        CONSTRAINT lesson_progress_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT lesson_progress_course_progress_id_fkey FOREIGN KEY (organization_id, course_progress_id) REFERENCES course_progress (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT lesson_progress_user_id_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT lesson_progress_lesson_id_fkey FOREIGN KEY (organization_id, lesson_id) REFERENCES lessons (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX lesson_progress_cp_lesson_uq ON lesson_progress (organization_id, course_progress_id, lesson_id)`);
    await q.query(`CREATE UNIQUE INDEX lesson_progress_token_uq ON lesson_progress (organization_id, progress_token)`);
    await q.query(`CREATE INDEX lesson_progress_org_created_idx ON lesson_progress (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX lesson_progress_user_idx ON lesson_progress (organization_id, user_id)`);
    await q.query(`CREATE INDEX lesson_progress_lesson_idx ON lesson_progress (organization_id, lesson_id)`);

    await q.query(`CREATE INDEX enrollments_org_user_pc_idx ON enrollments (organization_id, user_id, published_course_id, enrolled_at)`);
    // every existing enrollment gets its course progress (as every new one does, with it)
    await q.query(`
      INSERT INTO course_progress (organization_id, user_id, published_course_id, course_id, enrollment_id, completed_at)
      SELECT e.organization_id, e.user_id, e.published_course_id, e.course_id,
             CASE WHEN pc.unique_progress_per_enrollment THEN e.id END, e.completed_at
        FROM enrollments e JOIN published_courses pc ON pc.id = e.published_course_id
       ORDER BY e.enrolled_at DESC
      ON CONFLICT DO NOTHING`);

    // one live certificate per course progress; its enrollment/user/course is what the progress has
    await q.query(`ALTER TABLE certificates ADD COLUMN course_progress_id uuid`);
    await q.query(
      `ALTER TABLE certificates ADD CONSTRAINT certificates_course_progress_id_fkey FOREIGN KEY (organization_id, course_progress_id) REFERENCES course_progress (organization_id, id) ON DELETE SET NULL (course_progress_id)`,
    );
    await q.query(`CREATE INDEX certificates_course_progress_idx ON certificates (organization_id, course_progress_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE certificates DROP COLUMN course_progress_id`);
    await q.query(`DROP INDEX enrollments_org_user_pc_idx`);
    await q.query(`DROP TABLE lesson_progress`);
    await q.query(`DROP TABLE course_progress`);
    await q.query(`ALTER TABLE lessons DROP CONSTRAINT lessons_organization_id_id_key`);
    await q.query(`ALTER TABLE courses DROP COLUMN certificate_validity_days`);
    await q.query(`ALTER TABLE courses DROP COLUMN issues_certificate`);
  }
}
