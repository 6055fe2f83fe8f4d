import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30 (CONVENTIONS §18; docs/decisions/content-runs.md): learning content runs.
 * - content_attempts: one attempt of a learner at a web-package lesson (its lesson progress), with
 *   the standard it runs under, its registration (the xAPI / cmi5 registration of the attempt),
 *   the SCORM data model's stored values (`cmi`, a flat map of element → value), whether it is open,
 *   suspended (a later launch resumes it) or closed, and the total time of its sessions.
 * - content_launches: a launch of an attempt: the single-use launch token (its SHA-256 only),
 *   valid 5 minutes until opened, then the session it opened (until `session_expires_at`) and the
 *   state of the SCORM API in that session (NEW, RUNNING after Initialize, TERMINATED), and when a
 *   cmi5 AU used its one-time fetch URL (`fetched_at`).
 * Every reference is composite with organization_id.
 */
export class ContentRuns1763750001000 implements MigrationInterface {
  name = 'ContentRuns1763750001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE content_attempts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        lesson_progress_id uuid NOT NULL,
        user_id uuid NOT NULL,
        lesson_id uuid NOT NULL,
        web_package_id uuid NOT NULL,
        number integer NOT NULL CHECK (number > 0),
        standard text NOT NULL CHECK (standard IN ('SCORM_1_2', 'SCORM_2004', 'CMI5', 'XAPI')),
        registration uuid NOT NULL DEFAULT gen_random_uuid(),
        cmi jsonb NOT NULL DEFAULT '{}'::jsonb,
        state text NOT NULL DEFAULT 'OPEN' CHECK (state IN ('OPEN', 'SUSPENDED', 'CLOSED')),
        total_time_cs bigint NOT NULL DEFAULT 0 CHECK (total_time_cs >= 0),
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        CONSTRAINT content_attempts_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT content_attempts_lp_number_key UNIQUE (organization_id, lesson_progress_id, number),
        CONSTRAINT content_attempts_registration_key UNIQUE (registration),
        CONSTRAINT content_attempts_lesson_progress_id_fkey FOREIGN KEY (organization_id, lesson_progress_id) REFERENCES lesson_progress (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT content_attempts_user_id_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT content_attempts_lesson_id_fkey FOREIGN KEY (organization_id, lesson_id) REFERENCES lessons (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT content_attempts_web_package_id_fkey FOREIGN KEY (organization_id, web_package_id) REFERENCES web_packages (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE content_launches (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        attempt_id uuid NOT NULL,
        token_hash bytea NOT NULL,
        expires_at timestamptz NOT NULL,
        opened_at timestamptz,
        session_expires_at timestamptz NOT NULL,
        session_state text NOT NULL DEFAULT 'NEW' CHECK (session_state IN ('NEW', 'RUNNING', 'TERMINATED')),
        entry text NOT NULL DEFAULT '' CHECK (entry IN ('ab-initio', 'resume', '')),
        fetched_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        CONSTRAINT content_launches_token_hash_key UNIQUE (token_hash),
        CONSTRAINT content_launches_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT content_launches_attempt_id_fkey FOREIGN KEY (organization_id, attempt_id) REFERENCES content_attempts (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX content_launches_attempt_idx ON content_launches (organization_id, attempt_id)`);
    await q.query(`CREATE INDEX content_launches_session_expiry_idx ON content_launches (session_expires_at)`);
    await q.query(`CREATE INDEX content_attempts_user_idx ON content_attempts (organization_id, user_id)`);
    await q.query(`CREATE INDEX content_attempts_lesson_idx ON content_attempts (organization_id, lesson_id)`);
    await q.query(`CREATE INDEX content_attempts_package_idx ON content_attempts (organization_id, web_package_id)`);
    await q.query(`CREATE INDEX lesson_progress_org_updated_idx ON lesson_progress (organization_id, updated_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS lesson_progress_org_updated_idx`);
    await q.query(`DROP TABLE IF EXISTS content_launches`);
    await q.query(`DROP TABLE IF EXISTS content_attempts`);
  }
}
