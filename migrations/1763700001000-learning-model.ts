import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * The one data model both interfaces share, shaped after the /v1 schemas: students (the
 * organization's users), courses and their lessons, courses published to domains, enrollments,
 * ratings, certificates, groups with categories, memberships and visibility overrides, and the
 * transactional outbox for domain events. Every row carries organization_id; every list is keyset
 * paginated on (organization_id, created_at, id).
 */
export class LearningModel1763700001000 implements MigrationInterface {
  name = 'LearningModel1763700001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);

    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        email text NOT NULL,
        first_name text NOT NULL DEFAULT '',
        last_name text NOT NULL DEFAULT '',
        external_id text NOT NULL DEFAULT '',
        is_inactive boolean NOT NULL DEFAULT false,
        is_anonymized boolean NOT NULL DEFAULT false,
        sso_provider text,
        password_hash text,
        password_changed_at timestamptz,
        deactivated_at timestamptz,
        anonymized_at timestamptz,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE UNIQUE INDEX users_org_email_uq ON users (organization_id, lower(email))`);
    await q.query(`CREATE INDEX users_org_created_idx ON users (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX users_org_first_name_idx ON users (organization_id, first_name)`);
    await q.query(`CREATE INDEX users_org_last_name_idx ON users (organization_id, last_name)`);

    await q.query(`
      CREATE TABLE courses (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title text NOT NULL,
        short_description text NOT NULL DEFAULT '',
        long_description_html text NOT NULL DEFAULT '',
        enforce_sequential_navigation boolean NOT NULL DEFAULT false,
        external_id text NOT NULL DEFAULT '',
        promo_image_url text NOT NULL DEFAULT '',
        display_course_and_lesson_time boolean NOT NULL DEFAULT false,
        manual_course_time text NOT NULL DEFAULT '',
        display_manual_course_time boolean NOT NULL DEFAULT false,
        course_and_lesson_time_format text NOT NULL DEFAULT 'HOURS_MINUTES',
        is_draft boolean NOT NULL DEFAULT false,
        draft_origin_id uuid REFERENCES courses(id) ON DELETE SET NULL,
        created_by_email text,
        deleted_at timestamptz,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX courses_org_created_idx ON courses (organization_id, created_at, id) WHERE deleted_at IS NULL AND NOT is_draft`);
    await q.query(`CREATE INDEX courses_title_trgm_idx ON courses USING gin (lower(title) gin_trgm_ops)`);

    await q.query(`
      CREATE TABLE lessons (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        course_id uuid NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
        title text NOT NULL,
        type text NOT NULL CHECK (type IN ('ASSET', 'HTML', 'QUIZ', 'WEB_PACKAGE', 'VILT', 'IE_EXAM', 'WIDGET', 'MODULAR')),
        "order" integer NOT NULL DEFAULT 0,
        description_html text NOT NULL DEFAULT '',
        content_html text,
        content_items jsonb NOT NULL DEFAULT '[]',
        quiz_id uuid,
        content_asset_id uuid,
        content_web_package_id uuid,
        display_fullscreen boolean NOT NULL DEFAULT false,
        optional boolean NOT NULL DEFAULT false,
        search_keywords text NOT NULL DEFAULT '',
        time_seconds integer,
        tooltip_html text NOT NULL DEFAULT '',
        external_id text NOT NULL DEFAULT '',
        is_draft boolean NOT NULL DEFAULT false,
        deleted_at timestamptz,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX lessons_org_created_idx ON lessons (organization_id, created_at, id) WHERE deleted_at IS NULL AND NOT is_draft`);
    await q.query(`CREATE INDEX lessons_course_order_idx ON lessons (course_id, "order")`);
    await q.query(`CREATE INDEX lessons_org_updated_idx ON lessons (organization_id, updated_at)`);

    await q.query(`
      CREATE TABLE published_courses (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        course_id uuid NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
        domain_id uuid NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
        slug text NOT NULL,
        external_id text NOT NULL DEFAULT '',
        is_hidden boolean NOT NULL DEFAULT false,
        visible_on_catalog boolean NOT NULL DEFAULT true,
        open_access boolean NOT NULL DEFAULT false,
        strict_enforce_group_visibility boolean NOT NULL DEFAULT false,
        visibility_override_type text NOT NULL DEFAULT 'NONE',
        registration_required boolean NOT NULL DEFAULT false,
        registration_starts_at timestamptz,
        registration_ends_at timestamptz,
        access_period_starts_at timestamptz,
        access_period_ends_at timestamptz,
        restrict_access_start_end_dates boolean NOT NULL DEFAULT false,
        allow_self_service_reenroll boolean NOT NULL DEFAULT false,
        unique_progress_per_enrollment boolean NOT NULL DEFAULT false,
        require_all_prerequisites boolean NOT NULL DEFAULT false,
        unpublished_at timestamptz,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE UNIQUE INDEX published_courses_domain_slug_uq ON published_courses (domain_id, lower(slug)) WHERE unpublished_at IS NULL`);
    await q.query(`CREATE INDEX published_courses_org_created_idx ON published_courses (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX published_courses_course_idx ON published_courses (course_id)`);

    await q.query(`
      CREATE TABLE enrollments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        published_course_id uuid NOT NULL REFERENCES published_courses(id) ON DELETE CASCADE,
        course_id uuid NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
        enrolled_at ${TS},
        expires_at timestamptz,
        active boolean NOT NULL DEFAULT true,
        started_at timestamptz,
        completed_at timestamptz,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX enrollments_org_created_idx ON enrollments (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX enrollments_course_idx ON enrollments (course_id, published_course_id)`);
    await q.query(`CREATE INDEX enrollments_published_user_idx ON enrollments (published_course_id, user_id)`);
    await q.query(`CREATE INDEX enrollments_user_idx ON enrollments (user_id)`);

    await q.query(`
      CREATE TABLE course_ratings (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        course_id uuid NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        enrollment_id uuid REFERENCES enrollments(id) ON DELETE SET NULL,
        rating integer NOT NULL CHECK (rating >= 1 AND rating <= scale_max),
        scale_max integer NOT NULL DEFAULT 5,
        feedback text,
        created_at ${TS}
      )`);
    await q.query(`CREATE INDEX course_ratings_course_created_idx ON course_ratings (course_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX course_ratings_user_idx ON course_ratings (user_id)`);
    await q.query(`CREATE INDEX course_ratings_enrollment_idx ON course_ratings (enrollment_id)`);

    await q.query(`
      CREATE TABLE certificates (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        course_id uuid NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
        published_course_id uuid REFERENCES published_courses(id) ON DELETE SET NULL,
        domain_id uuid REFERENCES domains(id) ON DELETE SET NULL,
        enrollment_id uuid REFERENCES enrollments(id) ON DELETE SET NULL,
        code text NOT NULL UNIQUE,
        issued_at ${TS},
        expires_at timestamptz,
        score_as_percent integer,
        created_at ${TS}
      )`);
    await q.query(`CREATE INDEX certificates_org_created_idx ON certificates (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX certificates_user_idx ON certificates (user_id)`);
    await q.query(`CREATE INDEX certificates_course_idx ON certificates (course_id)`);
    await q.query(`CREATE INDEX certificates_org_issued_idx ON certificates (organization_id, issued_at)`);

    await q.query(`
      CREATE TABLE group_categories (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX group_categories_org_created_idx ON group_categories (organization_id, created_at, id)`);

    await q.query(`
      CREATE TABLE groups (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        category_id uuid REFERENCES group_categories(id) ON DELETE SET NULL,
        rule_email_domains text[] NOT NULL DEFAULT '{}',
        send_course_enrollment_email boolean,
        discount_percent integer,
        sign_up_field_rule jsonb,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX groups_org_created_idx ON groups (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX groups_category_idx ON groups (category_id)`);
    await q.query(`CREATE INDEX groups_name_trgm_idx ON groups USING gin (lower(name) gin_trgm_ops)`);

    await q.query(`
      CREATE TABLE group_memberships (
        group_id uuid NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        created_at ${TS},
        PRIMARY KEY (group_id, user_id)
      )`);
    await q.query(`CREATE INDEX group_memberships_user_idx ON group_memberships (user_id)`);

    await q.query(`
      CREATE TABLE visibility_overrides (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        group_id uuid NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
        published_course_id uuid NOT NULL REFERENCES published_courses(id) ON DELETE CASCADE,
        is_visible boolean NOT NULL,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE UNIQUE INDEX visibility_overrides_tuple_uq ON visibility_overrides (group_id, published_course_id, is_visible)`);
    await q.query(`CREATE INDEX visibility_overrides_group_created_idx ON visibility_overrides (group_id, created_at, id)`);
    await q.query(`CREATE INDEX visibility_overrides_published_course_idx ON visibility_overrides (published_course_id)`);

    await q.query(`
      CREATE TABLE outbox_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        event_type text NOT NULL,
        payload jsonb NOT NULL,
        created_at ${TS},
        relayed_at timestamptz
      )`);
    await q.query(`CREATE INDEX outbox_events_pending_idx ON outbox_events (created_at, id) WHERE relayed_at IS NULL`);
    await q.query(`CREATE INDEX outbox_events_org_type_idx ON outbox_events (organization_id, event_type, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'outbox_events',
      'visibility_overrides',
      'group_memberships',
      'groups',
      'group_categories',
      'certificates',
      'course_ratings',
      'enrollments',
      'published_courses',
      'lessons',
      'courses',
      'users',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
