import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * /v1 domain catalog objects beside published courses: access code pools and codes (with the uses
 * that record which user redeemed which code), course series, plans and their enrollments, paths,
 * published paths with their items, labels and enrollments, and offers (a default offer is created
 * with every published path). Labels live in another module's table: path_labels references label
 * ids without a foreign key. See docs/decisions/v1-paths-plans-codes.md.
 */
export class PathsPlansCodes1763700007000 implements MigrationInterface {
  name = 'PathsPlansCodes1763700007000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE access_code_pools (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        domain_id uuid NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
        name text NOT NULL,
        active boolean NOT NULL DEFAULT true,
        start_date timestamptz,
        end_date timestamptz,
        expire_linked_to_domain_membership boolean NOT NULL DEFAULT false,
        channel text DEFAULT 'api' CHECK (channel IN ('api', 'import', 'dashboard', 'ecommerce', 'unknown')),
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX access_code_pools_domain_created_idx ON access_code_pools (domain_id, created_at, id)`);
    await q.query(`CREATE INDEX access_code_pools_domain_name_idx ON access_code_pools (domain_id, name)`);

    await q.query(`
      CREATE TABLE access_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        domain_id uuid NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
        pool_id uuid NOT NULL REFERENCES access_code_pools(id) ON DELETE CASCADE,
        code text NOT NULL,
        active boolean NOT NULL DEFAULT true,
        max_uses integer NOT NULL DEFAULT 1 CHECK (max_uses >= 0),
        use_count integer NOT NULL DEFAULT 0 CHECK (use_count >= 0),
        duration integer CHECK (duration IS NULL OR duration >= 1),
        duration_unit text NOT NULL DEFAULT 'MONTHS' CHECK (duration_unit IN ('MONTHS', 'DAYS')),
        created_at ${TS},
        updated_at ${TS}
      )`);
    // A learner types a code on a domain: codes are unique per domain (exact, case-sensitive).
    await q.query(`CREATE UNIQUE INDEX access_codes_domain_code_uq ON access_codes (domain_id, code)`);
    await q.query(`CREATE INDEX access_codes_pool_created_idx ON access_codes (pool_id, created_at, id)`);

    await q.query(`
      CREATE TABLE access_code_uses (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        access_code_id uuid NOT NULL REFERENCES access_codes(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        used_at ${TS}
      )`);
    await q.query(`CREATE UNIQUE INDEX access_code_uses_code_user_uq ON access_code_uses (access_code_id, user_id)`);
    await q.query(`CREATE INDEX access_code_uses_user_idx ON access_code_uses (user_id)`);

    await q.query(`
      CREATE TABLE course_series (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        domain_id uuid NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
        title text NOT NULL,
        slug text NOT NULL,
        visible_on_catalog boolean NOT NULL DEFAULT true,
        deleted_at timestamptz,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX course_series_domain_created_idx ON course_series (domain_id, created_at, id) WHERE deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE course_series_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        course_series_id uuid NOT NULL REFERENCES course_series(id) ON DELETE CASCADE,
        published_course_id uuid NOT NULL REFERENCES published_courses(id) ON DELETE CASCADE,
        "order" integer NOT NULL DEFAULT 0,
        created_at ${TS}
      )`);
    await q.query(`CREATE UNIQUE INDEX course_series_items_uq ON course_series_items (course_series_id, published_course_id)`);
    await q.query(`CREATE INDEX course_series_items_order_idx ON course_series_items (course_series_id, "order", id)`);
    await q.query(`CREATE INDEX course_series_items_published_course_idx ON course_series_items (published_course_id)`);

    await q.query(`
      CREATE TABLE plans (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        domain_id uuid NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
        name text NOT NULL,
        slug text NOT NULL,
        hidden boolean NOT NULL DEFAULT false,
        short_description text,
        deleted_at timestamptz,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX plans_domain_created_idx ON plans (domain_id, created_at, id) WHERE deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE plan_enrollments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        plan_id uuid NOT NULL REFERENCES plans(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        enrolled_at ${TS},
        expires_at timestamptz,
        active boolean NOT NULL DEFAULT true,
        purchase jsonb,
        created_at ${TS},
        updated_at ${TS}
      )`);
    // Create is idempotent for (user, enrollment time).
    await q.query(`CREATE UNIQUE INDEX plan_enrollments_idem_uq ON plan_enrollments (plan_id, user_id, enrolled_at)`);
    await q.query(`CREATE INDEX plan_enrollments_plan_created_idx ON plan_enrollments (plan_id, created_at, id)`);
    await q.query(`CREATE INDEX plan_enrollments_user_idx ON plan_enrollments (user_id)`);

    await q.query(`
      CREATE TABLE paths (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title text NOT NULL,
        short_description text NOT NULL DEFAULT '',
        long_description_html text NOT NULL DEFAULT '',
        header_html text NOT NULL DEFAULT '',
        course_name_singular text NOT NULL DEFAULT 'Course',
        course_name_plural text NOT NULL DEFAULT 'Courses',
        promo_image_url text NOT NULL DEFAULT '',
        search_keywords text NOT NULL DEFAULT '',
        deleted_at timestamptz,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX paths_org_created_idx ON paths (organization_id, created_at, id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX paths_title_trgm_idx ON paths USING gin (lower(title) gin_trgm_ops)`);

    await q.query(`
      CREATE TABLE published_paths (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        path_id uuid NOT NULL REFERENCES paths(id) ON DELETE CASCADE,
        domain_id uuid NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
        slug text NOT NULL,
        hidden boolean NOT NULL DEFAULT false,
        strict_enforce_group_visibility boolean NOT NULL DEFAULT false,
        unique_progress_per_enrollment boolean NOT NULL DEFAULT false,
        unpublished_at timestamptz,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE UNIQUE INDEX published_paths_domain_slug_uq ON published_paths (domain_id, lower(slug)) WHERE unpublished_at IS NULL`);
    await q.query(`CREATE INDEX published_paths_domain_created_idx ON published_paths (domain_id, created_at, id) WHERE unpublished_at IS NULL`);
    await q.query(`CREATE INDEX published_paths_path_idx ON published_paths (path_id)`);

    await q.query(`
      CREATE TABLE path_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        path_id uuid NOT NULL REFERENCES paths(id) ON DELETE CASCADE,
        published_course_id uuid NOT NULL REFERENCES published_courses(id) ON DELETE CASCADE,
        "order" integer NOT NULL,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE UNIQUE INDEX path_items_path_order_uq ON path_items (path_id, "order")`);
    await q.query(`CREATE UNIQUE INDEX path_items_path_course_uq ON path_items (path_id, published_course_id)`);
    await q.query(`CREATE INDEX path_items_published_course_idx ON path_items (published_course_id)`);

    // labels belong to another module: referenced by id, no foreign key.
    await q.query(`
      CREATE TABLE path_labels (
        published_path_id uuid NOT NULL REFERENCES published_paths(id) ON DELETE CASCADE,
        label_id uuid NOT NULL,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        created_at ${TS},
        PRIMARY KEY (published_path_id, label_id)
      )`);
    await q.query(`CREATE INDEX path_labels_label_idx ON path_labels (label_id)`);
    await q.query(`CREATE INDEX path_labels_list_idx ON path_labels (published_path_id, created_at, label_id)`);

    await q.query(`
      CREATE TABLE published_path_enrollments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        published_path_id uuid NOT NULL REFERENCES published_paths(id) ON DELETE CASCADE,
        path_id uuid NOT NULL REFERENCES paths(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        enrolled_at ${TS},
        expires_at timestamptz,
        active boolean NOT NULL DEFAULT true,
        purchase jsonb,
        completed_at timestamptz,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE UNIQUE INDEX published_path_enrollments_idem_uq ON published_path_enrollments (published_path_id, user_id, enrolled_at)`);
    await q.query(`CREATE INDEX published_path_enrollments_pp_created_idx ON published_path_enrollments (published_path_id, created_at, id)`);
    await q.query(`CREATE INDEX published_path_enrollments_user_idx ON published_path_enrollments (user_id)`);

    await q.query(`
      CREATE TABLE offers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        published_path_id uuid REFERENCES published_paths(id) ON DELETE CASCADE,
        plan_id uuid REFERENCES plans(id) ON DELETE CASCADE,
        course_series_id uuid REFERENCES course_series(id) ON DELETE CASCADE,
        published_course_id uuid REFERENCES published_courses(id) ON DELETE CASCADE,
        is_default boolean NOT NULL DEFAULT true,
        registration_open boolean NOT NULL DEFAULT true,
        price_cents integer CHECK (price_cents IS NULL OR price_cents >= 0),
        currency_code text NOT NULL DEFAULT 'USD',
        sku text,
        description text,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX offers_org_created_idx ON offers (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX offers_published_path_idx ON offers (published_path_id) WHERE published_path_id IS NOT NULL`);
    await q.query(`CREATE INDEX offers_plan_idx ON offers (plan_id) WHERE plan_id IS NOT NULL`);
    await q.query(`CREATE INDEX offers_course_series_idx ON offers (course_series_id) WHERE course_series_id IS NOT NULL`);
    await q.query(`CREATE INDEX offers_published_course_idx ON offers (published_course_id) WHERE published_course_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'offers',
      'published_path_enrollments',
      'path_labels',
      'path_items',
      'published_paths',
      'paths',
      'plan_enrollments',
      'plans',
      'course_series_items',
      'course_series',
      'access_code_uses',
      'access_codes',
      'access_code_pools',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
