/**
 * The `promo_code_pool_offers` table (the commerce module owns it): which offers a promo code pool applies to (a link table).
 * Row types are checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md); statements name the organization as `$org` (scoped()).
 */

/** A row of `promo_code_pool_offers`, every column. @table promo_code_pool_offers */
export interface PromoCodePoolOfferRow {
  organization_id: string;
  pool_id: string;
  offer_id: string;
  created_at: Date;
}
