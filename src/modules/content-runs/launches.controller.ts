import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { BaseUrl } from '../../core/http/base-url';
import { Extension } from '../../core/http/extension';
import { V1, V2 } from '../../core/http/interfaces';
import { openApi, V2DocumentSchema } from '../../core/openapi/declared-shape';
import { LaunchRequestV1, LaunchRequestV2 } from './dto/launch.dto';
import { LaunchesService } from './launches.service';
import { type LaunchV1, LaunchV1Schema, type LaunchV2, LaunchV2Schema, presentLaunchV1, presentLaunchV2 } from './launches.presenter';

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
  @ApiResponse({ status: 201, description: 'The launch', schema: openApi(LaunchV1Schema) })
  async create(@Auth() p: Principal, @Param('lesson_id') lessonId: string, @Body() body: LaunchRequestV1, @BaseUrl() base: string): Promise<LaunchV1> {
    return presentLaunchV1(await this.launches.create(p, lessonId, body.user.id, base, 400, '/user/id', { value: body.item, field: 'item', pointer: '/item' }));
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
  async create(@Auth() p: Principal, @Body() body: LaunchRequestV2, @BaseUrl() base: string): Promise<{ data: LaunchV2 }> {
    const a = body.data.attributes;
    const l = await this.launches.create(p, a.lesson_id, a.student_id, base, 422, '/data/attributes/student_id', { value: a.item, field: 'item', pointer: '/data/attributes/item' });
    return { data: presentLaunchV2(l, a.lesson_id, a.student_id) };
  }
}
