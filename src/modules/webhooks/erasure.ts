import { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';

/**
 * Anonymization: a receiver may echo the body, so the delivery diagnostics (attempt response
 * excerpts and errors, the delivery's last error) of these events that mention one of `needles`
 * (lower-case) are cleared. webhook_deliveries and webhook_attempts belong to this module.
 */
export async function clearDiagnosticsMentioning(m: EntityManager, organizationId: string, eventIds: string[], needles: string[]): Promise<void> {
  if (!eventIds.length || !needles.length) return;
  const db = scoped(m, organizationId);
  const mentions = (col: string) => `EXISTS (SELECT 1 FROM unnest($2::text[]) AS n(s) WHERE strpos(lower(${col}), n.s) > 0)`;
  await db.query(
    `UPDATE webhook_attempts a SET response_excerpt = NULL
      FROM webhook_deliveries d
     WHERE a.delivery_id = d.id AND d.event_id = ANY($1::uuid[]) AND d.organization_id = $org AND a.response_excerpt IS NOT NULL AND ${mentions('a.response_excerpt')}`,
    [eventIds, needles],
  );
  await db.query(
    `UPDATE webhook_attempts a SET error = NULL
      FROM webhook_deliveries d
     WHERE a.delivery_id = d.id AND d.event_id = ANY($1::uuid[]) AND d.organization_id = $org AND a.error IS NOT NULL AND ${mentions('a.error')}`,
    [eventIds, needles],
  );
  await db.query(
    `UPDATE webhook_deliveries d SET last_error = NULL
      WHERE d.event_id = ANY($1::uuid[]) AND d.organization_id = $org AND d.last_error IS NOT NULL AND ${mentions('d.last_error')}`,
    [eventIds, needles],
  );
}
