/**
 * The `license_seats` table (the commerce module owns it): a learner holding (or having held) a seat of a license package.
 * Row types are checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md); statements name the organization as `$org` (scoped()).
 */

/** A row of `license_seats`, every column. @table license_seats */
export interface LicenseSeatRow {
  id: string;
  organization_id: string;
  package_id: string;
  user_id: string;
  active: boolean;
  enrolled_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** A seat with its learner (SEAT_COLS). @table license_seats */
export interface SeatRow {
  id: string;
  user_id: string;
  active: boolean;
  enrolled_at: Date;
  /** @column users.email */
  email: string;
  /** @column users.first_name */
  first_name: string;
  /** @column users.last_name */
  last_name: string;
}
