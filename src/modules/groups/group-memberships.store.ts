/**
 * The `group_memberships` table (groups owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A student in a group. @table group_memberships */
export interface GroupMembershipRow {
  group_id: string;
  user_id: string;
  organization_id: string;
  created_at: Date;
  id: string;
}

const GROUP_MEMBERSHIPS_ROW: { [K in keyof GroupMembershipRow]-?: true } = { group_id: true, user_id: true, organization_id: true, created_at: true, id: true };

/** Every column of `group_memberships` (unaliased), for a SELECT or RETURNING list: GroupMembershipRow's members, and only those. */
export const GROUP_MEMBERSHIPS_COLUMNS = Object.keys(GROUP_MEMBERSHIPS_ROW).join(', ');
