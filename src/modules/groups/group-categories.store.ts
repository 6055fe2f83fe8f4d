/**
 * The `group_categories` table (groups owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A category groups can be filed under. @table group_categories */
export interface GroupCategoryRow {
  id: string;
  organization_id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

const GROUP_CATEGORIES_ROW: { [K in keyof GroupCategoryRow]-?: true } = { id: true, organization_id: true, name: true, created_at: true, updated_at: true };

/** Every column of `group_categories` (unaliased), for a SELECT or RETURNING list: GroupCategoryRow's members, and only those. */
export const GROUP_CATEGORIES_COLUMNS = Object.keys(GROUP_CATEGORIES_ROW).join(', ');
