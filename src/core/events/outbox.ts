import { EntityManager } from 'typeorm';
import { decodeId, newUuid, encodeId } from '../ids/ids';
import type { EventObjectsOf, EventPayload, EventType } from './event-payloads';

export type { EventType, EventPayload } from './event-payloads';

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
] as const satisfies readonly EventType[];
/** every declared type is in EVENT_TYPES (a type declared in event-payloads.ts and left out here fails to compile) */
const everyType: Exclude<EventType, (typeof EVENT_TYPES)[number]> extends never ? true : never = true;
void everyType;

/**
 * The objects an event of type T concerns (its declared body, event-payloads.ts, without what
 * recordEvents fills in), named as the platform's samples name them (CONVENTIONS.md sections 6
 * and 10, ../shared/reference/webhook-event-samples.md). recordEvents adds what every event
 * carries about the user on the domain (`domain_access_code`, `signup_fields`) and `purchase` on
 * the event types that can come from one, unless the caller sets them.
 */
export type EventObjects<T extends EventType = EventType> = EventObjectsOf<T>;

/** Event types whose registration may come from a purchase: they carry `purchase` (null when none). */
export const PURCHASE_EVENT_TYPES: ReadonlySet<EventType> = new Set(['COURSE_ENROLLMENT', 'PATH_ENROLLMENT', 'DOMAIN_ENROLLMENT', 'PURCHASE_FULFILLMENT']);

interface Membership {
  access_code: string | null;
  fields: { id: string; label: string; value: string }[];
}

/**
 * What the user's membership of the event's domain says, for every event that names both (one
 * query for the whole batch, in the caller's transaction so a membership written with the event
 * is seen): the access code the user joined the domain with, and their signup-field values for the
 * fields that apply to the domain (the organization's own and the domain's), in field order.
 */
async function memberships(manager: EntityManager, events: PendingEvent[]): Promise<(Membership | null)[]> {
  const keys = events.map((e) => {
    const user = decodeId('student', (e.objects.user as { id?: string } | undefined)?.id);
    const domain = decodeId('domain', (e.objects.domain as { id?: string } | undefined)?.id);
    return user && domain ? { user, domain, org: e.organizationId } : null;
  });
  const wanted = keys.filter((k): k is NonNullable<typeof k> => k !== null);
  if (!wanted.length) return keys.map(() => null);
  const rows: (Membership & { user_id: string; domain_id: string })[] = await manager.query(
    `SELECT x.user_id, x.domain_id,
            (SELECT ac.code FROM domain_users du JOIN access_codes ac ON ac.id = du.access_code_id
              WHERE du.user_id = x.user_id AND du.domain_id = x.domain_id AND du.organization_id = x.org_id) AS access_code,
            (SELECT coalesce(json_agg(json_build_object('id', sf.id, 'label', sf.label, 'value', v.value) ORDER BY sf."order", sf.created_at, sf.id), '[]'::json)
               FROM signup_field_values v JOIN signup_fields sf ON sf.id = v.signup_field_id
              WHERE v.user_id = x.user_id AND v.organization_id = x.org_id AND sf.organization_id = x.org_id
                AND (sf.domain_id IS NULL OR sf.domain_id = x.domain_id)) AS fields
       FROM (SELECT DISTINCT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS t(user_id, domain_id, org_id)) x`,
    [wanted.map((k) => k.user), wanted.map((k) => k.domain), wanted.map((k) => k.org)],
  );
  const byKey = new Map(rows.map((r) => [`${r.user_id}/${r.domain_id}`, r]));
  return keys.map((k) => (k ? (byKey.get(`${k.user}/${k.domain}`) ?? null) : null));
}

/** `signup_fields` as the platform sends it: keyed by signup-field id, `{value, signup_field {id, label}}`. */
function signupFieldsMember(m: Membership | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of m?.fields ?? []) {
    const id = encodeId('signupField', f.id);
    out[id] = { value: f.value, signup_field: { id, label: f.label } };
  }
  return out;
}

/** An event to record: its type and the objects of that type's declared body (a wrong body does not compile). */
export type PendingEvent<T extends EventType = EventType> = { [K in T]: { organizationId: string; type: K; objects: EventObjectsOf<K> } }[T];

/** Record events in the outbox within the caller's transaction; one INSERT for all of them. */
export async function recordEvents(manager: EntityManager, events: PendingEvent[]): Promise<string[]> {
  if (!events.length) return [];
  const now = new Date();
  const values: unknown[] = [];
  const rows: string[] = [];
  const ids: string[] = [];
  const member = await memberships(manager, events);
  events.forEach((e, i) => {
    const id = newUuid();
    ids.push(id);
    const common: Record<string, unknown> = {};
    if (PURCHASE_EVENT_TYPES.has(e.type)) common.purchase = null;
    common.domain_access_code = member[i]?.access_code ?? null;
    common.signup_fields = signupFieldsMember(member[i]);
    const payload = eventBody(e.type, encodeId('event', id), now.toISOString(), common, e.objects);
    values.push(id, e.organizationId, e.type, JSON.stringify(payload));
    rows.push(`($${i * 4 + 1}::uuid, $${i * 4 + 2}::uuid, $${i * 4 + 3}, $${i * 4 + 4}::jsonb)`);
  });
  await manager.query(`INSERT INTO outbox_events (id, organization_id, event_type, payload) VALUES ${rows.join(', ')}`, values);
  return ids;
}

export function recordEvent<T extends EventType>(manager: EntityManager, event: PendingEvent<T>): Promise<string[]> {
  return recordEvents(manager, [event as PendingEvent]);
}

/** The body recordEvents writes for `objects` (the common members first; what the caller sets wins). */
export function eventBody<T extends EventType>(type: T, id: string, timestamp: string, common: Record<string, unknown>, objects: EventObjectsOf<T>): EventPayload<T> {
  return { id, event_type: type, timestamp, ...common, ...objects } as unknown as EventPayload<T>;
}
