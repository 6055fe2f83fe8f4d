import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { BaseUrl } from '../../core/http/base-url';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { presentCourse } from './courses.presenter';
import { CoursesService } from './courses.service';
import { CourseCreateItem, CourseUpdateItem } from './dto/course.dto';
import { dateTimeParam, filterParam } from '../../core/http/query-params';
import { isoOf } from '../../core/database/pool-reads';
import { V2 } from '../../core/http/interfaces';
import { V2Batches } from '../../core/routes/v2-batch';
import { FastRead } from '../../core/routes/fast-path';

@ApiTags('courses')
@ApiBearerAuth('JWTAuth')
@V2()
@V2Batches<CoursesService>({
  service: CoursesService,
  type: 'courses',
  scopes: 'courses',
  create: { call: (s) => s.createMany, present: presentCourse, item: CourseCreateItem, doc: { description: 'Batch of course items (no within-batch dedupe)', items: '_CourseCreateData' } },
  update: { call: (s) => s.updateMany, present: presentCourse, item: CourseUpdateItem, doc: { description: 'Batch of course update items', items: '_CourseUpdateData' } },
})
@Controller('v2/courses')
export class CoursesController {
  constructor(
    readonly courses: CoursesService,
    readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('courses:read')
  @FastRead<CoursesController>((c, { principal, query, page }) => c.list(principal, query, page('courses')))
  @ApiQuery({ name: 'filter[title]', required: false, schema: { type: 'string' } })
  @ApiQuery({
    name: 'filter[updated_since]',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
  })
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('courses') page: V2Page) {
    const updatedSince = dateTimeParam(query, 'filter[updated_since]', true);
    // text filters last: an over-long one matches nothing (the empty page), after every parameter that can be refused
    const rows = await this.courses.list(p, page, { title: filterParam(query, 'filter[title]', 500), updatedSince });
    const keyed = rows.map((v) => Object.assign(v, { id: v.course.id, createdAt: v.course.createdAt }));
    const present = (v: (typeof keyed)[number]) => presentCourse(v, page.baseUrl);
    return updatedSince ? page.documentAt(keyed, present, (v) => ({ t: isoOf(v.course.updatedAt), id: v.id })) : page.document(keyed, present);
  }

  @Get(':id')
  @Scopes('courses:read')
  @FastRead<CoursesController>((c, { principal, params, baseUrl }) => c.get(principal, params.id, baseUrl()))
  async get(@Auth() p: Principal, @Param('id') id: string, @BaseUrl() base: string) {
    return { data: presentCourse(await this.courses.get(p, id), base) };
  }
}
