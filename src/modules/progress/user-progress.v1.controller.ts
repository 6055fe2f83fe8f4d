import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { ScopedRoutes } from '../../core/routes/scoped-routes';
import { fieldError } from '../../core/http/v1-rules';
import { DRF } from '../../core/http/drf-messages';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import { Paged, V1_PAGE_CAP, V1_WINDOW, V1Page } from '../../core/pagination/v1-page';
import { UserCourseProgressDto, UserLessonProgressDto } from './dto/progress.v1.dto';
import { lessonPatchOf } from './lesson-rules';
import { presentUserCourse, presentUserLesson, userCourseJson } from './progress.presenter';
import { ProgressReads } from './progress-reads';
import { ProgressService } from './progress.service';
import { JSON_TYPE } from '../../core/pagination/cursor-page';

const ONE = { page: 1, pageSize: 1, offset: 0 };
const route = ScopedRoutes('enrollments');

/** The Content-Type Fastify gives a serialized object (the list answers its JSON text). */

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
  ) {}

  /**
   * A bare array, as published (CONVENTIONS §16), `page` / `page_size` choosing a window of at most
   * 1,000 (V1_WINDOW); written as its JSON text (userCourseJson: the bytes JSON.stringify gives of the
   * presented rows), issue 16.
   */
  @route.get()
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async list(
    @Auth() p: Principal,
    @Param('user_id') userId: string,
    @Query() query: Record<string, unknown>,
    @Paged(...V1_WINDOW) page: V1Page,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const json = page.windowJson((await this.reads.userCourses(p, userId, page, v1UpdatedSince(query))).map(userCourseJson));
    reply.header('Content-Type', JSON_TYPE);
    return json;
  }

  @route.get(':published_course_id')
  async read(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string) {
    return presentUserCourse(await this.reads.userCourse(p, userId, pcId));
  }

  @route.put(':published_course_id')
  async update(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string, @Body() dto: UserCourseProgressDto) {
    if (dto.course_progress === undefined) throw fieldError('course_progress', DRF.required);
    return this.patch(p, userId, pcId, dto);
  }

  @route.patch(':published_course_id')
  async patch(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string, @Body() dto: UserCourseProgressDto) {
    await this.progress.writeCourse(p, userId, pcId, (dto.course_progress ?? {}) as Record<string, unknown>);
    return presentUserCourse(await this.reads.userCourse(p, userId, pcId));
  }

  @route.get(':published_course_id/lessons')
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async lessons(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.reads.userLessons(p, userId, pcId, page, undefined, v1UpdatedSince(query));
    return page.list(rows.map(presentUserLesson), count);
  }

  @route.get(':published_course_id/lessons/:lesson_id')
  async lesson(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string, @Param('lesson_id') lessonId: string) {
    return presentUserLesson((await this.reads.userLessons(p, userId, pcId, ONE, lessonId)).rows[0]);
  }

  @route.put(':published_course_id/lessons/:lesson_id')
  async updateLesson(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string, @Param('lesson_id') lessonId: string, @Body() dto: UserLessonProgressDto) {
    if (dto.lesson_progress === undefined) throw fieldError('lesson_progress', DRF.required);
    return this.patchLesson(p, userId, pcId, lessonId, dto);
  }

  @route.patch(':published_course_id/lessons/:lesson_id')
  async patchLesson(@Auth() p: Principal, @Param('user_id') userId: string, @Param('published_course_id') pcId: string, @Param('lesson_id') lessonId: string, @Body() dto: UserLessonProgressDto) {
    const patch = lessonPatchOf((dto.lesson_progress ?? {}) as Record<string, unknown>);
    await this.progress.writeLesson(p, { userId, publishedCourseId: pcId, lessonId }, patch, false);
    return presentUserLesson((await this.reads.userLessons(p, userId, pcId, ONE, lessonId)).rows[0]);
  }
}
