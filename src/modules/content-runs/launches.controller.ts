import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { BaseUrl } from '../../core/http/base-url';
import { Extension } from '../../core/http/extension';
import { V1, V2 } from '../../core/http/interfaces';
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, openApi, PublicId, V2DocumentSchema, V2UnlinkedResourceSchema } from '../../core/openapi/declared-shape';
import { LaunchRequestV1, LaunchRequestV2 } from './dto/launch.dto';
import { type CreatedLaunch, LaunchesService } from './launches.service';

const LAUNCH_MEMBERS = {
  launch_url: { type: 'string', format: 'uri', description: 'Opens the lesson once, within 5 minutes.' },
  expires_at: { type: 'string', format: 'date-time', description: 'When launch_url expires unused.' },
  registration: { type: 'string', description: "The registration of the learner's attempt (xAPI / cmi5)." },
  item: { type: 'string', description: "The item of the package the launch plays (SCORM item identifier, cmi5 AU id; '' for a TinCan package)." },
};

/** The JSON schema of the /v1 launch answer `{launch_url, expires_at, registration}`. */
export const LAUNCH_V1_SCHEMA = { type: 'object', description: 'A launch of a web-package lesson.', required: Object.keys(LAUNCH_MEMBERS), properties: LAUNCH_MEMBERS };

/**
 * The /v2 `launches` resource (no self link: a launch is not read back), declared once
 * (core/openapi/declared-shape.ts): the type of presentLaunchV2's result and the answer of /openapi.json.
 */
export const LaunchV2Schema = V2UnlinkedResourceSchema(
  'launches',
  Type.Object({
    launch_url: Type.String({ format: 'uri', description: LAUNCH_MEMBERS.launch_url.description }),
    expires_at: DateTime({ description: LAUNCH_MEMBERS.expires_at.description }),
    registration: Type.String({ description: LAUNCH_MEMBERS.registration.description }),
    item: Type.String({ description: LAUNCH_MEMBERS.item.description }),
    lesson_id: PublicId({ description: 'Opaque id of the lesson, as sent.' }),
    student_id: PublicId({ description: 'Opaque id of the student, as sent.' }),
  }),
  { description: 'A launch of a web-package lesson.' },
);
export type LaunchV2 = Static<typeof LaunchV2Schema>;

/** A created launch as the /v2 resource, with the lesson and student ids as sent. */
export function presentLaunchV2(l: CreatedLaunch, lessonId: string, studentId: string): LaunchV2 {
  return { type: 'launches', id: l.id, attributes: { launch_url: l.launch_url, expires_at: l.expires_at, registration: l.registration, item: l.item, lesson_id: lessonId, student_id: studentId } };
}

/**
 * POST /v1/lessons/{lesson_id}/launches (extension, CONVENTIONS §18): a single-use launch URL of a
 * web-package lesson for an enrolled learner, valid 5 minutes. Scope enrollments:write (a launch
 * records the learner's progress in the lesson).
 */
@V1()
@ApiTags('v1 launches')
@Extension('A launch of a web-package lesson for a learner.')
@Controller('v1/lessons/:lesson_id/launches')
export class LaunchesV1Controller {
  constructor(private readonly launches: LaunchesService) {}

  @Post()
  @HttpCode(201)
  @Scopes('enrollments:write')
  @ApiOperation({ summary: 'Launch a web-package lesson for a learner', description: 'Answers {launch_url, expires_at, registration}: launch_url opens the lesson once, within 5 minutes.' })
  @ApiResponse({ status: 201, description: 'The launch', schema: LAUNCH_V1_SCHEMA })
  async create(@Auth() p: Principal, @Param('lesson_id') lessonId: string, @Body() body: LaunchRequestV1, @BaseUrl() base: string) {
    const { launch_url, expires_at, registration, item } = await this.launches.create(p, lessonId, body.user.id, base, 400, '/user/id', { value: body.item, field: 'item', pointer: '/item' });
    return { launch_url, expires_at, registration, item };
  }
}

/** POST /v2/launches/ (extension, CONVENTIONS §18): the same on /v2, as a JSON:API resource `launches`. */
@V2()
@ApiTags('launches')
@ApiBearerAuth('JWTAuth')
@Extension('A launch of a web-package lesson for a learner.')
@Controller('v2/launches')
export class LaunchesV2Controller {
  constructor(private readonly launches: LaunchesService) {}

  @Post()
  @HttpCode(201)
  @Scopes('enrollments:write')
  @ApiOperation({ summary: 'Launch a web-package lesson for a learner', description: 'Answers a launches resource with launch_url (single-use, 5 minutes), expires_at and registration.' })
  @ApiResponse({ status: 201, description: 'The launch', schema: openApi(V2DocumentSchema(LaunchV2Schema)) })
  async create(@Auth() p: Principal, @Body() body: LaunchRequestV2, @BaseUrl() base: string) {
    const a = body.data.attributes;
    const l = await this.launches.create(p, a.lesson_id, a.student_id, base, 422, '/data/attributes/student_id', { value: a.item, field: 'item', pointer: '/data/attributes/item' });
    return { data: presentLaunchV2(l, a.lesson_id, a.student_id) };
  }
}
