/**
 * The `promo_codes` table (the commerce module owns it): a code of a pool, with its maximum and current number of uses.
 * Row types are checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md); statements name the organization as `$org` (scoped()).
 */

/** A row of `promo_codes`, every column. @table promo_codes */
export interface PromoCodeTableRow {
  id: string;
  organization_id: string;
  pool_id: string;
  code: string;
  max_uses: number;
  use_count: number;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A promo code as the /v1 operations answer it (CODE_COLS). @table promo_codes */
export interface PromoCodeRow {
  id: string;
  pool_id: string;
  code: string;
  max_uses: number;
  use_count: number;
  active: boolean;
}
