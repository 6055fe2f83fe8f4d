import { EntityManager } from 'typeorm';

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
    await m.query(`UPDATE domain_users SET access_code_id = NULL, updated_at = now() WHERE domain_id = $1 AND organization_id = $2 AND access_code_id = $3`, [
      domainId,
      organizationId,
      which.codeId,
    ]);
  }
}
