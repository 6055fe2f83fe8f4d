import { Controller, Type } from '@nestjs/common';
import { ApiExtension, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { V1 } from '../../core/http/interfaces';
import { OnHandlers, V1PageQuery as PageQuery } from '../../core/http/v1-controller-kit';
import { MethodRef } from '../../core/http/service-ref';
import { V1Resource, V1ResourceSpec } from '../../core/routes/v1-resource';
import { paramError, strParam } from '../../core/http/v1-rules';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import {
  IltSessionDto,
  InstructorDto,
  InstructorPatchDto,
  MultiSessionEventDto,
  MultiSessionEventPatchDto,
  PROVIDERS,
  RegistrationCreateDto,
  RegistrationPatchDto,
  RegistrationUpdateDto,
} from './dto/training.dto';
import { InstructorsService } from './instructors.service';
import { MultiSessionsService } from './multi-sessions.service';
import { RegistrationRow, RegistrationsService } from './registrations.service';
import { SessionsService } from './sessions.service';
import { presentIltSession, presentInstructor, presentMultiSessionEvent, presentRegistration, presentRegistrationItem, presentRegistrationUpdate, presentSessionEvent } from './training.presenter';

/** Page sizes the published document leaves to the caller (`page_size`); capped at 100. */
const CAP = V1_PAGE_CAP.small;

/** A filter value: absent or empty filters nothing. */
const filter = (q: Record<string, unknown>, name: string) => {
  const v = strParam(q, name);
  return v === '' ? undefined : v;
};

/** The published handler names of a /v1 training resource: list, create, retrieve, update (PUT), partialUpdate (PATCH), destroy. */
const HANDLERS = { create: 'create', read: 'retrieve', update: 'update', remove: 'destroy' } as const;

/** The service methods of a training resource's operations (remove: where it has a destroy). */
type Calls<S> = Record<'list' | 'create' | 'read' | 'update', MethodRef<S>> & { remove?: MethodRef<S> };

/**
 * The operations of a /v1 training resource (ILT instructors, multi-session events, ILT sessions)
 * under their published handler names: the list in pages of up to CAP (`filters`: its query
 * filters), create and update with `body` (`patchBody`: PATCH's own body; `putOnly`: no PATCH),
 * retrieve, and destroy where `calls` names its method.
 */
const trainingOps = <S>(
  calls: Calls<S>,
  opts: { body: Type; patchBody?: Type; putOnly?: boolean; filters?: (q: Record<string, unknown>) => unknown },
): Pick<V1ResourceSpec<S>, 'list' | 'create' | 'read' | 'update' | 'remove'> => ({
  list: { call: calls.list, handler: 'list', cap: CAP, filters: opts.filters },
  create: { call: calls.create, handler: HANDLERS.create, body: opts.body },
  read: { call: calls.read, handler: HANDLERS.read },
  update: { call: calls.update, handler: HANDLERS.update, body: opts.body, patchBody: opts.patchBody, putOnly: opts.putOnly },
  remove: calls.remove && { call: calls.remove, handler: HANDLERS.remove },
});

/** ilt_instructors_list: `email` and `provider` exact. */
const instructorFilters = (q: Record<string, unknown>) => {
  const provider = filter(q, 'provider');
  if (provider !== undefined && !(PROVIDERS as readonly string[]).includes(provider)) {
    throw paramError('provider', `Select a valid choice. ${provider.slice(0, 100)} is not one of the available choices.`);
  }
  return { email: filter(q, 'email'), provider, updatedSince: v1UpdatedSince(q) };
};

/** /v1/ilt-instructors (instructors:*). */
@V1()
@OnHandlers({
  list: [
    ApiQuery({ name: 'provider', required: false, schema: { type: 'string', enum: [...PROVIDERS] } }),
    ApiQuery({ name: 'email', required: false, schema: { type: 'string' } }),
    ApiQuery(V1_UPDATED_SINCE_QUERY),
    PageQuery(CAP),
  ],
})
@V1Resource<InstructorsService>({
  service: InstructorsService,
  id: 'id',
  scopes: 'instructors',
  present: presentInstructor,
  ...trainingOps<InstructorsService>(
    { list: (s) => s.list, create: (s) => s.create, read: (s) => s.read, update: (s) => s.update, remove: (s) => s.remove },
    { body: InstructorDto, patchBody: InstructorPatchDto, filters: instructorFilters },
  ),
})
@Controller('v1/ilt-instructors')
export class IltInstructorsV1Controller {
  constructor(private readonly instructors: InstructorsService) {}
}

/** /v1/ilt-multi-session-events (vilt-sessions:*). */
@V1()
@OnHandlers({ list: [ApiQuery(V1_UPDATED_SINCE_QUERY), PageQuery(CAP)] })
@V1Resource<MultiSessionsService>({
  service: MultiSessionsService,
  id: 'multi_session_event_id',
  scopes: 'vilt-sessions',
  present: presentMultiSessionEvent,
  ...trainingOps<MultiSessionsService>(
    { list: (s) => s.listMulti, create: (s) => s.createMulti, read: (s) => s.readMulti, update: (s) => s.updateMulti },
    { body: MultiSessionEventDto, patchBody: MultiSessionEventPatchDto, filters: (q) => ({ updatedSince: v1UpdatedSince(q) }) },
  ),
})
@Controller('v1/ilt-multi-session-events')
export class IltMultiSessionEventsV1Controller {
  constructor(private readonly sessions: MultiSessionsService) {}
}

/** /v1/ilt-sessions (vilt-sessions:*): list, create, read, update (PUT), as published; delete, an extension. */
@V1()
@OnHandlers({
  list: [ApiQuery(V1_UPDATED_SINCE_QUERY), PageQuery(CAP)],
  // beyond the published document: a scheduled session cancelled (its registrants mailed a cancellation)
  destroy: [
    ApiExtension('x-extension', true),
    ApiOperation({
      description:
        'Extension (not in the published API): deletes the ILT session and mails every learner registered for it a cancellation (METHOD:CANCEL, the UID of its invitations). ' +
        "A lesson-based session goes with its registrations; a session of a multi-session event goes alone (the event's registrations stay).",
    }),
  ],
})
@V1Resource<SessionsService>({
  service: SessionsService,
  id: 'ilt_session_id',
  scopes: 'vilt-sessions',
  present: presentIltSession,
  ...trainingOps<SessionsService>(
    { list: (s) => s.listEvents, create: (s) => s.createSession, read: (s) => s.readEvent, update: (s) => s.updateSession, remove: (s) => s.deleteSession },
    { body: IltSessionDto, putOnly: true, filters: (q) => ({ updatedSince: v1UpdatedSince(q) }) },
  ),
})
@Controller('v1/ilt-sessions')
export class IltSessionsV1Controller {
  constructor(private readonly sessions: SessionsService) {}
}

/** /v1/vilt-session-events (vilt-sessions:read): the scheduled meetings, filtered by course, lesson and time. */
@V1()
@OnHandlers({
  list: [
    ApiQuery({ name: 'ends_at__lte', required: false, schema: { type: 'string' } }),
    ApiQuery({ name: 'starts_at__gte', required: false, schema: { type: 'string' } }),
    ApiQuery({ name: 'session__lesson__id', required: false, schema: { type: 'string' } }),
    ApiQuery({ name: 'session__lesson__course__id', required: false, schema: { type: 'string' } }),
    ApiQuery(V1_UPDATED_SINCE_QUERY),
    PageQuery(CAP),
  ],
})
@V1Resource<SessionsService>({
  service: SessionsService,
  id: 'vilt_session_event_id',
  scopes: 'vilt-sessions',
  present: presentSessionEvent,
  list: {
    call: (s) => s.listEvents,
    handler: 'list',
    cap: CAP,
    filters: (q: Record<string, unknown>) => ({
      courseId: filter(q, 'session__lesson__course__id'),
      lessonId: filter(q, 'session__lesson__id'),
      startsAtGte: filter(q, 'starts_at__gte'),
      endsAtLte: filter(q, 'ends_at__lte'),
      updatedSince: v1UpdatedSince(q),
    }),
  },
  read: { call: (s) => s.readEvent, handler: HANDLERS.read },
})
@Controller('v1/vilt-session-events')
export class ViltSessionEventsV1Controller {
  constructor(private readonly sessions: SessionsService) {}
}

/** A V1Resource over RegistrationsService: each operation presents as published (the list item, the registration, the update's result). */
const registrations = (present: (r: RegistrationRow) => unknown, ops: Omit<V1ResourceSpec<RegistrationsService>, 'service' | 'id' | 'scopes' | 'present'>) =>
  V1Resource<RegistrationsService>({ service: RegistrationsService, id: 'vilt_session_registration_id', scopes: 'vilt-sessions', present, ...ops });

/**
 * /v1/vilt-session-registrations (vilt-sessions:*): pages of up to 1000 (section 8). PUT and PATCH
 * are both partial updates, as published ("Both PATCH and PUT perform partial updates"); PUT
 * requires `attended`. vilt_session_registrations_destroy: the registration removed, its seat
 * freed, a cancellation (METHOD:CANCEL) mailed.
 */
@V1()
@OnHandlers({ list: [ApiQuery({ name: 'session__id', required: false, schema: { type: 'string' } }), ApiQuery(V1_UPDATED_SINCE_QUERY), PageQuery(V1_PAGE_CAP.large)] })
@registrations(presentRegistrationUpdate, {
  update: { call: (s) => s.update, handler: HANDLERS.update, body: RegistrationUpdateDto, patchBody: RegistrationPatchDto },
  remove: { call: (s) => s.remove, handler: HANDLERS.remove },
})
@registrations(presentRegistration, { create: { call: (s) => s.create, handler: HANDLERS.create, body: RegistrationCreateDto }, read: { call: (s) => s.read, handler: HANDLERS.read } })
@registrations(presentRegistrationItem, {
  list: { call: (s) => s.list, cap: V1_PAGE_CAP.large, filters: (q: Record<string, unknown>) => ({ sessionId: filter(q, 'session__id'), updatedSince: v1UpdatedSince(q) }) },
})
@Controller('v1/vilt-session-registrations')
export class ViltSessionRegistrationsV1Controller {
  constructor(private readonly registrations: RegistrationsService) {}
}
