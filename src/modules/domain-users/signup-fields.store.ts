/**
 * The `signup_fields` table (domain-users owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A signup field of the organization or of one domain. @table signup_fields */
export interface SignupFieldRow {
  id: string;
  organization_id: string;
  domain_id: string | null;
  type: string;
  label: string;
  help_text: string;
  regex_validator: string;
  regex_validator_error_text: string;
  required: boolean;
  active: boolean;
  order: number;
  options: unknown;
  created_at: Date;
  updated_at: Date;
}

const SIGNUP_FIELDS_ROW: { [K in keyof SignupFieldRow]-?: true } = {
  id: true,
  organization_id: true,
  domain_id: true,
  type: true,
  label: true,
  help_text: true,
  regex_validator: true,
  regex_validator_error_text: true,
  required: true,
  active: true,
  order: true,
  options: true,
  created_at: true,
  updated_at: true,
};

/** Every column of `signup_fields` (unaliased), for a SELECT or RETURNING list: SignupFieldRow's members, and only those. */
export const SIGNUP_FIELDS_COLUMNS = Object.keys(SIGNUP_FIELDS_ROW).join(', ');
