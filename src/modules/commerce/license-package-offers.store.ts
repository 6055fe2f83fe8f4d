/**
 * The `license_package_offers` table (the commerce module owns it): which offers a license package covers (a link table).
 * Row types are checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md); statements name the organization as `$org` (scoped()).
 */

/** A row of `license_package_offers`, every column. @table license_package_offers */
export interface LicensePackageOfferRow {
  organization_id: string;
  package_id: string;
  offer_id: string;
  created_at: Date;
}
