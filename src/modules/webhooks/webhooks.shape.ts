import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../../core/openapi/declared-shape';

/**
 * The webhook deliveries' row types, the password mask, the ping and replay answers (the service reads and
 * writes them, the presenter shows them); not presentation, so a service imports it
 * (docs/decisions/module-graph.md).
 */

export const PASSWORD_MASK = '********';

/** A delivery's state (webhook_deliveries.status; docs/decisions/webhooks.md "Deliveries and attempts"). */
export type DeliveryStatus = 'PENDING' | 'FAILED' | 'SUCCEEDED' | 'DEAD';

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  target_url: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  delivery_id: string;
  attempt_no: number;
  started_at: Date;
  http_status: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

/**
 * The published ping answer (an inline schema of `webhooks_ping_create`, no component), declared
 * once (core/openapi/declared-shape.ts): `http_status_code` (optional, not nullable) is left out
 * when the endpoint gave no HTTP answer (docs/decisions/conformance.md, "Leaving out what has no value"). The ping is one call, not a delivery:
 * the service answers it as it sends it.
 */
export const PingSchema = Type.Object({
  succeeded: Type.Boolean(),
  http_status_code: Type.Optional(Type.Integer({ description: "The endpoint's HTTP status; left out when it gave no HTTP answer" })),
  message: Type.String(),
});
export type PingResult = Static<typeof PingSchema>;

/** What a replay answers (WebhooksService.replay, extension): how many deliveries it queued, for which time range. */
export const ReplayedSchema = Type.Object({
  replayed: Type.Integer({ description: 'The deliveries queued' }),
  since: DateTime(),
  until: DateTime(),
});
export type Replayed = Static<typeof ReplayedSchema>;
