import type { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';

/**
 * The organization's group named `name`, made when there is none (a manager's managed group, made
 * from `group_name`: domain-users manager access, CONVENTIONS §17). Group names are unique in an
 * organization (groups_org_name_uq); in the caller's transaction.
 */
export async function groupNamed(m: EntityManager, organizationId: string, name: string): Promise<{ id: string; created: boolean }> {
  const db = scoped(m, organizationId);
  const inserted = rowsOf<{ id: string }>(await db.query<unknown>(`INSERT INTO groups (organization_id, name) VALUES ($org, $1) ON CONFLICT (organization_id, name) DO NOTHING RETURNING id`, [name]));
  if (inserted.length) return { id: inserted[0].id, created: true };
  const [row] = await db.query<{ id: string }[]>(`SELECT id FROM groups WHERE organization_id = $org AND name = $1`, [name]);
  return { id: row.id, created: false };
}
