import type { EntityManager } from 'typeorm';
import { scoped } from '../database/scoped';

/**
 * Replace the payloads of these outbox events of the organization (anonymization rewrites the
 * events that show a person). outbox_events belongs to core/events; in the caller's transaction.
 */
export async function replaceEventPayloads(m: EntityManager, organizationId: string, ids: string[], payloads: string[]): Promise<void> {
  if (!ids.length) return;
  await scoped(m, organizationId).query(`UPDATE outbox_events e SET payload = v.payload FROM unnest($1::uuid[], $2::jsonb[]) AS v(id, payload) WHERE e.id = v.id AND e.organization_id = $org`, [
    ids,
    payloads,
  ]);
}
