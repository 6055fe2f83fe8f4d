/**
 * The `groups` table (groups owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A student group of an organization (hard-deleted; memberships and visibility overrides cascade). @table groups */
export interface GroupRow {
  id: string;
  organization_id: string;
  name: string;
  category_id: string | null;
  rule_email_domains: string[];
  send_course_enrollment_email: boolean | null;
  discount_percent: number | null;
  sign_up_field_rule: object | null;
  created_at: Date;
  updated_at: Date;
}

const GROUPS_ROW: { [K in keyof GroupRow]-?: true } = {
  id: true,
  organization_id: true,
  name: true,
  category_id: true,
  rule_email_domains: true,
  send_course_enrollment_email: true,
  discount_percent: true,
  sign_up_field_rule: true,
  created_at: true,
  updated_at: true,
};

/** Every column of `groups` (unaliased), for a SELECT or RETURNING list: GroupRow's members, and only those. */
export const GROUPS_COLUMNS = Object.keys(GROUPS_ROW).join(', ');
