import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/** The objects that carry an offer, the column naming them on `offers`, and the title its description takes. */
const OWNERS = [
  { table: 'published_courses', column: 'published_course_id', title: `(SELECT c.title FROM courses c WHERE c.id = NEW.course_id AND c.organization_id = NEW.organization_id)` },
  { table: 'published_paths', column: 'published_path_id', title: `(SELECT p.title FROM paths p WHERE p.id = NEW.path_id AND p.organization_id = NEW.organization_id)` },
  { table: 'plans', column: 'plan_id', title: `NEW.name` },
  { table: 'course_series', column: 'course_series_id', title: `NEW.title` },
];

/**
 * Commerce core (issue 11 items 1-2, docs/decisions/commerce.md).
 *
 * Offers: exactly one per published course, published path, plan and course series (CONVENTIONS
 * §11). Duplicates a fixture may have made are folded into the oldest (nothing references offers
 * yet), each owner column gets a unique index, a row names exactly one owner, and an AFTER INSERT
 * trigger on each owner table creates its free, open offer in the same statement, whatever code
 * path (API, fixture, import) creates the object; every existing object without one gets it here.
 * `offers` gets UNIQUE (organization_id, id) for the composite keys that reference it.
 *
 * Purchases: one row per checkout, with every price member computed at checkout, the state of §11,
 * what fulfilment created (`grants`) and the links to what the limits took (promo code, credits,
 * licence seat; their tables are commerce-limits', linked without a key here).
 */
export class Commerce1763700017000 implements MigrationInterface {
  name = 'Commerce1763700017000';

  async up(q: QueryRunner): Promise<void> {
    for (const o of OWNERS) {
      await q.query(
        `DELETE FROM offers o USING offers k
          WHERE o.${o.column} = k.${o.column} AND o.organization_id = k.organization_id
            AND (o.created_at, o.id) > (k.created_at, k.id)`,
      );
    }
    await q.query(`ALTER TABLE offers ADD CONSTRAINT offers_organization_id_id_key UNIQUE (organization_id, id)`);
    await q.query(`ALTER TABLE offers ADD CONSTRAINT offers_one_owner CHECK (num_nonnulls(published_path_id, plan_id, course_series_id, published_course_id) = 1)`);
    for (const o of OWNERS) {
      await q.query(`CREATE UNIQUE INDEX offers_${o.column}_uq ON offers (${o.column}) WHERE ${o.column} IS NOT NULL`);
      await q.query(`
        CREATE FUNCTION offers_for_${o.table}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO offers (organization_id, ${o.column}, registration_open, price_cents, description)
          VALUES (NEW.organization_id, NEW.id, true, NULL, left(coalesce(${o.title}, ''), 500))
          ON CONFLICT DO NOTHING;
          RETURN NULL;
        END $$`);
      await q.query(`CREATE TRIGGER offers_for_${o.table} AFTER INSERT ON ${o.table} FOR EACH ROW EXECUTE FUNCTION offers_for_${o.table}()`);
    }
    await q.query(`
      INSERT INTO offers (organization_id, published_course_id, description)
      SELECT pc.organization_id, pc.id, left(c.title, 500) FROM published_courses pc JOIN courses c ON c.id = pc.course_id
       WHERE NOT EXISTS (SELECT 1 FROM offers o WHERE o.published_course_id = pc.id)`);
    await q.query(`
      INSERT INTO offers (organization_id, published_path_id, description)
      SELECT pp.organization_id, pp.id, left(p.title, 500) FROM published_paths pp JOIN paths p ON p.id = pp.path_id
       WHERE NOT EXISTS (SELECT 1 FROM offers o WHERE o.published_path_id = pp.id)`);
    await q.query(`
      INSERT INTO offers (organization_id, plan_id, description)
      SELECT organization_id, id, left(name, 500) FROM plans x WHERE NOT EXISTS (SELECT 1 FROM offers o WHERE o.plan_id = x.id)`);
    await q.query(`
      INSERT INTO offers (organization_id, course_series_id, description)
      SELECT organization_id, id, left(title, 500) FROM course_series x WHERE NOT EXISTS (SELECT 1 FROM offers o WHERE o.course_series_id = x.id)`);

    await q.query(`
      CREATE TABLE purchases (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        offer_id uuid NOT NULL,
        order_id text NOT NULL,
        state text NOT NULL DEFAULT 'CREATED' CHECK (state IN ('CREATED', 'PENDING', 'SUCCESS', 'FAILED', 'CANCELLED', 'FLAGGED', 'REFUNDED')),
        status_msg text NOT NULL DEFAULT '',
        quantity integer NOT NULL DEFAULT 1 CHECK (quantity >= 1),
        currency_code text NOT NULL,
        offer_price_cents integer NOT NULL CHECK (offer_price_cents >= 0),
        offer_sku text NOT NULL DEFAULT '',
        offer_description text NOT NULL DEFAULT '',
        promo_code_id uuid,
        promo_code text,
        promo_code_percent_off integer,
        promo_code_price_cents integer CHECK (promo_code_price_cents IS NULL OR promo_code_price_cents >= 0),
        promo_code_quantity integer NOT NULL DEFAULT 0,
        promo_discount_cents integer NOT NULL DEFAULT 0 CHECK (promo_discount_cents >= 0),
        group_discount_percent integer,
        group_discount_cents integer NOT NULL DEFAULT 0 CHECK (group_discount_cents >= 0),
        training_credit_code_id uuid,
        training_credit_code text,
        credits_cents integer NOT NULL DEFAULT 0 CHECK (credits_cents >= 0),
        license_package_id uuid,
        tax_price_cents integer CHECK (tax_price_cents IS NULL OR tax_price_cents >= 0),
        price_cents integer NOT NULL CHECK (price_cents >= 0),
        refund_cents integer CHECK (refund_cents IS NULL OR refund_cents >= 0),
        refunded_at timestamptz,
        payment_processor text NOT NULL DEFAULT 'NONE'
          CHECK (payment_processor IN ('NONE', 'STRIPE', 'STRIPE_BTC', 'PAYPAL', 'PAYFLOW', 'CYBERSRC', 'MES', 'EXTERNAL')),
        payment_processor_order_id text NOT NULL DEFAULT '',
        payment_processor_response_data text NOT NULL DEFAULT '',
        grants jsonb,
        fulfilled_at timestamptz,
        purchased_at ${TS},
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT purchases_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT purchases_user_id_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users(organization_id, id) ON DELETE CASCADE,
        CONSTRAINT purchases_offer_id_fkey FOREIGN KEY (organization_id, offer_id) REFERENCES offers(organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX purchases_org_created_idx ON purchases (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX purchases_org_user_idx ON purchases (organization_id, user_id)`);
    await q.query(`CREATE INDEX purchases_org_offer_idx ON purchases (organization_id, offer_id)`);
    await q.query(`CREATE INDEX purchases_org_promo_code_idx ON purchases (organization_id, promo_code_id) WHERE promo_code_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS purchases`);
    for (const o of OWNERS) {
      await q.query(`DROP TRIGGER IF EXISTS offers_for_${o.table} ON ${o.table}`);
      await q.query(`DROP FUNCTION IF EXISTS offers_for_${o.table}()`);
      await q.query(`DROP INDEX IF EXISTS offers_${o.column}_uq`);
    }
    await q.query(`ALTER TABLE offers DROP CONSTRAINT IF EXISTS offers_one_owner`);
    await q.query(`ALTER TABLE offers DROP CONSTRAINT IF EXISTS offers_organization_id_id_key`);
  }
}
