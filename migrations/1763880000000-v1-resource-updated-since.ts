import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `updated_since` on the /v1 lists made by @V1Resource (docs/decisions/data-out.md): the indexes
 * their lists ordered by last change (updated_at, id) read. Quizzes, question banks and lesson
 * progress (progress tokens) already have theirs.
 */
const ORG_TABLES = ['license_packages', 'offers', 'promo_code_pools', 'promo_codes', 'training_credit_codes'];

export class V1ResourceUpdatedSince1763880000000 implements MigrationInterface {
  name = 'V1ResourceUpdatedSince1763880000000';

  async up(q: QueryRunner): Promise<void> {
    for (const t of ORG_TABLES) await q.query(`CREATE INDEX IF NOT EXISTS ${t}_org_updated_idx ON ${t} (organization_id, updated_at, id)`);
    // the lists of one parent's rows: a package's seats, a quiz's or a bank's questions, a quiz's bank assignments
    await q.query(`CREATE INDEX IF NOT EXISTS license_seats_package_updated_idx ON license_seats (package_id, updated_at, id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS questions_quiz_updated_idx ON questions (organization_id, quiz_id, updated_at, id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX IF NOT EXISTS questions_bank_updated_idx ON questions (organization_id, question_bank_id, updated_at, id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX IF NOT EXISTS question_bank_assignments_quiz_updated_idx ON question_bank_assignments (organization_id, quiz_id, updated_at, id)`);
    // a domain's plans and course series, a plan's and a published path's enrollments (the plans module's LivePrograms and ProgramEnrollmentRows)
    for (const t of ['plans', 'course_series']) await q.query(`CREATE INDEX IF NOT EXISTS ${t}_domain_updated_idx ON ${t} (domain_id, updated_at, id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX IF NOT EXISTS plan_enrollments_plan_updated_idx ON plan_enrollments (plan_id, updated_at, id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS published_path_enrollments_pp_updated_idx ON published_path_enrollments (published_path_id, updated_at, id)`);
    // a user's plan and published-path enrollments (/v1/users/{id}/plan-enrollments, .../published-path-enrollments)
    for (const t of ['plan_enrollments', 'published_path_enrollments']) await q.query(`CREATE INDEX IF NOT EXISTS ${t}_org_user_updated_idx ON ${t} (organization_id, user_id, updated_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['plan_enrollments', 'published_path_enrollments']) await q.query(`DROP INDEX IF EXISTS ${t}_org_user_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS published_path_enrollments_pp_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS plan_enrollments_plan_updated_idx`);
    for (const t of ['plans', 'course_series']) await q.query(`DROP INDEX IF EXISTS ${t}_domain_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS question_bank_assignments_quiz_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS questions_bank_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS questions_quiz_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS license_seats_package_updated_idx`);
    for (const t of ORG_TABLES) await q.query(`DROP INDEX IF EXISTS ${t}_org_updated_idx`);
  }
}
