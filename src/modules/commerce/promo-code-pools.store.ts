import type { DiscountType } from './dto/promo-codes.dto';

/**
 * The `promo_code_pools` table (the commerce module owns it): a discount (price or percent off) and the window its codes are valid in.
 * Row types are checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md); statements name the organization as `$org` (scoped()).
 */

/** A row of `promo_code_pools`, every column. @table promo_code_pools */
export interface PromoCodePoolRow {
  id: string;
  organization_id: string;
  name: string;
  active: boolean;
  starts_at: Date;
  expires_at: Date | null;
  expire_content: boolean;
  discount_type: string;
  price_cents: number | null;
  percent_off: number | null;
  single_use_per_user: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A pool as the /v1 operations answer it (POOL_COLS). @table promo_code_pools */
export interface PoolRow {
  id: string;
  name: string;
  active: boolean;
  starts_at: Date;
  expires_at: Date | null;
  expire_content: boolean;
  discount_type: DiscountType;
  price_cents: number | null;
  percent_off: number | null;
  single_use_per_user: boolean;
}
