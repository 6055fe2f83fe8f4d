/**
 * The delivery body: exactly the outbox payload (the same members and values), serialised with
 * `id`, `event_type` and `timestamp` first as the platform's samples show them (jsonb does not
 * keep member order).
 */
export function eventBody(payload: Record<string, unknown>): Record<string, unknown> {
  const { id, event_type, timestamp, ...rest } = payload;
  return { id, event_type, timestamp, ...rest };
}
