/**
 * The `manager_access_paths` table (domain-users owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A learning path a manager access names, in order. @table manager_access_paths */
export interface ManagerAccessPathRow {
  organization_id: string;
  manager_access_id: string;
  path_id: string;
  position: number;
}

const MANAGER_ACCESS_PATHS_ROW: { [K in keyof ManagerAccessPathRow]-?: true } = { organization_id: true, manager_access_id: true, path_id: true, position: true };

/** Every column of `manager_access_paths` (unaliased), for a SELECT or RETURNING list: ManagerAccessPathRow's members, and only those. */
export const MANAGER_ACCESS_PATHS_COLUMNS = Object.keys(MANAGER_ACCESS_PATHS_ROW).join(', ');
