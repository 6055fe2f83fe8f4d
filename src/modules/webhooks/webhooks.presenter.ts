import { Type, type Static } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../core/events/outbox';
import { encodeId } from '../../core/ids/ids';
import { DateTime, declaredV1, ext, nullable, PublicId, StringEnum } from '../../core/openapi/declared-shape';
import type { Webhook } from './webhook.entity';
import { PASSWORD_MASK, type DeliveryRow, type AttemptRow } from './webhooks.shape';
export { PASSWORD_MASK, type DeliveryRow, type AttemptRow } from './webhooks.shape';

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

const dateTime = { type: 'string', format: 'date-time' };
const orNull = (s: object) => ({ ...s, nullable: true });

/** What presentDelivery answers (declared for the OpenAPI document). */
export const DELIVERY_SCHEMA = {
  type: 'object',
  required: ['id', 'event_id', 'event_type', 'target_url', 'status', 'attempt_count', 'next_attempt_at', 'last_http_status', 'last_error', 'created_at', 'updated_at', 'attempts'],
  properties: {
    id: { type: 'string' },
    event_id: { type: 'string' },
    event_type: { type: 'string' },
    target_url: { type: 'string', format: 'uri' },
    status: { type: 'string' },
    attempt_count: { type: 'integer' },
    next_attempt_at: orNull(dateTime),
    last_http_status: orNull({ type: 'integer' }),
    last_error: orNull({ type: 'string' }),
    created_at: dateTime,
    updated_at: dateTime,
    attempts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['attempt_no', 'started_at', 'http_status', 'latency_ms', 'error', 'response_excerpt'],
        properties: {
          attempt_no: { type: 'integer' },
          started_at: dateTime,
          http_status: orNull({ type: 'integer' }),
          latency_ms: { type: 'integer' },
          error: orNull({ type: 'string' }),
          response_excerpt: orNull({ type: 'string' }),
        },
      },
    },
  },
};

/** What a replay answers (WebhooksService.replay): how many deliveries it queued, for which time range. */
export const REPLAYED_SCHEMA = {
  type: 'object',
  required: ['replayed', 'since', 'until'],
  properties: {
    replayed: { type: 'integer', description: 'The deliveries queued' },
    since: dateTime,
    until: dateTime,
  },
};

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function presentDelivery(d: DeliveryRow, attempts: AttemptRow[]) {
  return {
    id: encodeId('delivery', d.id),
    event_id: encodeId('event', d.event_id),
    event_type: d.event_type,
    target_url: d.target_url,
    status: d.status,
    attempt_count: d.attempt_count,
    next_attempt_at: d.status === 'PENDING' || d.status === 'FAILED' ? iso(d.next_attempt_at) : null,
    last_http_status: d.last_status,
    last_error: d.last_error,
    created_at: iso(d.created_at),
    updated_at: iso(d.updated_at),
    attempts: attempts.map((a) => ({
      attempt_no: a.attempt_no,
      started_at: iso(a.started_at),
      http_status: a.http_status,
      latency_ms: a.latency_ms,
      error: a.error,
      response_excerpt: a.response_excerpt,
    })),
  };
}

/** A delivery as the service reads it (one delivery with its attempts). */
export const presentDeliveryOf = ({ row, attempts }: { row: DeliveryRow; attempts: AttemptRow[] }) => presentDelivery(row, attempts);
