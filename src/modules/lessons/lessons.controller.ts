import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { decodeId } from '../../core/ids/ids';
import { pageDocument, parsePage } from '../../core/pagination/cursor-page';
import { dateTimeParam, invalid, stringParam } from '../courses/query-params';
import { LessonCreateItem, LessonUpdateItem } from './dto/lesson.dto';
import { LESSON_TYPES, LessonType } from './lesson.entity';
import { presentLesson, presentLessonDetail } from './lessons.presenter';
import { LessonFilters, LessonsService } from './lessons.service';
import { V2 } from '../../core/http/interfaces';
import { V2Batches } from '../../core/http/v2-batch';

@ApiTags('lessons')
@ApiBearerAuth('JWTAuth')
@V2()
@V2Batches<LessonsService>({
  service: 'lessons', type: 'lessons', scopes: 'lessons', baseUrl: true,
  create: { call: 'createMany', item: LessonCreateItem, doc: { description: 'Batch of lesson items', items: '_LessonCreateData' } },
  update: { call: 'updateMany', item: LessonUpdateItem, doc: { description: 'Batch of lesson update items', items: '_LessonBatchUpdateData' } },
})
@Controller('v2/lessons')
export class LessonsController {
  constructor(
    readonly lessons: LessonsService,
    readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('lessons:read')
  @ApiQuery({ name: 'filter[course_id]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[type]', required: false, enum: ['ASSET', 'HTML', 'QUIZ', 'WEB_PACKAGE', 'VILT', 'IE_EXAM', 'WIDGET', 'MODULAR'] })
  @ApiQuery({ name: 'filter[title]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[updated_since]', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiQuery({ name: 'page[size]', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } })
  @ApiQuery({ name: 'page[cursor]', required: false, schema: { type: 'string' } })
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parsePage(query, this.config.APP_SECRET, 'lessons');
    const type = stringParam(query, 'filter[type]', 32);
    if (type !== undefined && !(LESSON_TYPES as readonly string[]).includes(type)) {
      throw invalid('filter[type]', `must be one of ${LESSON_TYPES.join(', ')}`);
    }
    const filters: LessonFilters = {
      type: type as LessonType | undefined,
      title: stringParam(query, 'filter[title]', 500),
      updatedSince: dateTimeParam(query, 'filter[updated_since]', true),
    };
    const courseId = stringParam(query, 'filter[course_id]', 1000);
    // an undecodable course id matches nothing: an empty page, never an error
    const courseUuid = courseId === undefined ? undefined : decodeId('course', courseId);
    const rows = courseUuid === null ? [] : await this.lessons.list(p, page, { ...filters, courseUuid });
    return pageDocument(rows, page, (l) => presentLesson(l, requestBaseUrl(this.config, req)), requestBaseUrl(this.config, req), req.url, this.config.APP_SECRET);
  }

  @Get(':id')
  @Scopes('lessons:read')
  async get(@Auth() p: Principal, @Param('id') id: string, @Req() req: FastifyRequest) {
    return { data: presentLessonDetail(await this.lessons.get(p, id), requestBaseUrl(this.config, req)) };
  }
}
