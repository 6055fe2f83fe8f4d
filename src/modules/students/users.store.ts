/**
 * The `users` table (students owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A user (a student) of an organization. @table users */
export interface UserRow {
  id: string;
  organization_id: string;
  email: string;
  first_name: string;
  last_name: string;
  external_id: string;
  is_inactive: boolean;
  is_anonymized: boolean;
  sso_provider: string | null;
  password_hash: string | null;
  password_changed_at: Date | null;
  deactivated_at: Date | null;
  anonymized_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const USERS_ROW: { [K in keyof UserRow]-?: true } = {
  id: true,
  organization_id: true,
  email: true,
  first_name: true,
  last_name: true,
  external_id: true,
  is_inactive: true,
  is_anonymized: true,
  sso_provider: true,
  password_hash: true,
  password_changed_at: true,
  deactivated_at: true,
  anonymized_at: true,
  created_at: true,
  updated_at: true,
};

/** Every column of `users` (unaliased), for a SELECT or RETURNING list: UserRow's members, and only those. */
export const USERS_COLUMNS = Object.keys(USERS_ROW).join(', ');
