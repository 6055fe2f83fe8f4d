import { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';

/**
 * Writes other modules ask of the lessons table (owned by this module), as functions over the
 * caller's EntityManager so they join its transaction.
 */

/** Point every live lesson of the organization that uses web package `fromId` at `toId`; the number of lessons changed. */
export async function repointWebPackage(m: EntityManager, organizationId: string, fromId: string, toId: string): Promise<number> {
  const [, affected] = await scoped(m, organizationId).query<[unknown, number]>(
    `UPDATE lessons SET content_web_package_id = $2, updated_at = date_trunc('milliseconds', now())
      WHERE organization_id = $org AND content_web_package_id = $1 AND deleted_at IS NULL`,
    [fromId, toId],
  );
  return affected;
}
