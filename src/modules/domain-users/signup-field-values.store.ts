/**
 * The `signup_field_values` table (domain-users owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A user's answer to a signup field. @table signup_field_values */
export interface SignupFieldValueRow {
  id: string;
  organization_id: string;
  user_id: string;
  signup_field_id: string;
  value: string;
  created_at: Date;
  updated_at: Date;
}

const SIGNUP_FIELD_VALUES_ROW: { [K in keyof SignupFieldValueRow]-?: true } = {
  id: true,
  organization_id: true,
  user_id: true,
  signup_field_id: true,
  value: true,
  created_at: true,
  updated_at: true,
};

/** Every column of `signup_field_values` (unaliased), for a SELECT or RETURNING list: SignupFieldValueRow's members, and only those. */
export const SIGNUP_FIELD_VALUES_COLUMNS = Object.keys(SIGNUP_FIELD_VALUES_ROW).join(', ');
