/**
 * The `visibility_overrides` table (groups owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** Whether a group sees a published course (in place of its default visibility). @table visibility_overrides */
export interface VisibilityOverrideRow {
  id: string;
  organization_id: string;
  group_id: string;
  published_course_id: string;
  is_visible: boolean;
  created_at: Date;
  updated_at: Date;
}

const VISIBILITY_OVERRIDES_ROW: { [K in keyof VisibilityOverrideRow]-?: true } = {
  id: true,
  organization_id: true,
  group_id: true,
  published_course_id: true,
  is_visible: true,
  created_at: true,
  updated_at: true,
};

/** Every column of `visibility_overrides` (unaliased), for a SELECT or RETURNING list: VisibilityOverrideRow's members, and only those. */
export const VISIBILITY_OVERRIDES_COLUMNS = Object.keys(VISIBILITY_OVERRIDES_ROW).join(', ');
