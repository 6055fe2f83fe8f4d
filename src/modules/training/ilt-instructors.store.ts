/**
 * The `ilt_instructors` table (training owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** An instructor of live training. @table ilt_instructors */
export interface IltInstructorRow {
  id: string;
  organization_id: string;
  email: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

const ILT_INSTRUCTORS_ROW: { [K in keyof IltInstructorRow]-?: true } = { id: true, organization_id: true, email: true, name: true, created_at: true, updated_at: true };

/** Every column of `ilt_instructors` (unaliased), for a SELECT or RETURNING list: IltInstructorRow's members, and only those. */
export const ILT_INSTRUCTORS_COLUMNS = Object.keys(ILT_INSTRUCTORS_ROW).join(', ');
