import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * Re-enrollment rules (issue 29 point 2, CONVENTIONS §17): one rule per published course
 * (modules/reenrollment), the runs the worker made (one per rule and scheduled time: the unique key is
 * the last guard of "a run happens once"), and the progress history a run keeps
 * (course_progress_cycles, modules/progress: the completion, score and certificate of the cycle that
 * ended, and its lessons' progress). Composite keys with organization_id throughout.
 */
export class ReenrollmentRules1763740003000 implements MigrationInterface {
  name = 'ReenrollmentRules1763740003000';

  async up(q: QueryRunner): Promise<void> {
    for (const parent of ['published_courses', 'certificates', 'course_progress', 'users']) {
      await q.query(`DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = '${parent}_organization_id_id_key') THEN
          ALTER TABLE ${parent} ADD CONSTRAINT ${parent}_organization_id_id_key UNIQUE (organization_id, id);
        END IF; END $$`);
    }
    await q.query(`
      CREATE TABLE reenrollment_rules (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        published_course_id uuid NOT NULL,
        starts_at timestamptz NOT NULL,
        cycle_duration integer NOT NULL CHECK (cycle_duration >= 1),
        cycle_duration_unit text NOT NULL CHECK (cycle_duration_unit IN ('MONTHS', 'DAYS')),
        next_run_at timestamptz NOT NULL,
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT reenrollment_rules_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT reenrollment_rules_published_course_key UNIQUE (published_course_id),
        CONSTRAINT reenrollment_rules_published_course_id_fkey FOREIGN KEY (organization_id, published_course_id) REFERENCES published_courses (organization_id, id) ON DELETE CASCADE
      )`);
    // the worker's scan of due rules (all organizations: a job of the deployment)
    await q.query(`CREATE INDEX reenrollment_rules_next_run_idx ON reenrollment_rules (next_run_at)`);
    await q.query(`
      CREATE TABLE reenrollment_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        rule_id uuid NOT NULL,
        scheduled_at timestamptz NOT NULL,
        ran_at ${TS},
        reset_count integer NOT NULL DEFAULT 0,
        CONSTRAINT reenrollment_runs_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT reenrollment_runs_rule_scheduled_key UNIQUE (rule_id, scheduled_at),
        CONSTRAINT reenrollment_runs_rule_id_fkey FOREIGN KEY (organization_id, rule_id) REFERENCES reenrollment_rules (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE course_progress_cycles (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        course_progress_id uuid NOT NULL,
        user_id uuid NOT NULL,
        published_course_id uuid NOT NULL,
        completed_at timestamptz NOT NULL,
        success_status text,
        score integer,
        max_score integer,
        certificate_id uuid,
        lessons jsonb NOT NULL DEFAULT '[]'::jsonb,
        ended_at timestamptz NOT NULL,
        created_at ${TS},
        CONSTRAINT course_progress_cycles_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT course_progress_cycles_course_progress_id_fkey FOREIGN KEY (organization_id, course_progress_id) REFERENCES course_progress (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT course_progress_cycles_user_id_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT course_progress_cycles_published_course_id_fkey FOREIGN KEY (organization_id, published_course_id) REFERENCES published_courses (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT course_progress_cycles_certificate_id_fkey FOREIGN KEY (organization_id, certificate_id) REFERENCES certificates (organization_id, id) ON DELETE SET NULL (certificate_id)
      )`);
    await q.query(`CREATE INDEX course_progress_cycles_progress_idx ON course_progress_cycles (organization_id, course_progress_id, ended_at, id)`);
    await q.query(`CREATE INDEX course_progress_cycles_user_idx ON course_progress_cycles (organization_id, user_id, published_course_id)`);
    await q.query(`CREATE INDEX course_progress_cycles_certificate_idx ON course_progress_cycles (organization_id, certificate_id) WHERE certificate_id IS NOT NULL`);
    // the run's scan: a published course's completed progresses
    await q.query(`CREATE INDEX course_progress_pc_completed_idx ON course_progress (organization_id, published_course_id, completed_at) WHERE completed_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS course_progress_pc_completed_idx`);
    for (const t of ['course_progress_cycles', 'reenrollment_runs', 'reenrollment_rules']) await q.query(`DROP TABLE IF EXISTS ${t}`);
  }
}
