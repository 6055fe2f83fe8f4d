import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { EVENT_TYPES } from '../../core/events/outbox';
import { EventLogRow, getEvent, listEvents } from '../../core/events/log';
import { notFound } from '../../core/http/api-error';
import { V2 } from '../../core/http/interfaces';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { eventBody } from '../webhooks/event-body';
import { DELETED_EVENT_TYPES } from './deleted-events';
import { dateTimeParam, stringParam } from '../../core/http/query-params';
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, openApi, V2DocumentSchema, V2PageSchema, V2UnlinkedResourceSchema } from '../../core/openapi/declared-shape';

/**
 * The sync events the database writes, beside the webhook event types: users, enrollments and course
 * progress (migrations/1763770000000-data-out.ts), and the `*.deleted` of every other deletable list
 * (DELETED_EVENTS, migrations/1763990000000-deleted-events.ts).
 */
export const LEARNER_SYNC_EVENT_TYPES = ['user.updated', 'user.deactivated', 'user.deleted', 'enrollment.updated', 'enrollment.deleted', 'progress.updated', 'progress.deleted'] as const;
export const SYNC_EVENT_TYPES: readonly string[] = [...LEARNER_SYNC_EVENT_TYPES, ...DELETED_EVENT_TYPES];
export const LOG_EVENT_TYPES: readonly string[] = [...EVENT_TYPES, ...SYNC_EVENT_TYPES];

/**
 * The event resource (CONVENTIONS §20), declared once (core/openapi/declared-shape.ts): presentEvent's
 * type and the /v2/events answers of /openapi.json. The body is what a webhook delivery carries; its
 * members beyond id, event_type and timestamp depend on the event type (not typed here: the webhook
 * event bodies are `Record<string, unknown>`, issue 26 point 6).
 */
export const EventSchema = V2UnlinkedResourceSchema(
  'events',
  Type.Object({
    event_type: Type.String({ description: `${LOG_EVENT_TYPES.join(', ')}` }),
    created_at: DateTime(),
    body: Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      description: 'What a webhook delivery of the event carries: id, event_type, timestamp, then the objects it concerns',
      required: ['id', 'event_type', 'timestamp'],
      properties: { id: { type: 'string' }, event_type: { type: 'string' }, timestamp: { type: 'string', format: 'date-time' } },
      additionalProperties: true,
    }),
  }),
);
export type EventResource = Static<typeof EventSchema>;

/** An event of the log: its body is exactly what a webhook delivery of it carries. */
export function presentEvent(r: EventLogRow): EventResource {
  const body = eventBody(r.payload);
  return {
    type: 'events',
    id: String(body.id),
    attributes: { event_type: r.event_type, created_at: new Date(r.createdAt).toISOString(), body },
  };
}

/**
 * GET /v2/events/ and /v2/events/{id} (CONVENTIONS §20, extension): every event the platform
 * recorded in the last 30 days, webhook event types and sync events, oldest first, cursor paginated.
 * `filter[type]` (comma-separated; an unknown type matches nothing), `filter[created_gte]`.
 * Scope `data-export:read`, or `webhooks:read` (whoever may read what webhooks carry).
 */
@ApiTags('events')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/events')
export class EventsV2Controller {
  constructor(private readonly ds: DataSource) {}

  @Get()
  @Scopes('data-export:read', 'webhooks:read')
  @ApiQuery({ name: 'filter[type]', required: false, schema: { type: 'string' }, description: `comma-separated: ${LOG_EVENT_TYPES.join(', ')}` })
  @ApiQuery({ name: 'filter[created_gte]', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiOkResponse({ description: 'A page of events, oldest first', schema: openApi(V2PageSchema(EventSchema)) })
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('events') page: V2Page) {
    const createdGte = dateTimeParam(query, 'filter[created_gte]', true);
    const rawTypes = stringParam(query, 'filter[type]', 10_000);
    let types: string[] | undefined;
    if (rawTypes !== undefined) {
      types = [
        ...new Set(
          rawTypes
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ];
      const known = types.filter((t) => LOG_EVENT_TYPES.includes(t));
      // a list filter never fails on an odd value: an unknown type matches nothing
      if (!known.length) return page.document([] as EventLogRow[], presentEvent);
      types = known;
    }
    const rows = await listEvents(this.ds, p.organizationId, { types, createdGte, after: page.after, limit: page.size + 1 });
    return page.document(rows, presentEvent);
  }

  @Get(':id')
  @Scopes('data-export:read', 'webhooks:read')
  @ApiOkResponse({ description: 'The event', schema: openApi(V2DocumentSchema(EventSchema)) })
  async get(@Auth() p: Principal, @Param('id') id: string) {
    const row = await getEvent(this.ds, p.organizationId, id);
    if (!row) throw notFound('Event not found.');
    return { data: presentEvent(row) };
  }
}
