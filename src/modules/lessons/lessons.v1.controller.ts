import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { LessonListQuery, LessonRequest, LessonUpdateQuery, LessonUpdateRequest } from './dto/lesson.v1.dto';
import { presentLesson } from './lessons.v1.presenter';
import { V1 } from '../../core/http/interfaces';
import { PutAndPatch } from '../../core/http/put-and-patch';
import { V1LessonsService } from './lessons.v1.service';

/** /v1/lessons (lessons:read / lessons:write); pages caller-set up to 100. */
@V1()
@ApiTags('v1 lessons')
@Controller('v1/lessons')
export class LessonsV1Controller {
  constructor(private readonly lessons: V1LessonsService) {}

  @Get()
  @Scopes('lessons:read')
  async list(@Auth() p: Principal, @Query() query: LessonListQuery, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    // An empty filter value filters nothing (as django-filter does).
    const [rows, count] = await this.lessons.list(p, page, query.course_id || undefined);
    return page.list(rows.map(presentLesson), count);
  }

  @Post()
  @Scopes('lessons:write')
  async create(@Auth() p: Principal, @Body() dto: LessonRequest) {
    return presentLesson(await this.lessons.create(p, dto));
  }

  @Get(':lesson_id')
  @Scopes('lessons:read')
  async read(@Auth() p: Principal, @Param('lesson_id') id: string) {
    return presentLesson(await this.lessons.get(p, id));
  }

  @PutAndPatch(':lesson_id')
  @Scopes('lessons:write')
  async update(@Auth() p: Principal, @Param('lesson_id') id: string, @Query() q: LessonUpdateQuery, @Body() dto: LessonUpdateRequest) {
    return presentLesson(await this.lessons.update(p, id, dto, q.course_id));
  }

  @Delete(':lesson_id')
  @HttpCode(204)
  @Scopes('lessons:write')
  async remove(@Auth() p: Principal, @Param('lesson_id') id: string) {
    await this.lessons.delete(p, id);
  }
}
