import { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';

/**
 * PUT/PATCH of an organization's row: `UPDATE <table> SET <each member of `members` that was sent
 * (not undefined)>, updated_at = now (milliseconds) WHERE id AND organization_id`, one statement;
 * none when nothing was sent. Used by offers and plans (a general SQL helper: core/database/sql.ts
 * is its natural home).
 */
export async function updateSent(m: EntityManager, table: string, id: string, organizationId: string, members: Record<string, unknown>): Promise<void> {
  const sent = Object.entries(members).filter(([, v]) => v !== undefined);
  if (!sent.length) return;
  const sets = sent.map(([column], i) => `${column} = $${i + 2}`);
  await scoped(m, organizationId).query(`UPDATE ${table} SET ${sets.join(', ')}, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`, [
    id,
    ...sent.map(([, v]) => v),
  ]);
}
