/**
 * The `license_packages` table (the commerce module owns it): a number of seats on a domain sold as one package.
 * Row types are checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md); statements name the organization as `$org` (scoped()).
 */

/** A row of `license_packages`, every column. @table license_packages */
export interface LicensePackageRow {
  id: string;
  organization_id: string;
  domain_id: string;
  name: string;
  tracking_id: string;
  start_date: Date;
  end_date: Date | null;
  license_count: number;
  max_unique_seats: number | null;
  created_at: Date;
  updated_at: Date;
}

/** A license package with its active seats and offers (PKG_COLS). @table license_packages */
export interface PackageRow {
  id: string;
  domain_id: string;
  name: string;
  tracking_id: string;
  start_date: Date;
  end_date: Date | null;
  license_count: number;
  max_unique_seats: number | null;
  /** @computed active seats */
  seats_active: number;
  /** @computed the offers of license_package_offers */
  offer_ids: string[];
}
