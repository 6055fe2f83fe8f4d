import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Commerce limits (issue 11; docs/decisions/commerce-limits.md): the composite foreign keys between
 * purchases (migration 1763700017000) and the limits tables (1763700017100), which could not be
 * declared while the two were written at the same time:
 * - what a checkout took belongs to its purchase: promo_code_uses.purchase_id and
 *   training_credit_spends.purchase_id -> purchases, ON DELETE CASCADE;
 * - a purchase's links to what it used: purchases.promo_code_id -> promo_codes,
 *   purchases.training_credit_code_id -> training_credit_codes, purchases.license_package_id ->
 *   license_packages, ON DELETE SET NULL of the reference only (the purchase keeps its amounts; the
 *   promo-code deletes also clear the code text through purchases.store clearPromoCodeUse).
 * References to rows that are gone are cleared (or the claim rows removed) first.
 */
const KEYS = [
  { table: 'promo_code_uses', column: 'purchase_id', parent: 'purchases', onDelete: 'CASCADE' },
  { table: 'training_credit_spends', column: 'purchase_id', parent: 'purchases', onDelete: 'CASCADE' },
  { table: 'purchases', column: 'promo_code_id', parent: 'promo_codes', onDelete: 'SET NULL (promo_code_id)' },
  { table: 'purchases', column: 'training_credit_code_id', parent: 'training_credit_codes', onDelete: 'SET NULL (training_credit_code_id)' },
  { table: 'purchases', column: 'license_package_id', parent: 'license_packages', onDelete: 'SET NULL (license_package_id)' },
];

export class CommerceLimitsPurchaseKeys1763700017101 implements MigrationInterface {
  name = 'CommerceLimitsPurchaseKeys1763700017101';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM promo_code_uses u WHERE NOT EXISTS (SELECT 1 FROM purchases p WHERE p.organization_id = u.organization_id AND p.id = u.purchase_id)`);
    await q.query(`DELETE FROM training_credit_spends s WHERE NOT EXISTS (SELECT 1 FROM purchases p WHERE p.organization_id = s.organization_id AND p.id = s.purchase_id)`);
    for (const k of KEYS.filter((x) => x.table === 'purchases')) {
      await q.query(
        `UPDATE purchases t SET ${k.column} = NULL WHERE t.${k.column} IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM ${k.parent} p WHERE p.organization_id = t.organization_id AND p.id = t.${k.column})`,
      );
    }
    for (const k of KEYS) {
      await q.query(`ALTER TABLE ${k.table} ADD CONSTRAINT ${k.table}_${k.column}_fkey FOREIGN KEY (organization_id, ${k.column}) REFERENCES ${k.parent}(organization_id, id) ON DELETE ${k.onDelete}`);
    }
    await q.query(`CREATE INDEX purchases_org_credit_code_idx ON purchases (organization_id, training_credit_code_id) WHERE training_credit_code_id IS NOT NULL`);
    await q.query(`CREATE INDEX purchases_org_license_package_idx ON purchases (organization_id, license_package_id) WHERE license_package_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS purchases_org_license_package_idx`);
    await q.query(`DROP INDEX IF EXISTS purchases_org_credit_code_idx`);
    for (const k of KEYS) await q.query(`ALTER TABLE ${k.table} DROP CONSTRAINT IF EXISTS ${k.table}_${k.column}_fkey`);
  }
}
