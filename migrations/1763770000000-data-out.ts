import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * Data out (issue 32, CONVENTIONS §20; docs/decisions/data-out.md).
 *
 * - `public_id(prefix, uuid)`: the public id of a uuid as src/core/ids/ids.ts writes it (prefix and
 *   the 128-bit value in 25 base-36 digits), so that events written by the database name objects as
 *   the API does.
 * - Sync events, written by triggers into the outbox in the transaction of the change, whatever code
 *   path made it (/v1, /v2, SCIM, the worker, a refund): `user.updated`, `user.deactivated`,
 *   `user.deleted`, `enrollment.updated`, `enrollment.deleted`, `progress.updated` (course progress
 *   created or changed), `progress.deleted`. They are born relayed (`relayed_at` set): the event log
 *   (GET /v2/events/) shows them, webhooks do not carry them, and the outbox retention removes them
 *   after OUTBOX_RETENTION_DAYS (30).
 * - `updated_at` of users, enrollments and course progress moves on every change (a BEFORE UPDATE
 *   trigger), so `updated_since` never misses a write whose statement forgot it.
 * - Indexes (organization_id, updated_at, id) for the lists ordered by last change, and the event
 *   log's (organization_id, created_at, seq) and (organization_id, event_type, created_at, seq).
 * - `data_exports`: one export (POST /v2/exports/), its state, counts and file.
 */
export class DataOut1763770000000 implements MigrationInterface {
  name = 'DataOut1763770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION public_id(prefix text, u uuid) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
      DECLARE
        h text := replace(u::text, '-', '');
        n numeric := 0;
        out text := '';
        i int;
      BEGIN
        FOR i IN 0..3 LOOP
          n := n * 4294967296 + ('x' || substr(h, i * 8 + 1, 8))::bit(32)::bigint;
        END LOOP;
        FOR i IN 1..25 LOOP
          out := substr('0123456789abcdefghijklmnopqrstuvwxyz', (n % 36)::int + 1, 1) || out;
          n := div(n, 36);
        END LOOP;
        RETURN prefix || out;
      END $$`);

    await q.query(`
      CREATE FUNCTION data_out_iso(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      $$`);

    // one sync event: relayed at birth (the webhook relay takes only relayed_at IS NULL)
    await q.query(`
      CREATE FUNCTION data_out_record(org uuid, t text, objects jsonb) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        eid uuid := gen_random_uuid();
        at timestamptz := date_trunc('milliseconds', now());
      BEGIN
        -- a cascade from a deleted organization: nothing to tell anyone
        IF NOT EXISTS (SELECT 1 FROM organizations WHERE id = org) THEN RETURN; END IF;
        INSERT INTO outbox_events (id, organization_id, event_type, payload, created_at, relayed_at)
        VALUES (eid, org, t, jsonb_build_object('id', public_id('evt', eid), 'event_type', t, 'timestamp', data_out_iso(at)) || objects, at, at);
      END $$`);

    await q.query(`
      CREATE FUNCTION data_out_touch() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (to_jsonb(NEW) - 'updated_at') IS DISTINCT FROM (to_jsonb(OLD) - 'updated_at') THEN
          NEW.updated_at := greatest(NEW.updated_at, date_trunc('milliseconds', now()));
        END IF;
        RETURN NEW;
      END $$`);

    await q.query(`
      CREATE FUNCTION data_out_user_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          PERFORM data_out_record(OLD.organization_id, 'user.deleted', jsonb_build_object('user', jsonb_build_object('id', public_id('stu', OLD.id))));
          RETURN NULL;
        END IF;
        IF (NEW.email, NEW.first_name, NEW.last_name, NEW.external_id, NEW.is_inactive, NEW.is_anonymized)
           IS NOT DISTINCT FROM (OLD.email, OLD.first_name, OLD.last_name, OLD.external_id, OLD.is_inactive, OLD.is_anonymized) THEN
          RETURN NULL;
        END IF;
        PERFORM data_out_record(NEW.organization_id,
          CASE WHEN NEW.is_inactive AND NOT OLD.is_inactive THEN 'user.deactivated' ELSE 'user.updated' END,
          jsonb_build_object('user', jsonb_build_object(
            'id', public_id('stu', NEW.id), 'email', NEW.email, 'first_name', NEW.first_name, 'last_name', NEW.last_name,
            'external_id', NEW.external_id, 'is_active', NOT NEW.is_inactive, 'is_anonymized', NEW.is_anonymized,
            'updated_at', data_out_iso(NEW.updated_at))));
        RETURN NULL;
      END $$`);

    await q.query(`
      CREATE FUNCTION data_out_enrollment_event() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE r enrollments;
      BEGIN
        IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
        IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - 'updated_at') = (to_jsonb(OLD) - 'updated_at') THEN RETURN NULL; END IF;
        PERFORM data_out_record(r.organization_id, CASE WHEN TG_OP = 'DELETE' THEN 'enrollment.deleted' ELSE 'enrollment.updated' END,
          jsonb_build_object(
            'user', jsonb_build_object('id', public_id('stu', r.user_id)),
            'enrollment', jsonb_build_object(
              'id', public_id('enr', r.id), 'user_id', public_id('stu', r.user_id), 'course_id', public_id('crs', r.course_id),
              'published_course_id', public_id('pcs', r.published_course_id), 'active', r.active,
              'enrolled_at', data_out_iso(r.enrolled_at), 'started_at', data_out_iso(r.started_at), 'completed_at', data_out_iso(r.completed_at),
              'expires_at', data_out_iso(r.expires_at), 'updated_at', data_out_iso(r.updated_at))));
        RETURN NULL;
      END $$`);

    await q.query(`
      CREATE FUNCTION data_out_progress_event() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE r course_progress;
      BEGIN
        IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
        IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - 'updated_at') = (to_jsonb(OLD) - 'updated_at') THEN RETURN NULL; END IF;
        PERFORM data_out_record(r.organization_id, CASE WHEN TG_OP = 'DELETE' THEN 'progress.deleted' ELSE 'progress.updated' END,
          jsonb_build_object(
            'user', jsonb_build_object('id', public_id('stu', r.user_id)),
            'progress', jsonb_build_object(
              'id', public_id('cpr', r.id), 'user_id', public_id('stu', r.user_id), 'course_id', public_id('crs', r.course_id),
              'published_course_id', public_id('pcs', r.published_course_id),
              'enrollment_id', CASE WHEN r.enrollment_id IS NULL THEN NULL ELSE public_id('enr', r.enrollment_id) END,
              'completed_at', data_out_iso(r.completed_at), 'success_status', r.success_status, 'score', r.score, 'max_score', r.max_score,
              'latest_activity', data_out_iso(r.latest_activity), 'updated_at', data_out_iso(r.updated_at))));
        RETURN NULL;
      END $$`);

    for (const t of ['users', 'enrollments', 'course_progress', 'lesson_progress']) {
      await q.query(`CREATE TRIGGER ${t}_data_out_touch BEFORE UPDATE ON ${t} FOR EACH ROW EXECUTE FUNCTION data_out_touch()`);
      // lesson_progress's index is made by the content-runs migration (1763750001000) already: the same definition
      await q.query(`CREATE INDEX IF NOT EXISTS ${t}_org_updated_idx ON ${t} (organization_id, updated_at, id)`);
    }
    await q.query(`CREATE TRIGGER users_data_out_event AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION data_out_user_event()`);
    await q.query(`CREATE TRIGGER enrollments_data_out_event AFTER UPDATE OR DELETE ON enrollments FOR EACH ROW EXECUTE FUNCTION data_out_enrollment_event()`);
    await q.query(`CREATE TRIGGER course_progress_data_out_event AFTER INSERT OR UPDATE OR DELETE ON course_progress FOR EACH ROW EXECUTE FUNCTION data_out_progress_event()`);

    await q.query(`CREATE INDEX outbox_events_org_log_idx ON outbox_events (organization_id, created_at, seq)`);
    await q.query(`CREATE INDEX outbox_events_org_type_log_idx ON outbox_events (organization_id, event_type, created_at, seq)`);

    await q.query(`
      CREATE TABLE data_exports (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        resource text NOT NULL,
        format text NOT NULL CHECK (format IN ('csv', 'ndjson')),
        filter jsonb NOT NULL DEFAULT '{}'::jsonb,
        state text NOT NULL DEFAULT 'QUEUED' CHECK (state IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'EXPIRED')),
        rows_done bigint NOT NULL DEFAULT 0,
        rows_total bigint,
        file_key text,
        file_size bigint,
        error text,
        started_at timestamptz,
        finished_at timestamptz,
        expires_at timestamptz,
        created_at ${TS},
        updated_at ${TS},
        UNIQUE (organization_id, id)
      )`);
    await q.query(`CREATE INDEX data_exports_org_created_idx ON data_exports (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX data_exports_expiry_idx ON data_exports (expires_at) WHERE state = 'SUCCEEDED'`);
    await q.query(`CREATE INDEX data_exports_stale_idx ON data_exports (updated_at) WHERE state IN ('QUEUED', 'RUNNING')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS data_exports`);
    await q.query(`DROP INDEX IF EXISTS outbox_events_org_log_idx`);
    await q.query(`DROP INDEX IF EXISTS outbox_events_org_type_log_idx`);
    await q.query(`DROP TRIGGER IF EXISTS users_data_out_event ON users`);
    await q.query(`DROP TRIGGER IF EXISTS enrollments_data_out_event ON enrollments`);
    await q.query(`DROP TRIGGER IF EXISTS course_progress_data_out_event ON course_progress`);
    for (const t of ['users', 'enrollments', 'course_progress', 'lesson_progress']) {
      await q.query(`DROP TRIGGER IF EXISTS ${t}_data_out_touch ON ${t}`);
      if (t !== 'lesson_progress') await q.query(`DROP INDEX IF EXISTS ${t}_org_updated_idx`);
    }
    for (const f of [
      'data_out_progress_event()',
      'data_out_enrollment_event()',
      'data_out_user_event()',
      'data_out_touch()',
      'data_out_record(uuid, text, jsonb)',
      'data_out_iso(timestamptz)',
      'public_id(text, uuid)',
    ]) {
      await q.query(`DROP FUNCTION IF EXISTS ${f}`);
    }
  }
}
