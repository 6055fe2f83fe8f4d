import { EntityManager } from 'typeorm';
import { newUuid, encodeId } from '../ids/ids';

/**
 * Domain events go to the transactional outbox: written with the SAME EntityManager (transaction)
 * as the change that causes them, so an event exists if and only if its change committed. The
 * worker relays outbox rows to webhook deliveries; nothing is lost while Redis or the worker is down.
 */
export const EVENT_TYPES = [
  'COURSE_COMPLETION',
  'COURSE_ENROLLMENT',
  'DOMAIN_ENROLLMENT',
  'LESSON_COMPLETION',
  'PATH_COMPLETION',
  'PATH_ENROLLMENT',
  'PURCHASE_FULFILLMENT',
  'QUIZ_COMPLETION',
  'VILT_EVENT_REGISTRATION',
  'DASHBOARD_TASK_CREATED',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The objects an event concerns, named as the platform's samples name them (CONVENTIONS.md
 * section 6): user {id, email, first_name, last_name}, course {id, published_course_id, title, url},
 * domain {id, name}, path {...}, purchase {...}, lesson {...}, quiz {...}.
 */
export type EventObjects = Record<string, Record<string, unknown> | null>;

export interface PendingEvent {
  organizationId: string;
  type: EventType;
  objects: EventObjects;
}

/** Record events in the outbox within the caller's transaction; one INSERT for all of them. */
export async function recordEvents(manager: EntityManager, events: PendingEvent[]): Promise<string[]> {
  if (!events.length) return [];
  const now = new Date();
  const values: unknown[] = [];
  const rows: string[] = [];
  const ids: string[] = [];
  events.forEach((e, i) => {
    const id = newUuid();
    ids.push(id);
    const payload = { id: encodeId('event', id), event_type: e.type, timestamp: now.toISOString(), ...e.objects };
    values.push(id, e.organizationId, e.type, JSON.stringify(payload));
    rows.push(`($${i * 4 + 1}::uuid, $${i * 4 + 2}::uuid, $${i * 4 + 3}, $${i * 4 + 4}::jsonb)`);
  });
  await manager.query(`INSERT INTO outbox_events (id, organization_id, event_type, payload) VALUES ${rows.join(', ')}`, values);
  return ids;
}

export function recordEvent(manager: EntityManager, event: PendingEvent): Promise<string[]> {
  return recordEvents(manager, [event]);
}
