/**
 * The `domain_users` table (domain-users owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A user registered on a domain (a domain membership). @table domain_users */
export interface DomainUserRow {
  id: string;
  organization_id: string;
  domain_id: string;
  user_id: string;
  active: boolean;
  marketing_optin: boolean | null;
  enrolled_at: Date;
  expires_at: Date | null;
  access_code_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const DOMAIN_USERS_ROW: { [K in keyof DomainUserRow]-?: true } = {
  id: true,
  organization_id: true,
  domain_id: true,
  user_id: true,
  active: true,
  marketing_optin: true,
  enrolled_at: true,
  expires_at: true,
  access_code_id: true,
  created_at: true,
  updated_at: true,
};

/** Every column of `domain_users` (unaliased), for a SELECT or RETURNING list: DomainUserRow's members, and only those. */
export const DOMAIN_USERS_COLUMNS = Object.keys(DOMAIN_USERS_ROW).join(', ');
