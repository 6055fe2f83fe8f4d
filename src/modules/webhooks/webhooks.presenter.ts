import { Type, type Static } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../core/events/outbox';
import { encodeId } from '../../core/ids/ids';
import { DateTime, declaredV1, ext, nullable, PublicId, StringEnum } from '../../core/openapi/declared-shape';
import type { Webhook } from './webhook.entity';
import { PASSWORD_MASK, type DeliveryRow, type DeliveryStatus, type AttemptRow } from './webhooks.shape';
export { PASSWORD_MASK, PingSchema, ReplayedSchema, type DeliveryRow, type DeliveryStatus, type AttemptRow, type PingResult, type Replayed } from './webhooks.shape';

const DEACTIVATE_REASONS = ['HTTP_4XX_RESPONSE', 'RETRY_COUNT', 'TOO_MANY_REDIRECTS', 'ORG_DISABLED'] as const;

/** The published /v1 WebHook, declared once (core/openapi/declared-shape.ts). The password is masked, the secret never shown. */
export const WebhookSchema = declaredV1(
  'WebHook',
  Type.Object({
    id: PublicId(),
    target_url: Type.String({ format: 'uri' }),
    active: Type.Boolean(),
    deactivate_reason: nullable(StringEnum(DEACTIVATE_REASONS)),
    event_type: nullable(StringEnum(EVENT_TYPES)),
    basic_auth_username: Type.String(),
    basic_auth_password: Type.String(),
    additional_headers: Type.Record(Type.String(), Type.String()),
  }),
);
export type WebhookV1 = Static<typeof WebhookSchema>;

/** What the rotate-secret answers: the WebHook, the new secret (shown this once) and when the old one stops signing. */
export const RotatedWebhookSchema = declaredV1(
  'WebHook',
  Type.Object({
    ...WebhookSchema.properties,
    secret: Type.String(ext({ description: 'The new signing secret, shown this once' })),
    previous_secret_expires_at: DateTime(ext({ description: 'When the previous secret stops signing' })),
  }),
);

export function presentWebhook(w: Webhook): WebhookV1 {
  return {
    id: encodeId('webhook', w.id),
    target_url: w.targetUrl,
    active: w.active,
    deactivate_reason: w.deactivateReason,
    event_type: w.eventType,
    basic_auth_username: w.basicAuthUsername,
    basic_auth_password: w.basicAuthPassword ? PASSWORD_MASK : '',
    additional_headers: w.additionalHeaders ?? {},
  };
}

const DELIVERY_STATUSES = ['PENDING', 'FAILED', 'SUCCEEDED', 'DEAD'] as const satisfies readonly DeliveryStatus[];

/** One attempt of a delivery (newest last). */
export const DeliveryAttemptSchema = Type.Object({
  attempt_no: Type.Integer(),
  started_at: DateTime(),
  http_status: nullable(Type.Integer({ description: 'null when the endpoint gave no HTTP answer' })),
  latency_ms: Type.Integer(),
  error: nullable(Type.String()),
  response_excerpt: nullable(Type.String({ description: "The answer's first 1 KiB" })),
});

/**
 * A delivery of an event to the webhook with its attempts (extension, docs/decisions/webhooks.md
 * "Deliveries and attempts"): what presentDelivery answers, declared once (core/openapi/declared-shape.ts).
 */
export const DeliverySchema = Type.Object({
  id: PublicId(),
  event_id: PublicId({ description: "The event's id (its webhook-id)" }),
  event_type: Type.String(),
  target_url: Type.String({ format: 'uri' }),
  status: StringEnum(DELIVERY_STATUSES, {
    description: 'PENDING: not attempted yet; FAILED: the last attempt failed, the next is at next_attempt_at; SUCCEEDED; DEAD: no more attempts',
  }),
  attempt_count: Type.Integer(),
  next_attempt_at: nullable(DateTime({ description: 'The next attempt, while the delivery is PENDING or FAILED; else null' })),
  last_http_status: nullable(Type.Integer()),
  last_error: nullable(Type.String()),
  created_at: DateTime(),
  updated_at: DateTime(),
  attempts: Type.Array(DeliveryAttemptSchema),
});
export type DeliveryV1 = Static<typeof DeliverySchema>;

const isoOrNull = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
const isoOf = (d: Date | string) => new Date(d).toISOString();

export function presentDelivery(d: DeliveryRow, attempts: AttemptRow[]): DeliveryV1 {
  return {
    id: encodeId('delivery', d.id),
    event_id: encodeId('event', d.event_id),
    event_type: d.event_type,
    target_url: d.target_url,
    status: d.status,
    attempt_count: d.attempt_count,
    next_attempt_at: d.status === 'PENDING' || d.status === 'FAILED' ? isoOrNull(d.next_attempt_at) : null,
    last_http_status: d.last_status,
    last_error: d.last_error,
    created_at: isoOf(d.created_at),
    updated_at: isoOf(d.updated_at),
    attempts: attempts.map((a) => ({
      attempt_no: a.attempt_no,
      started_at: isoOf(a.started_at),
      http_status: a.http_status,
      latency_ms: a.latency_ms,
      error: a.error,
      response_excerpt: a.response_excerpt,
    })),
  };
}

/** A delivery as the service reads it (one delivery with its attempts). */
export const presentDeliveryOf = ({ row, attempts }: { row: DeliveryRow; attempts: AttemptRow[] }) => presentDelivery(row, attempts);
