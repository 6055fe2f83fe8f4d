import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Promo code uses count per successful purchase (CONVENTIONS §11; issue 25 item 5;
 * docs/decisions/commerce-limits.md, "When a promo use counts"). Until now a use was taken at
 * checkout and held by CREATED, PENDING and FLAGGED purchases too: those held uses are dropped and
 * every code's `use_count` is recounted as its unreleased uses, which are now exactly those of its
 * SUCCESS purchases. A pending purchase keeps its code and discount; its use counts when it succeeds.
 */
export class PromoUsesCountedAtSuccess1763700026000 implements MigrationInterface {
  name = 'PromoUsesCountedAtSuccess1763700026000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM promo_code_uses u
       WHERE u.released_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.organization_id = u.organization_id AND p.id = u.purchase_id AND p.state = 'SUCCESS')`);
    await q.query(`
      UPDATE promo_codes c SET use_count = n.held
        FROM (SELECT c2.organization_id, c2.id, count(u.id)::int AS held
                FROM promo_codes c2
                LEFT JOIN promo_code_uses u ON u.organization_id = c2.organization_id AND u.promo_code_id = c2.id AND u.released_at IS NULL
               GROUP BY c2.organization_id, c2.id) n
       WHERE c.organization_id = n.organization_id AND c.id = n.id AND c.use_count <> n.held`);
  }

  async down(): Promise<void> {
    // the held uses of unpaid purchases are not restored: counting only successes stays correct under the old code too
  }
}
