import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * Commerce limits (issue 11 items 3-6, docs/decisions/commerce-limits.md): promo code pools, their
 * offers and codes; training credit codes with their groups and offers; license packages with their
 * offers and seats; and what a checkout took from them (a promo use, credits), released when the
 * purchase fails, is cancelled or refunded.
 *
 * Every table is organization-owned with UNIQUE (organization_id, id) where something references
 * it, and composite foreign keys to its parents. `offers` gets its UNIQUE (organization_id, id)
 * here unless an earlier migration gave it one. The claim rows' `purchase_id` has no foreign key in
 * this migration (the purchases table is commerce-core's, created in the same issue); a later
 * migration adds the composite key once both exist.
 */
export class CommerceLimits1763700017100 implements MigrationInterface {
  name = 'CommerceLimits1763700017100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DO $$ BEGIN
        IF NOT EXISTS (
          SELECT 1 FROM pg_index i
           WHERE i.indrelid = 'offers'::regclass AND i.indisunique AND i.indnatts = 2
             AND (SELECT array_agg(a.attname::text ORDER BY a.attname) FROM pg_attribute a
                   WHERE a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)) = ARRAY['id', 'organization_id']
        ) THEN
          ALTER TABLE offers ADD CONSTRAINT offers_organization_id_id_key UNIQUE (organization_id, id);
        END IF;
      END $$`);

    // ------------------------------------------------------------------ promo codes
    await q.query(`
      CREATE TABLE promo_code_pools (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        active boolean NOT NULL DEFAULT true,
        starts_at timestamptz NOT NULL,
        expires_at timestamptz,
        expire_content boolean NOT NULL DEFAULT false,
        discount_type text NOT NULL CHECK (discount_type IN ('PERCENT_OFF', 'PRICE_OVERRIDE')),
        price_cents integer CHECK (price_cents IS NULL OR price_cents >= 0),
        percent_off integer CHECK (percent_off IS NULL OR percent_off BETWEEN 0 AND 100),
        single_use_per_user boolean NOT NULL DEFAULT false,
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT promo_code_pools_organization_id_id_key UNIQUE (organization_id, id)
      )`);
    await q.query(`CREATE INDEX promo_code_pools_org_created_idx ON promo_code_pools (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX promo_code_pools_org_name_idx ON promo_code_pools (organization_id, name)`);

    await q.query(`
      CREATE TABLE promo_code_pool_offers (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        pool_id uuid NOT NULL,
        offer_id uuid NOT NULL,
        created_at ${TS},
        PRIMARY KEY (pool_id, offer_id),
        CONSTRAINT promo_code_pool_offers_pool_id_fkey FOREIGN KEY (organization_id, pool_id) REFERENCES promo_code_pools(organization_id, id) ON DELETE CASCADE,
        CONSTRAINT promo_code_pool_offers_offer_id_fkey FOREIGN KEY (organization_id, offer_id) REFERENCES offers(organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX promo_code_pool_offers_org_pool_created_idx ON promo_code_pool_offers (organization_id, pool_id, created_at, offer_id)`);
    await q.query(`CREATE INDEX promo_code_pool_offers_org_offer_idx ON promo_code_pool_offers (organization_id, offer_id)`);

    await q.query(`
      CREATE TABLE promo_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        pool_id uuid NOT NULL,
        code text NOT NULL CHECK (char_length(code) BETWEEN 1 AND 40),
        max_uses integer NOT NULL CHECK (max_uses >= 0),
        use_count integer NOT NULL DEFAULT 0 CHECK (use_count >= 0),
        active boolean NOT NULL DEFAULT true,
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT promo_codes_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT promo_codes_org_code_uq UNIQUE (organization_id, code),
        CONSTRAINT promo_codes_pool_id_fkey FOREIGN KEY (organization_id, pool_id) REFERENCES promo_code_pools(organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX promo_codes_org_created_idx ON promo_codes (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX promo_codes_org_pool_created_idx ON promo_codes (organization_id, pool_id, created_at, id)`);

    await q.query(`
      CREATE TABLE promo_code_uses (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        promo_code_id uuid NOT NULL,
        pool_id uuid NOT NULL,
        user_id uuid NOT NULL,
        purchase_id uuid NOT NULL,
        created_at ${TS},
        released_at timestamptz,
        CONSTRAINT promo_code_uses_org_purchase_uq UNIQUE (organization_id, purchase_id),
        CONSTRAINT promo_code_uses_promo_code_id_fkey FOREIGN KEY (organization_id, promo_code_id) REFERENCES promo_codes(organization_id, id) ON DELETE CASCADE,
        CONSTRAINT promo_code_uses_pool_id_fkey FOREIGN KEY (organization_id, pool_id) REFERENCES promo_code_pools(organization_id, id) ON DELETE CASCADE,
        CONSTRAINT promo_code_uses_user_id_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users(organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX promo_code_uses_held_idx ON promo_code_uses (organization_id, pool_id, user_id) WHERE released_at IS NULL`);
    await q.query(`CREATE INDEX promo_code_uses_code_idx ON promo_code_uses (promo_code_id)`);

    // ------------------------------------------------------------------ training credits
    await q.query(`
      CREATE TABLE training_credit_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        code text NOT NULL CHECK (char_length(code) BETWEEN 1 AND 255),
        credits_total integer NOT NULL CHECK (credits_total >= 0),
        credits_used integer NOT NULL DEFAULT 0 CHECK (credits_used >= 0 AND credits_used <= credits_total),
        expiration_date timestamptz,
        expire_content boolean NOT NULL DEFAULT false,
        tracking_identifier text NOT NULL DEFAULT '',
        available_to_all_students boolean NOT NULL DEFAULT true,
        available_for_all_offers boolean NOT NULL DEFAULT true,
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT training_credit_codes_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT training_credit_codes_org_code_uq UNIQUE (organization_id, code)
      )`);
    await q.query(`CREATE INDEX training_credit_codes_org_created_idx ON training_credit_codes (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX training_credit_codes_org_tracking_idx ON training_credit_codes (organization_id, tracking_identifier)`);

    await q.query(`
      CREATE TABLE training_credit_code_groups (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        code_id uuid NOT NULL,
        group_id uuid NOT NULL,
        created_at ${TS},
        PRIMARY KEY (code_id, group_id),
        CONSTRAINT training_credit_code_groups_code_id_fkey FOREIGN KEY (organization_id, code_id) REFERENCES training_credit_codes(organization_id, id) ON DELETE CASCADE,
        CONSTRAINT training_credit_code_groups_group_id_fkey FOREIGN KEY (organization_id, group_id) REFERENCES groups(organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX training_credit_code_groups_group_idx ON training_credit_code_groups (group_id)`);
    await q.query(`
      CREATE TABLE training_credit_code_offers (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        code_id uuid NOT NULL,
        offer_id uuid NOT NULL,
        created_at ${TS},
        PRIMARY KEY (code_id, offer_id),
        CONSTRAINT training_credit_code_offers_code_id_fkey FOREIGN KEY (organization_id, code_id) REFERENCES training_credit_codes(organization_id, id) ON DELETE CASCADE,
        CONSTRAINT training_credit_code_offers_offer_id_fkey FOREIGN KEY (organization_id, offer_id) REFERENCES offers(organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX training_credit_code_offers_offer_idx ON training_credit_code_offers (offer_id)`);

    await q.query(`
      CREATE TABLE training_credit_spends (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        code_id uuid NOT NULL,
        user_id uuid NOT NULL,
        purchase_id uuid NOT NULL,
        credits integer NOT NULL CHECK (credits >= 0),
        spent_cents integer NOT NULL CHECK (spent_cents >= 0),
        created_at ${TS},
        released_at timestamptz,
        CONSTRAINT training_credit_spends_org_purchase_uq UNIQUE (organization_id, purchase_id),
        CONSTRAINT training_credit_spends_code_id_fkey FOREIGN KEY (organization_id, code_id) REFERENCES training_credit_codes(organization_id, id) ON DELETE CASCADE,
        CONSTRAINT training_credit_spends_user_id_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users(organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX training_credit_spends_code_idx ON training_credit_spends (code_id)`);

    // ------------------------------------------------------------------ license packages
    await q.query(`
      CREATE TABLE license_packages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        domain_id uuid NOT NULL,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 500),
        tracking_id text NOT NULL DEFAULT '',
        start_date timestamptz NOT NULL,
        end_date timestamptz,
        license_count integer NOT NULL CHECK (license_count >= 0),
        max_unique_seats integer CHECK (max_unique_seats IS NULL OR max_unique_seats >= 0),
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT license_packages_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT license_packages_domain_id_fkey FOREIGN KEY (organization_id, domain_id) REFERENCES domains(organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX license_packages_org_created_idx ON license_packages (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX license_packages_domain_idx ON license_packages (domain_id)`);

    await q.query(`
      CREATE TABLE license_package_offers (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        package_id uuid NOT NULL,
        offer_id uuid NOT NULL,
        created_at ${TS},
        PRIMARY KEY (package_id, offer_id),
        CONSTRAINT license_package_offers_package_id_fkey FOREIGN KEY (organization_id, package_id) REFERENCES license_packages(organization_id, id) ON DELETE CASCADE,
        CONSTRAINT license_package_offers_offer_id_fkey FOREIGN KEY (organization_id, offer_id) REFERENCES offers(organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX license_package_offers_offer_idx ON license_package_offers (offer_id)`);

    await q.query(`
      CREATE TABLE license_seats (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        package_id uuid NOT NULL,
        user_id uuid NOT NULL,
        active boolean NOT NULL DEFAULT true,
        enrolled_at ${TS},
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT license_seats_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT license_seats_package_user_uq UNIQUE (package_id, user_id),
        CONSTRAINT license_seats_package_id_fkey FOREIGN KEY (organization_id, package_id) REFERENCES license_packages(organization_id, id) ON DELETE CASCADE,
        CONSTRAINT license_seats_user_id_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users(organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX license_seats_package_created_idx ON license_seats (package_id, created_at, id)`);
    await q.query(`CREATE INDEX license_seats_user_active_idx ON license_seats (organization_id, user_id) WHERE active`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'license_seats',
      'license_package_offers',
      'license_packages',
      'training_credit_spends',
      'training_credit_code_offers',
      'training_credit_code_groups',
      'training_credit_codes',
      'promo_code_uses',
      'promo_codes',
      'promo_code_pool_offers',
      'promo_code_pools',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
