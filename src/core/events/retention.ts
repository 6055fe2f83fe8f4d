import type { DataSource } from 'typeorm';
import { unscoped } from '../database/scoped';

/**
 * One bounded batch of outbox events relayed more than `days` ago whose deliveries are all
 * finished (SUCCEEDED or DEAD): their deliveries and attempts go with them (ON DELETE CASCADE).
 * An event with a delivery still pending or due for a retry is kept whatever its age. Run by the
 * maintenance clean-up; the number of events deleted.
 */
export async function deleteRelayedEvents(ds: DataSource, batch: number, days: number): Promise<number> {
  const [, affected] = (await unscoped(ds, 'clean-up across organizations').query(
    `DELETE FROM outbox_events WHERE id IN (
       SELECT e.id FROM outbox_events e
        WHERE e.relayed_at < now() - make_interval(days => $2)
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status IN ('PENDING', 'FAILED'))
        LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    [batch, days],
  )) as [unknown[], number];
  return affected;
}
