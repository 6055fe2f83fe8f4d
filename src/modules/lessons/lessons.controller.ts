import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { BaseUrl } from '../../core/http/base-url';
import { decodeId } from '../../core/ids/ids';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { dateTimeParam, filterParam, invalid, stringParam } from '../../core/http/query-params';
import { LessonCreateItem, LessonUpdateItem } from './dto/lesson.dto';
import { LESSON_TYPES, LessonType } from './lesson.entity';
import { presentLesson, presentLessonDetail, presentWrittenLesson } from './lessons.presenter';
import { LessonFilters, LessonsService } from './lessons.service';
import { V2 } from '../../core/http/interfaces';
import { V2Batches } from '../../core/routes/v2-batch';
import { FastRead } from '../../core/routes/fast-path';

@ApiTags('lessons')
@ApiBearerAuth('JWTAuth')
@V2()
@V2Batches<LessonsService>({
  service: LessonsService,
  type: 'lessons',
  scopes: 'lessons',
  create: { call: (s) => s.createMany, present: presentWrittenLesson, item: LessonCreateItem, doc: { description: 'Batch of lesson items', items: '_LessonCreateData' } },
  update: { call: (s) => s.updateMany, present: presentWrittenLesson, item: LessonUpdateItem, doc: { description: 'Batch of lesson update items', items: '_LessonBatchUpdateData' } },
})
@Controller('v2/lessons')
export class LessonsController {
  constructor(
    readonly lessons: LessonsService,
    readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('lessons:read')
  @FastRead<LessonsController>((c, { principal, query, page }) => c.list(principal, query, page('lessons')))
  @ApiQuery({ name: 'filter[course_id]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[type]', required: false, enum: ['ASSET', 'HTML', 'QUIZ', 'WEB_PACKAGE', 'VILT', 'IE_EXAM', 'WIDGET', 'MODULAR'] })
  @ApiQuery({ name: 'filter[title]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[updated_since]', required: false, schema: { type: 'string', format: 'date-time' } })
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('lessons') page: V2Page) {
    const type = stringParam(query, 'filter[type]', 32);
    if (type !== undefined && !(LESSON_TYPES as readonly string[]).includes(type)) {
      throw invalid('filter[type]', `must be one of ${LESSON_TYPES.join(', ')}`);
    }
    const updatedSince = dateTimeParam(query, 'filter[updated_since]', true);
    // text filters last: an over-long one matches nothing (the empty page), after every parameter that can be refused
    const filters: LessonFilters = { type: type as LessonType | undefined, title: filterParam(query, 'filter[title]', 500), updatedSince };
    const courseId = filterParam(query, 'filter[course_id]', 1000);
    // an undecodable course id matches nothing: an empty page, never an error
    const courseUuid = courseId === undefined ? undefined : decodeId('course', courseId);
    const rows = courseUuid === null ? [] : await this.lessons.list(p, page, { ...filters, courseUuid });
    return page.document(rows, (l) => presentLesson(l, page.baseUrl));
  }

  @Get(':id')
  @Scopes('lessons:read')
  @FastRead<LessonsController>((c, { principal, params, baseUrl }) => c.get(principal, params.id, baseUrl()))
  async get(@Auth() p: Principal, @Param('id') id: string, @BaseUrl() base: string) {
    const lesson = await this.lessons.get(p, id);
    return { data: presentLessonDetail(lesson, base, await this.lessons.ratingScaleOf(p, lesson)) };
  }
}
