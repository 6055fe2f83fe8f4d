/**
 * The `admin_roles` table (the organizations module owns it): the row type its statements answer
 * (row-types.spec.ts checks it against the migrated schema; docs/decisions/data-access.md).
 */

/** A custom administrator role. @table admin_roles */
export interface AdminRoleRow {
  name: string;
  scopes: string[];
  created_at: Date;
  updated_at: Date;
}
