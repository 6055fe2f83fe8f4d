import { Body, Controller, Get, Param, Patch, Put, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { V1 } from '../../core/http/interfaces';
import { fieldError } from '../../core/http/v1-rules';
import { DRF } from '../../core/http/drf-messages';
import { parseV1Page, V1_PAGE_CAP, v1List } from '../../core/pagination/v1-page';
import { UserCourseProgressDto, UserLessonProgressDto } from './dto/progress.v1.dto';
import { lessonPatchOf } from './lesson-rules';
import { presentUserCourse, presentUserLesson } from './progress.presenter';
import { ProgressReads } from './progress-reads';
import { ProgressService } from './progress.service';

const ONE = { page: 1, pageSize: 1, offset: 0 };

/**
 * A learner's published courses and lessons with progress: /v1/users/{user_id}/published-courses...
 * PUT and PATCH are both partial; PUT requires the progress object (as published).
 */
@V1()
@Controller('v1/users/:user_id/published-courses')
export class UserProgressV1Controller {
  constructor(
    private readonly progress: ProgressService,
    private readonly reads: ProgressReads,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('enrollments:read')
  async list(@Auth() p: Principal, @Param('user_id') userId: string, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.small);
    const { rows, count } = await this.reads.userCourses(p, userId, page);
    return v1List(rows.map(presentUserCourse), count, page, requestBaseUrl(this.config, req), req.url);
  }

  @Get(':published_course_id')
  @Scopes('enrollments:read')
  async read(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string) {
    return presentUserCourse(await this.reads.userCourse(p, userId, pcId));
  }

  @Put(':published_course_id')
  @Scopes('enrollments:write')
  async update(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string, @Body() dto: UserCourseProgressDto) {
    if (dto.course_progress === undefined) throw fieldError('course_progress', DRF.required);
    return this.patch(p, userId, pcId, dto);
  }

  @Patch(':published_course_id')
  @Scopes('enrollments:write')
  async patch(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string, @Body() dto: UserCourseProgressDto) {
    await this.progress.writeCourse(p, userId, pcId, (dto.course_progress ?? {}) as Record<string, unknown>);
    return presentUserCourse(await this.reads.userCourse(p, userId, pcId));
  }

  @Get(':published_course_id/lessons')
  @Scopes('enrollments:read')
  async lessons(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.small);
    const { rows, count } = await this.reads.userLessons(p, userId, pcId, page);
    return v1List(rows.map(presentUserLesson), count, page, requestBaseUrl(this.config, req), req.url);
  }

  @Get(':published_course_id/lessons/:lesson_id')
  @Scopes('enrollments:read')
  async lesson(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string, @Param('lesson_id') lessonId: string) {
    return presentUserLesson((await this.reads.userLessons(p, userId, pcId, ONE, lessonId)).rows[0]);
  }

  @Put(':published_course_id/lessons/:lesson_id')
  @Scopes('enrollments:write')
  async updateLesson(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string, @Param('lesson_id') lessonId: string, @Body() dto: UserLessonProgressDto) {
    if (dto.lesson_progress === undefined) throw fieldError('lesson_progress', DRF.required);
    return this.patchLesson(p, userId, pcId, lessonId, dto);
  }

  @Patch(':published_course_id/lessons/:lesson_id')
  @Scopes('enrollments:write')
  async patchLesson(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string, @Param('lesson_id') lessonId: string, @Body() dto: UserLessonProgressDto) {
    const patch = lessonPatchOf((dto.lesson_progress ?? {}) as Record<string, unknown>);
    await this.progress.writeLesson(p, { userId, publishedCourseId: pcId, lessonId }, patch, false);
    return presentUserLesson((await this.reads.userLessons(p, userId, pcId, ONE, lessonId)).rows[0]);
  }
}
