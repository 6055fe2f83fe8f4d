import type { DataSource } from 'typeorm';
import { scoped } from '../database/scoped';
import { decodeId } from '../ids/ids';

/**
 * The event log (GET /v2/events/, CONVENTIONS §20; docs/decisions/data-out.md): the outbox rows of
 * the organization, webhook events and the sync events the database writes (user.updated, ...),
 * from the last EVENT_LOG_DAYS days, in write order (created_at, seq), on the index
 * (organization_id, created_at, seq) or (organization_id, event_type, created_at, seq).
 * outbox_events belongs to core/events; this is its read side.
 */
export const EVENT_LOG_DAYS = 30;

/** An event of the log as its statements answer it. @table outbox_events */
export interface EventLogRow {
  /** the outbox seq as text: the keyset position with created_at. @column outbox_events.seq */
  id: string;
  /** @column outbox_events.created_at */
  createdAt: Date;
  event_type: string;
  payload: Record<string, unknown>;
}

export interface EventLogFilters {
  types?: string[];
  createdGte?: Date;
  after?: { t: string; id: string };
  limit: number;
}

const COLUMNS = `seq::text AS id, created_at AS "createdAt", event_type, payload`;

export async function listEvents(ds: DataSource, organizationId: string, f: EventLogFilters): Promise<EventLogRow[]> {
  const params: unknown[] = [EVENT_LOG_DAYS];
  let where = `organization_id = $org AND created_at >= now() - make_interval(days => $1)`;
  if (f.types?.length === 1) where += ` AND event_type = $${params.push(f.types[0])}`;
  else if (f.types?.length) where += ` AND event_type = ANY($${params.push(f.types)}::text[])`;
  if (f.createdGte) where += ` AND created_at >= $${params.push(f.createdGte)}`;
  if (f.after) where += ` AND (created_at, seq) > ($${params.push(f.after.t)}::timestamptz, $${params.push(f.after.id)}::bigint)`;
  const rows = await scoped(ds, organizationId).query<EventLogRow[]>(`SELECT ${COLUMNS} FROM outbox_events WHERE ${where} ORDER BY created_at, seq LIMIT ${Math.trunc(f.limit)}`, params);
  return rows;
}

/** One event of the log by its public id (`evt...`), or null (unknown, another organization's, or older than the log keeps). */
export async function getEvent(ds: DataSource, organizationId: string, publicId: string): Promise<EventLogRow | null> {
  const uuid = decodeId('event', publicId);
  if (!uuid) return null;
  const [row] = await scoped(ds, organizationId).query<EventLogRow[]>(
    `SELECT ${COLUMNS} FROM outbox_events WHERE id = $1 AND organization_id = $org AND created_at >= now() - make_interval(days => $2)`,
    [uuid, EVENT_LOG_DAYS],
  );
  return row ?? null;
}
