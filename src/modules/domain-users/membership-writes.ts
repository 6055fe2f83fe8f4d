import { EntityManager } from 'typeorm';
import { eventDomain, eventUser, UserCols } from '../../core/events/bodies';
import { recordEvents } from '../../core/events/outbox';
import type { EventPurchase } from '../../core/events/event-payloads';
import { scoped } from '../../core/database/scoped';

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
    await scoped(m, organizationId).query(
      `UPDATE domain_users SET access_code_id = NULL, updated_at = now()
        WHERE domain_id = $1 AND organization_id = $org AND access_code_id IN (SELECT id FROM access_codes WHERE pool_id = $2 AND organization_id = $org)`,
      [domainId, which.poolId],
    );
  } else {
    await scoped(m, organizationId).query(`UPDATE domain_users SET access_code_id = NULL, updated_at = now() WHERE domain_id = $1 AND organization_id = $org AND access_code_id = $2`, [
      domainId,
      which.codeId,
    ]);
  }
}

/**
 * Anonymization of a person: their signup field values go, their marketing opt-in is forgotten on
 * every domain, and their unused invitations are deleted (memberships stay). In the caller's transaction.
 */
export async function erasePersonFromDomains(m: EntityManager, organizationId: string, userId: string): Promise<void> {
  await scoped(m, organizationId).query(`DELETE FROM signup_field_values WHERE user_id = $1 AND organization_id = $org`, [userId]);
  await scoped(m, organizationId).query(
    `UPDATE domain_users SET marketing_optin = NULL, updated_at = date_trunc('milliseconds', now()) WHERE user_id = $1 AND organization_id = $org AND marketing_optin IS NOT NULL`,
    [userId],
  );
  await scoped(m, organizationId).query(`DELETE FROM domain_user_invites WHERE user_id = $1 AND organization_id = $org AND used_at IS NULL`, [userId]);
}

/**
 * Make the user a member of the domain unless they are one (commerce fulfilment: a purchase on a
 * domain registers its buyer there), recording DOMAIN_ENROLLMENT with the purchase when the
 * membership is new. In the caller's transaction. True when this call created the membership.
 */
export async function joinDomainFor(m: EntityManager, o: { organizationId: string; domain: { id: string; name: string }; user: UserCols; purchase: EventPurchase | null }): Promise<boolean> {
  const inserted = await scoped(m, o.organizationId).query<{ id: string }[]>(
    `INSERT INTO domain_users (organization_id, domain_id, user_id, active) VALUES ($org, $1, $2, true) ON CONFLICT (domain_id, user_id) DO NOTHING RETURNING id`,
    [o.domain.id, o.user.id],
  );
  if (!inserted.length) return false;
  await recordEvents(m, [{ organizationId: o.organizationId, type: 'DOMAIN_ENROLLMENT', objects: { user: eventUser(o.user), purchase: o.purchase, domain: eventDomain(o.domain) } }]);
  return true;
}
