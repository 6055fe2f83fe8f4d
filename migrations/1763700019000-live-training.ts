import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * Live training (issue 13, CONVENTIONS §13; docs/decisions/training.md).
 *
 * - ilt_instructors: the organization's instructors (/v1/ilt-instructors), one per e-mail.
 * - vilt_sessions: what a learner registers for (`vilt_session {id}`): the session of one
 *   lesson-based ILT session, or a multi-session event (is_multi_session) holding several.
 *   registration_count is kept by the registrations' conditional UPDATE; the CHECK is the last
 *   word on seats (never more registrations than seats_total, whatever the code does).
 * - vilt_session_events: the scheduled meetings (/v1/ilt-sessions and /v1/vilt-session-events are
 *   the same objects), `sequence` the iCalendar SEQUENCE of its invitations.
 * - vilt_session_registrations: one per (session, user), made from an enrollment of the user in
 *   a published course of the session's course.
 * - vilt_session_mails: invitations (REQUEST) and cancellations (CANCEL) recorded in the
 *   transaction that causes them; the worker sends them through the mail queue and marks them done.
 */
export class LiveTraining1763700019000 implements MigrationInterface {
  name = 'LiveTraining1763700019000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ilt_instructors (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        email varchar(254) NOT NULL,
        name varchar(200) NOT NULL DEFAULT '',
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT ilt_instructors_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT ilt_instructors_email_uq UNIQUE (organization_id, email)
      )`);
    await q.query(`CREATE INDEX ilt_instructors_list_idx ON ilt_instructors (organization_id, created_at, id)`);

    await q.query(`
      CREATE TABLE vilt_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        lesson_id uuid NOT NULL,
        is_multi_session boolean NOT NULL DEFAULT false,
        display_name varchar(200) NOT NULL,
        seats_total integer CHECK (seats_total >= 0),
        registration_count integer NOT NULL DEFAULT 0 CHECK (registration_count >= 0),
        tags text[] NOT NULL DEFAULT '{}',
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT vilt_sessions_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT vilt_sessions_lesson_id_fkey FOREIGN KEY (organization_id, lesson_id) REFERENCES lessons (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT vilt_sessions_seats_ck CHECK (seats_total IS NULL OR registration_count <= seats_total)
      )`);
    await q.query(`CREATE INDEX vilt_sessions_multi_list_idx ON vilt_sessions (organization_id, created_at, id) WHERE is_multi_session`);
    await q.query(`CREATE INDEX vilt_sessions_lesson_idx ON vilt_sessions (organization_id, lesson_id)`);

    await q.query(`
      CREATE TABLE vilt_session_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        session_id uuid NOT NULL,
        display_name varchar(200) NOT NULL,
        description text NOT NULL DEFAULT '',
        post_registration_instructions text NOT NULL DEFAULT '',
        provider varchar(32) NOT NULL DEFAULT 'calendar',
        instructor_email varchar(254) NOT NULL,
        instructor_name varchar(200) NOT NULL DEFAULT '',
        instructor_id uuid,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL,
        timezone varchar(64) NOT NULL,
        location varchar(100),
        event_link text,
        sequence integer NOT NULL DEFAULT 0,
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT vilt_session_events_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT vilt_session_events_session_id_fkey FOREIGN KEY (organization_id, session_id) REFERENCES vilt_sessions (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT vilt_session_events_instructor_id_fkey FOREIGN KEY (organization_id, instructor_id) REFERENCES ilt_instructors (organization_id, id) ON DELETE SET NULL (instructor_id),
        CONSTRAINT vilt_session_events_times_ck CHECK (ends_at > starts_at)
      )`);
    await q.query(`CREATE INDEX vilt_session_events_list_idx ON vilt_session_events (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX vilt_session_events_starts_idx ON vilt_session_events (organization_id, starts_at, id)`);
    await q.query(`CREATE INDEX vilt_session_events_session_idx ON vilt_session_events (organization_id, session_id, starts_at)`);
    await q.query(`CREATE INDEX vilt_session_events_instructor_idx ON vilt_session_events (organization_id, instructor_id, provider) WHERE instructor_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE vilt_session_registrations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        session_id uuid NOT NULL,
        user_id uuid NOT NULL,
        enrollment_id uuid NOT NULL,
        attended boolean NOT NULL DEFAULT false,
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT vilt_session_registrations_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT vilt_session_registrations_session_user_uq UNIQUE (organization_id, session_id, user_id),
        CONSTRAINT vilt_session_registrations_session_id_fkey FOREIGN KEY (organization_id, session_id) REFERENCES vilt_sessions (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT vilt_session_registrations_user_id_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT vilt_session_registrations_enrollment_id_fkey FOREIGN KEY (organization_id, enrollment_id) REFERENCES enrollments (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX vilt_session_registrations_list_idx ON vilt_session_registrations (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX vilt_session_registrations_session_idx ON vilt_session_registrations (organization_id, session_id, created_at, id)`);
    await q.query(`CREATE INDEX vilt_session_registrations_user_idx ON vilt_session_registrations (organization_id, user_id)`);
    await q.query(`CREATE INDEX vilt_session_registrations_enrollment_idx ON vilt_session_registrations (organization_id, enrollment_id)`);

    await q.query(`
      CREATE TABLE vilt_session_mails (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        session_id uuid NOT NULL,
        user_id uuid NOT NULL,
        method varchar(16) NOT NULL CHECK (method IN ('REQUEST', 'CANCEL')),
        done_at timestamptz,
        created_at ${TS},
        CONSTRAINT vilt_session_mails_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT vilt_session_mails_session_id_fkey FOREIGN KEY (organization_id, session_id) REFERENCES vilt_sessions (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT vilt_session_mails_user_id_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX vilt_session_mails_pending_idx ON vilt_session_mails (created_at) WHERE done_at IS NULL`);
    await q.query(`CREATE INDEX vilt_session_mails_session_idx ON vilt_session_mails (organization_id, session_id)`);
    await q.query(`CREATE INDEX vilt_session_mails_user_idx ON vilt_session_mails (organization_id, user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE vilt_session_mails`);
    await q.query(`DROP TABLE vilt_session_registrations`);
    await q.query(`DROP TABLE vilt_session_events`);
    await q.query(`DROP TABLE vilt_sessions`);
    await q.query(`DROP TABLE ilt_instructors`);
  }
}
