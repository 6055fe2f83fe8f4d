import { EntityManager } from 'typeorm';
import { eventDomain, eventUser, UserCols } from '../../core/events/bodies';
import { recordEvents } from '../../core/events/outbox';

/**
 * Writes other modules ask of domain_users (owned by this module), as functions over the caller's
 * EntityManager so they join its transaction.
 */

/**
 * Memberships of the domain that carried a code of this pool (`{ poolId }`) or this code
 * (`{ codeId }`) keep the membership and lose the code; used when access codes are deleted.
 */
export async function detachAccessCodes(m: EntityManager, organizationId: string, domainId: string, which: { poolId: string } | { codeId: string }): Promise<void> {
  if ('poolId' in which) {
    await m.query(
      `UPDATE domain_users SET access_code_id = NULL, updated_at = now()
        WHERE domain_id = $1 AND organization_id = $2 AND access_code_id IN (SELECT id FROM access_codes WHERE pool_id = $3 AND organization_id = $2)`,
      [domainId, organizationId, which.poolId],
    );
  } else {
    await m.query(`UPDATE domain_users SET access_code_id = NULL, updated_at = now() WHERE domain_id = $1 AND organization_id = $2 AND access_code_id = $3`, [domainId, organizationId, which.codeId]);
  }
}

/**
 * Anonymization of a person: their signup field values go, their marketing opt-in is forgotten on
 * every domain, and their unused invitations are deleted (memberships stay). In the caller's transaction.
 */
export async function erasePersonFromDomains(m: EntityManager, organizationId: string, userId: string): Promise<void> {
  await m.query(`DELETE FROM signup_field_values WHERE user_id = $1 AND organization_id = $2`, [userId, organizationId]);
  await m.query(`UPDATE domain_users SET marketing_optin = NULL, updated_at = date_trunc('milliseconds', now()) WHERE user_id = $1 AND organization_id = $2 AND marketing_optin IS NOT NULL`, [
    userId,
    organizationId,
  ]);
  await m.query(`DELETE FROM domain_user_invites WHERE user_id = $1 AND organization_id = $2 AND used_at IS NULL`, [userId, organizationId]);
}

/**
 * Make the user a member of the domain unless they are one (commerce fulfilment: a purchase on a
 * domain registers its buyer there), recording DOMAIN_ENROLLMENT with the purchase when the
 * membership is new. In the caller's transaction. True when this call created the membership.
 */
export async function joinDomainFor(m: EntityManager, o: { organizationId: string; domain: { id: string; name: string }; user: UserCols; purchase: Record<string, unknown> | null }): Promise<boolean> {
  const inserted = await m.query(`INSERT INTO domain_users (organization_id, domain_id, user_id, active) VALUES ($1, $2, $3, true) ON CONFLICT (domain_id, user_id) DO NOTHING RETURNING id`, [
    o.organizationId,
    o.domain.id,
    o.user.id,
  ]);
  if (!inserted.length) return false;
  await recordEvents(m, [{ organizationId: o.organizationId, type: 'DOMAIN_ENROLLMENT', objects: { user: eventUser(o.user), purchase: o.purchase, domain: eventDomain(o.domain) } }]);
  return true;
}
