/**
 * The `manager_access_courses` table (domain-users owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A course a manager access names, in order. @table manager_access_courses */
export interface ManagerAccessCourseRow {
  organization_id: string;
  manager_access_id: string;
  course_id: string;
  position: number;
}

const MANAGER_ACCESS_COURSES_ROW: { [K in keyof ManagerAccessCourseRow]-?: true } = { organization_id: true, manager_access_id: true, course_id: true, position: true };

/** Every column of `manager_access_courses` (unaliased), for a SELECT or RETURNING list: ManagerAccessCourseRow's members, and only those. */
export const MANAGER_ACCESS_COURSES_COLUMNS = Object.keys(MANAGER_ACCESS_COURSES_ROW).join(', ');
