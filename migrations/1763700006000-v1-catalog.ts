import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * The /v1 catalog: domain membership (domain_users), signup fields and their per-user values,
 * domain invites, and the full-text search vector of courses used by the catalog search of
 * published courses (weights: A title, B lessons' search keywords, C descriptions).
 *
 * domain_users.access_code_id is a plain uuid without a foreign key: the access-code tables belong
 * to another module (access_codes / access_code_pools) and may be created after this migration.
 */
export class V1Catalog1763700006000 implements MigrationInterface {
  name = 'V1Catalog1763700006000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE domain_users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        domain_id uuid NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        active boolean NOT NULL DEFAULT true,
        marketing_optin boolean,
        enrolled_at ${TS},
        expires_at timestamptz,
        access_code_id uuid,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE UNIQUE INDEX domain_users_domain_user_uq ON domain_users (domain_id, user_id)`);
    await q.query(`CREATE INDEX domain_users_domain_enrolled_idx ON domain_users (domain_id, enrolled_at, id)`);
    await q.query(`CREATE INDEX domain_users_user_idx ON domain_users (user_id)`);
    await q.query(`CREATE INDEX domain_users_access_code_idx ON domain_users (domain_id, access_code_id)`);

    await q.query(`
      CREATE TABLE signup_fields (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        domain_id uuid REFERENCES domains(id) ON DELETE CASCADE,
        type text NOT NULL DEFAULT 'TEXT' CHECK (type IN ('TEXT', 'PICKLIST', 'CHECKBOX')),
        label text NOT NULL,
        help_text text NOT NULL DEFAULT '',
        regex_validator text NOT NULL DEFAULT '',
        regex_validator_error_text text NOT NULL DEFAULT '',
        required boolean NOT NULL DEFAULT false,
        active boolean NOT NULL DEFAULT true,
        "order" integer NOT NULL DEFAULT 0,
        options jsonb NOT NULL DEFAULT '[]',
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX signup_fields_org_order_idx ON signup_fields (organization_id, "order", created_at, id)`);
    await q.query(`CREATE INDEX signup_fields_org_label_idx ON signup_fields (organization_id, label)`);

    await q.query(`
      CREATE TABLE signup_field_values (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        signup_field_id uuid NOT NULL REFERENCES signup_fields(id) ON DELETE CASCADE,
        value text NOT NULL,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE UNIQUE INDEX signup_field_values_user_field_uq ON signup_field_values (user_id, signup_field_id)`);
    await q.query(`CREATE INDEX signup_field_values_field_value_idx ON signup_field_values (signup_field_id, value)`);

    await q.query(`
      CREATE TABLE domain_user_invites (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        domain_id uuid NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token text NOT NULL UNIQUE,
        send_email boolean NOT NULL DEFAULT true,
        sent_at timestamptz,
        used_at timestamptz,
        created_at ${TS}
      )`);
    await q.query(`CREATE INDEX domain_user_invites_user_idx ON domain_user_invites (domain_id, user_id, created_at, id)`);
    await q.query(`CREATE INDEX domain_user_invites_pending_mail_idx ON domain_user_invites (created_at) WHERE send_email AND sent_at IS NULL`);

    // Catalog search: a weighted tsvector per course, kept current by triggers on courses and lessons.
    await q.query(`ALTER TABLE courses ADD COLUMN search_vector tsvector NOT NULL DEFAULT ''::tsvector`);
    await q.query(`
      CREATE FUNCTION course_search_vector(p_course uuid, p_title text, p_short text, p_long text) RETURNS tsvector
      LANGUAGE sql STABLE AS $$
        SELECT setweight(to_tsvector('english', coalesce(p_title, '')), 'A')
            || setweight(to_tsvector('english', coalesce((
                 SELECT string_agg(l.search_keywords, ' ' ORDER BY l."order")
                 FROM lessons l WHERE l.course_id = p_course AND l.deleted_at IS NULL AND NOT l.is_draft), '')), 'B')
            || setweight(to_tsvector('english',
                 coalesce(p_short, '') || ' ' || regexp_replace(coalesce(p_long, ''), '<[^>]*>', ' ', 'g')), 'C')
      $$`);
    await q.query(`
      CREATE FUNCTION courses_search_vector_trg() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.search_vector := course_search_vector(NEW.id, NEW.title, NEW.short_description, NEW.long_description_html);
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER courses_search_vector BEFORE INSERT OR UPDATE OF title, short_description, long_description_html, search_vector
      ON courses FOR EACH ROW EXECUTE FUNCTION courses_search_vector_trg()`);
    await q.query(`
      CREATE FUNCTION lessons_search_vector_trg() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE courses SET search_vector = ''::tsvector WHERE id = OLD.course_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') AND (TG_OP = 'INSERT' OR NEW.course_id IS DISTINCT FROM OLD.course_id) THEN
          UPDATE courses SET search_vector = ''::tsvector WHERE id = NEW.course_id;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER lessons_search_vector_ins AFTER INSERT OR DELETE ON lessons
      FOR EACH ROW EXECUTE FUNCTION lessons_search_vector_trg()`);
    await q.query(`
      CREATE TRIGGER lessons_search_vector_upd AFTER UPDATE OF search_keywords, deleted_at, is_draft, course_id ON lessons
      FOR EACH ROW EXECUTE FUNCTION lessons_search_vector_trg()`);
    await q.query(`UPDATE courses SET search_vector = ''::tsvector`);
    await q.query(`CREATE INDEX courses_search_vector_idx ON courses USING gin (search_vector)`);
    await q.query(`CREATE INDEX published_courses_domain_created_idx ON published_courses (domain_id, created_at, id) WHERE unpublished_at IS NULL`);
    await q.query(`CREATE INDEX published_courses_domain_course_idx ON published_courses (domain_id, course_id) WHERE unpublished_at IS NULL`);
    await q.query(`CREATE INDEX enrollments_published_enrolled_idx ON enrollments (published_course_id, enrolled_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS enrollments_published_enrolled_idx`);
    await q.query(`DROP INDEX IF EXISTS published_courses_domain_course_idx`);
    await q.query(`DROP INDEX IF EXISTS published_courses_domain_created_idx`);
    await q.query(`DROP TRIGGER IF EXISTS lessons_search_vector_upd ON lessons`);
    await q.query(`DROP TRIGGER IF EXISTS lessons_search_vector_ins ON lessons`);
    await q.query(`DROP TRIGGER IF EXISTS courses_search_vector ON courses`);
    await q.query(`DROP FUNCTION IF EXISTS lessons_search_vector_trg()`);
    await q.query(`DROP FUNCTION IF EXISTS courses_search_vector_trg()`);
    await q.query(`DROP FUNCTION IF EXISTS course_search_vector(uuid, text, text, text)`);
    await q.query(`ALTER TABLE courses DROP COLUMN IF EXISTS search_vector`);
    for (const t of ['domain_user_invites', 'signup_field_values', 'signup_fields', 'domain_users']) await q.query(`DROP TABLE IF EXISTS ${t}`);
  }
}
