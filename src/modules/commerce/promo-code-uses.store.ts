/**
 * The `promo_code_uses` table (the commerce module owns it): a use of a promo code by a purchase (released on refund or failure).
 * Row types are checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md); statements name the organization as `$org` (scoped()).
 */

/** A row of `promo_code_uses`, every column. @table promo_code_uses */
export interface PromoCodeUseRow {
  id: string;
  organization_id: string;
  promo_code_id: string;
  pool_id: string;
  user_id: string;
  purchase_id: string;
  created_at: Date;
  released_at: Date | null;
}
