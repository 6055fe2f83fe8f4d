/**
 * The `group_access_code_pools` table (groups owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** An access code pool linked to a group. @table group_access_code_pools */
export interface GroupAccessCodePoolRow {
  group_id: string;
  access_code_pool_id: string;
  organization_id: string;
  created_at: Date;
}

const GROUP_ACCESS_CODE_POOLS_ROW: { [K in keyof GroupAccessCodePoolRow]-?: true } = { group_id: true, access_code_pool_id: true, organization_id: true, created_at: true };

/** Every column of `group_access_code_pools` (unaliased), for a SELECT or RETURNING list: GroupAccessCodePoolRow's members, and only those. */
export const GROUP_ACCESS_CODE_POOLS_COLUMNS = Object.keys(GROUP_ACCESS_CODE_POOLS_ROW).join(', ');
