/**
 * The `offers` table (the commerce module owns it): the price and registration state of a sellable object, one per object.
 * Row types are checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md); statements name the organization as `$org` (scoped()).
 */

/** A row of `offers`, every column. @table offers */
export interface OfferTableRow {
  id: string;
  organization_id: string;
  published_path_id: string | null;
  plan_id: string | null;
  course_series_id: string | null;
  published_course_id: string | null;
  is_default: boolean;
  registration_open: boolean;
  price_cents: number | null;
  currency_code: string;
  sku: string | null;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The default offer of an owner (loadOffers). @table offers */
export interface OfferRow {
  id: string;
  /** @computed the owner column (published_path_id, plan_id, course_series_id or published_course_id) */
  owner_id: string;
  registration_open: boolean;
  price_cents: number | null;
  currency_code: string;
}
