import { scoped, type SqlRunner } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';

/**
 * Revoke every live token family (authorization-code grant and its refreshes) whose subject is
 * `subject` in the organization: the families an administrator approved, when the administrator is
 * removed (CONVENTIONS §19). Answers the ids revoked, for AuthService.forgetFamily (the access tokens
 * carrying them are refused at once where the message reaches, within AUTH_CACHE_SECONDS anyway).
 */
export async function revokeFamiliesOfSubject(db: SqlRunner, organizationId: string, subject: string): Promise<string[]> {
  const res = await scoped(db, organizationId).query<unknown>(`UPDATE token_families SET revoked_at = now() WHERE organization_id = $org AND subject = $1 AND revoked_at IS NULL RETURNING id`, [
    subject,
  ]);
  const rows: { id: string }[] = rowsOf(res);
  return rows.map((r) => r.id);
}
