import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { v1UpdatedSince } from '../../core/pagination/updated-since';
import { LessonListQuery, LessonRequest, LessonUpdateQuery, LessonUpdateRequest } from './dto/lesson.v1.dto';
import { presentLesson } from './lessons.v1.presenter';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { V1LessonsService } from './lessons.v1.service';

/** /v1/lessons (lessons:read / lessons:write); pages caller-set up to 100. PUT and PATCH take `?course_id` (the lesson must belong to that course). */
@V1()
@ApiTags('v1 lessons')
@V1Resource<V1LessonsService>({
  service: V1LessonsService,
  id: 'lesson_id',
  scopes: 'lessons',
  present: presentLesson,
  create: { call: (s) => s.create, body: LessonRequest },
  read: { call: (s) => s.get, handler: 'read' },
  update: { call: (s) => s.update, body: LessonUpdateRequest, query: LessonUpdateQuery, queryArg: (q: LessonUpdateQuery) => q.course_id },
  remove: { call: (s) => s.delete, handler: 'remove' },
})
@Controller('v1/lessons')
export class LessonsV1Controller {
  constructor(private readonly lessons: V1LessonsService) {}

  @Get()
  @Scopes('lessons:read')
  async list(@Auth() p: Principal, @Query() query: LessonListQuery, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    // An empty filter value filters nothing (as django-filter does).
    const [rows, count] = await this.lessons.list(p, page, query.course_id || undefined, v1UpdatedSince(query as Record<string, unknown>));
    return page.list(rows.map(presentLesson), count);
  }
}
