import { applyDecorators, Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiExtension, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { paramError, strParam } from '../../core/http/v1-rules';
import { Paged, V1_PAGE_CAP, V1Page } from '../../core/pagination/v1-page';
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
import { RegistrationsService } from './registrations.service';
import { SessionsService } from './sessions.service';
import {
  presentIltSession,
  presentInstructor,
  presentMultiSessionEvent,
  presentRegistration,
  presentRegistrationItem,
  presentRegistrationUpdate,
  presentSessionEvent,
} from './training.presenter';

/** Page sizes the published document leaves to the caller (`page_size`); capped at 100. */
const CAP = V1_PAGE_CAP.small;

/** The published `page` and `page_size` query parameters of a list, in the OpenAPI document. */
const PageQuery = (cap: number) =>
  applyDecorators(
    ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1 } }),
    ApiQuery({ name: 'page_size', required: false, schema: { type: 'integer', minimum: 1, maximum: cap } }),
  );

/** A filter value: absent or empty filters nothing. */
const filter = (q: Record<string, unknown>, name: string) => {
  const v = strParam(q, name);
  return v === '' ? undefined : v;
};

/** /v1/ilt-instructors (instructors:*). */
@V1()
@Controller('v1/ilt-instructors')
export class IltInstructorsV1Controller {
  constructor(private readonly instructors: InstructorsService) {}

  /** ilt_instructors_list: `email` and `provider` exact. */
  @Get()
  @Scopes('instructors:read')
  @PageQuery(CAP)
  @ApiQuery({ name: 'email', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'provider', required: false, schema: { type: 'string', enum: [...PROVIDERS] } })
  async list(@Auth() p: Principal, @Query() q: Record<string, unknown>, @Paged(CAP) page: V1Page) {
    const provider = filter(q, 'provider');
    if (provider !== undefined && !(PROVIDERS as readonly string[]).includes(provider)) {
      throw paramError('provider', `Select a valid choice. ${provider.slice(0, 100)} is not one of the available choices.`);
    }
    const { rows, count } = await this.instructors.list(p, page, { email: filter(q, 'email'), provider });
    return page.list(rows.map(presentInstructor), count);
  }

  @Post()
  @Scopes('instructors:write')
  async create(@Auth() p: Principal, @Body() dto: InstructorDto) {
    return presentInstructor(await this.instructors.create(p, dto));
  }

  @Get(':id')
  @Scopes('instructors:read')
  async retrieve(@Auth() p: Principal, @Param('id') id: string) {
    return presentInstructor(await this.instructors.read(p, id));
  }

  @Put(':id')
  @Scopes('instructors:write')
  async update(@Auth() p: Principal, @Param('id') id: string, @Body() dto: InstructorDto) {
    return presentInstructor(await this.instructors.update(p, id, dto));
  }

  @Patch(':id')
  @Scopes('instructors:write')
  async partialUpdate(@Auth() p: Principal, @Param('id') id: string, @Body() dto: InstructorPatchDto) {
    return presentInstructor(await this.instructors.update(p, id, dto));
  }

  @Delete(':id')
  @HttpCode(204)
  @Scopes('instructors:write')
  async destroy(@Auth() p: Principal, @Param('id') id: string) {
    await this.instructors.remove(p, id);
  }
}

/** /v1/ilt-multi-session-events (vilt-sessions:*). */
@V1()
@Controller('v1/ilt-multi-session-events')
export class IltMultiSessionEventsV1Controller {
  constructor(private readonly sessions: MultiSessionsService) {}

  @Get()
  @Scopes('vilt-sessions:read')
  @PageQuery(CAP)
  async list(@Auth() p: Principal, @Paged(CAP) page: V1Page) {
    const { rows, count } = await this.sessions.listMulti(p, page);
    return page.list(rows.map(presentMultiSessionEvent), count);
  }

  @Post()
  @Scopes('vilt-sessions:write')
  async create(@Auth() p: Principal, @Body() dto: MultiSessionEventDto) {
    return presentMultiSessionEvent(await this.sessions.createMulti(p, dto));
  }

  @Get(':multi_session_event_id')
  @Scopes('vilt-sessions:read')
  async retrieve(@Auth() p: Principal, @Param('multi_session_event_id') id: string) {
    return presentMultiSessionEvent(await this.sessions.readMulti(p, id));
  }

  @Put(':multi_session_event_id')
  @Scopes('vilt-sessions:write')
  async update(@Auth() p: Principal, @Param('multi_session_event_id') id: string, @Body() dto: MultiSessionEventDto) {
    return presentMultiSessionEvent(await this.sessions.updateMulti(p, id, dto));
  }

  @Patch(':multi_session_event_id')
  @Scopes('vilt-sessions:write')
  async partialUpdate(@Auth() p: Principal, @Param('multi_session_event_id') id: string, @Body() dto: MultiSessionEventPatchDto) {
    return presentMultiSessionEvent(await this.sessions.updateMulti(p, id, dto));
  }
}

/** /v1/ilt-sessions (vilt-sessions:*): list, create, read, update (PUT), as published; delete, an extension. */
@V1()
@Controller('v1/ilt-sessions')
export class IltSessionsV1Controller {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  @Scopes('vilt-sessions:read')
  @PageQuery(CAP)
  async list(@Auth() p: Principal, @Paged(CAP) page: V1Page) {
    const { rows, count } = await this.sessions.listEvents(p, page);
    return page.list(rows.map(presentIltSession), count);
  }

  @Post()
  @Scopes('vilt-sessions:write')
  async create(@Auth() p: Principal, @Body() dto: IltSessionDto) {
    return presentIltSession(await this.sessions.createSession(p, dto));
  }

  @Get(':ilt_session_id')
  @Scopes('vilt-sessions:read')
  async retrieve(@Auth() p: Principal, @Param('ilt_session_id') id: string) {
    return presentIltSession(await this.sessions.readEvent(p, id));
  }

  @Put(':ilt_session_id')
  @Scopes('vilt-sessions:write')
  async update(@Auth() p: Principal, @Param('ilt_session_id') id: string, @Body() dto: IltSessionDto) {
    return presentIltSession(await this.sessions.updateSession(p, id, dto));
  }

  /** Beyond the published document: a scheduled session cancelled (its registrants mailed a cancellation). */
  @Delete(':ilt_session_id')
  @HttpCode(204)
  @Scopes('vilt-sessions:write')
  @ApiExtension('x-extension', true)
  @ApiOperation({
    description:
      'Extension (not in the published API): deletes the ILT session and mails every learner registered for it a cancellation (METHOD:CANCEL, the UID of its invitations). ' +
      "A lesson-based session goes with its registrations; a session of a multi-session event goes alone (the event's registrations stay).",
  })
  async destroy(@Auth() p: Principal, @Param('ilt_session_id') id: string) {
    await this.sessions.deleteSession(p, id);
  }
}

/** /v1/vilt-session-events (vilt-sessions:read): the scheduled meetings, filtered by course, lesson and time. */
@V1()
@Controller('v1/vilt-session-events')
export class ViltSessionEventsV1Controller {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  @Scopes('vilt-sessions:read')
  @PageQuery(CAP)
  @ApiQuery({ name: 'session__lesson__course__id', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'session__lesson__id', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'starts_at__gte', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'ends_at__lte', required: false, schema: { type: 'string' } })
  async list(@Auth() p: Principal, @Query() q: Record<string, unknown>, @Paged(CAP) page: V1Page) {
    const { rows, count } = await this.sessions.listEvents(p, page, {
      courseId: filter(q, 'session__lesson__course__id'),
      lessonId: filter(q, 'session__lesson__id'),
      startsAtGte: filter(q, 'starts_at__gte'),
      endsAtLte: filter(q, 'ends_at__lte'),
    });
    return page.list(rows.map(presentSessionEvent), count);
  }

  @Get(':vilt_session_event_id')
  @Scopes('vilt-sessions:read')
  async retrieve(@Auth() p: Principal, @Param('vilt_session_event_id') id: string) {
    return presentSessionEvent(await this.sessions.readEvent(p, id));
  }
}

/** /v1/vilt-session-registrations (vilt-sessions:*): pages of up to 1000 (section 8). */
@V1()
@Controller('v1/vilt-session-registrations')
export class ViltSessionRegistrationsV1Controller {
  constructor(private readonly registrations: RegistrationsService) {}

  @Get()
  @Scopes('vilt-sessions:read')
  @PageQuery(V1_PAGE_CAP.large)
  @ApiQuery({ name: 'session__id', required: false, schema: { type: 'string' } })
  async list(@Auth() p: Principal, @Query() q: Record<string, unknown>, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.registrations.list(p, page, { sessionId: filter(q, 'session__id') });
    return page.list(rows.map(presentRegistrationItem), count);
  }

  @Post()
  @Scopes('vilt-sessions:write')
  async create(@Auth() p: Principal, @Body() dto: RegistrationCreateDto) {
    return presentRegistration(await this.registrations.create(p, dto));
  }

  @Get(':vilt_session_registration_id')
  @Scopes('vilt-sessions:read')
  async retrieve(@Auth() p: Principal, @Param('vilt_session_registration_id') id: string) {
    return presentRegistration(await this.registrations.read(p, id));
  }

  /** PUT and PATCH are both partial updates, as published ("Both PATCH and PUT perform partial updates"); PUT requires `attended`. */
  @Put(':vilt_session_registration_id')
  @Scopes('vilt-sessions:write')
  async update(@Auth() p: Principal, @Param('vilt_session_registration_id') id: string, @Body() dto: RegistrationUpdateDto) {
    return presentRegistrationUpdate(await this.registrations.update(p, id, dto));
  }

  @Patch(':vilt_session_registration_id')
  @Scopes('vilt-sessions:write')
  async partialUpdate(@Auth() p: Principal, @Param('vilt_session_registration_id') id: string, @Body() dto: RegistrationPatchDto) {
    return presentRegistrationUpdate(await this.registrations.update(p, id, dto));
  }

  /** vilt_session_registrations_destroy: the registration removed, its seat freed, a cancellation (METHOD:CANCEL) mailed. */
  @Delete(':vilt_session_registration_id')
  @HttpCode(204)
  @Scopes('vilt-sessions:write')
  async destroy(@Auth() p: Principal, @Param('vilt_session_registration_id') id: string) {
    await this.registrations.remove(p, id);
  }
}
