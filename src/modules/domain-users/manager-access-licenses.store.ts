/**
 * The `manager_access_licenses` table (domain-users owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A license package a manager access names, in order. @table manager_access_licenses */
export interface ManagerAccessLicenseRow {
  organization_id: string;
  manager_access_id: string;
  license_package_id: string;
  position: number;
}

const MANAGER_ACCESS_LICENSES_ROW: { [K in keyof ManagerAccessLicenseRow]-?: true } = { organization_id: true, manager_access_id: true, license_package_id: true, position: true };

/** Every column of `manager_access_licenses` (unaliased), for a SELECT or RETURNING list: ManagerAccessLicenseRow's members, and only those. */
export const MANAGER_ACCESS_LICENSES_COLUMNS = Object.keys(MANAGER_ACCESS_LICENSES_ROW).join(', ');
