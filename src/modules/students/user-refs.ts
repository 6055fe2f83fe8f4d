import { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';

/**
 * Set-wise reads of the organization's users (learners) for the objects that point at them
 * (enrollments, access codes): the `users` table belongs to this module, which alone writes it.
 */
export interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
}

/** Users of the organization by uuid. One query. */
export async function loadUsers(m: EntityManager, organizationId: string, ids: string[]): Promise<Map<string, UserRow>> {
  const out = new Map<string, UserRow>();
  if (!ids.length) return out;
  const rows: UserRow[] = await scoped(m, organizationId).query(`SELECT id, email, first_name, last_name FROM users WHERE organization_id = $org AND id = ANY($1::uuid[])`, [[...new Set(ids)]]);
  for (const r of rows) out.set(r.id, r);
  return out;
}

/** Whether this uuid is a user of the organization, and whether that user was anonymized. */
export async function userState(m: EntityManager, organizationId: string, uuid: string): Promise<'absent' | 'anonymized' | 'present'> {
  const found: Array<{ is_anonymized: boolean }> = await scoped(m, organizationId).query(`SELECT is_anonymized FROM users WHERE organization_id = $org AND id = $1`, [uuid]);
  return !found.length ? 'absent' : found[0].is_anonymized ? 'anonymized' : 'present';
}

/** An anonymized user keeps their id for history, but nothing new is made for them (CONVENTIONS §10). */
export const ANONYMIZED_USER = 'The user is anonymized and cannot be enrolled.';
/** ... nor is their profile changed (/v1 users update): the erased members stay erased. */
export const ANONYMIZED_USER_EDIT = 'The user is anonymized and cannot be edited.';
