/**
 * The `manager_access` table (domain-users owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A domain user's manager access over a group. @table manager_access */
export interface ManagerAccessRow {
  id: string;
  organization_id: string;
  domain_id: string;
  user_id: string;
  group_id: string;
  can_create_users: boolean;
  course_access_level: string;
  path_access_level: string;
  created_at: Date;
  updated_at: Date;
}

const MANAGER_ACCESS_ROW: { [K in keyof ManagerAccessRow]-?: true } = {
  id: true,
  organization_id: true,
  domain_id: true,
  user_id: true,
  group_id: true,
  can_create_users: true,
  course_access_level: true,
  path_access_level: true,
  created_at: true,
  updated_at: true,
};

/** Every column of `manager_access` (unaliased), for a SELECT or RETURNING list: ManagerAccessRow's members, and only those. */
export const MANAGER_ACCESS_COLUMNS = Object.keys(MANAGER_ACCESS_ROW).join(', ');
