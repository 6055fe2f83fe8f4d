/**
 * The `domain_user_invites` table (domain-users owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** An invitation of a domain user (its token kept as a hash). @table domain_user_invites */
export interface DomainUserInviteRow {
  id: string;
  organization_id: string;
  domain_id: string;
  user_id: string;
  send_email: boolean;
  sent_at: Date | null;
  used_at: Date | null;
  created_at: Date;
  /** moved by every real change of the row (sent, used): the trigger data_out_touch */
  updated_at: Date;
  token_hash: Buffer;
}

const DOMAIN_USER_INVITES_ROW: { [K in keyof DomainUserInviteRow]-?: true } = {
  id: true,
  organization_id: true,
  domain_id: true,
  user_id: true,
  send_email: true,
  sent_at: true,
  used_at: true,
  created_at: true,
  updated_at: true,
  token_hash: true,
};

/** Every column of `domain_user_invites` (unaliased), for a SELECT or RETURNING list: DomainUserInviteRow's members, and only those. */
export const DOMAIN_USER_INVITES_COLUMNS = Object.keys(DOMAIN_USER_INVITES_ROW).join(', ');
