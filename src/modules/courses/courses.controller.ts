import { Body, Controller, Get, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { runBatch } from '../../core/batch/batch';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { pageDocument, parsePage } from '../../core/pagination/cursor-page';
import { presentCourse } from './courses.presenter';
import { CoursesService } from './courses.service';
import { CourseCreateItem, CourseUpdateItem } from './dto/course.dto';
import { stringParam } from './query-params';
import { V2 } from '../../core/http/interfaces';

@ApiTags('courses')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/courses')
export class CoursesController {
  constructor(
    private readonly courses: CoursesService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('courses:read')
  @ApiQuery({ name: 'filter[title]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'page[size]', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } })
  @ApiQuery({ name: 'page[cursor]', required: false, schema: { type: 'string' } })
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parsePage(query, this.config.APP_SECRET, 'courses');
    const title = stringParam(query, 'filter[title]', 500);
    const rows = await this.courses.list(p, page, { title });
    return pageDocument(
      rows.map((v) => Object.assign(v, { id: v.course.id, createdAt: v.course.createdAt })),
      page,
      (v) => presentCourse(v, requestBaseUrl(this.config, req)),
      requestBaseUrl(this.config, req),
      req.url,
      this.config.APP_SECRET,
    );
  }

  @Post()
  @Scopes('courses:write')
  @ApiBody({ description: 'Batch of course items (no within-batch dedupe)', schema: { type: 'object', required: ['data'], properties: { data: { type: 'array', minItems: 1, items: { type: 'object' }, description: 'items as _CourseCreateData' } } } })
  async create(@Auth() p: Principal, @Body() body: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const result = await runBatch(body, { itemClass: CourseCreateItem, type: 'courses', maxItems: this.config.BATCH_MAX_ITEMS }, (items) =>
      this.courses.createMany(p, items, requestBaseUrl(this.config, req)),
    );
    reply.status(result.status);
    return result.body;
  }

  @Patch()
  @Scopes('courses:write')
  @ApiBody({ description: 'Batch of course update items', schema: { type: 'object', required: ['data'], properties: { data: { type: 'array', minItems: 1, items: { type: 'object' }, description: 'items as _CourseUpdateData' } } } })
  async update(@Auth() p: Principal, @Body() body: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const result = await runBatch(body, { itemClass: CourseUpdateItem, type: 'courses', maxItems: this.config.BATCH_MAX_ITEMS }, (items) =>
      this.courses.updateMany(p, items, requestBaseUrl(this.config, req)),
    );
    reply.status(result.status);
    return result.body;
  }

  @Get(':id')
  @Scopes('courses:read')
  async get(@Auth() p: Principal, @Param('id') id: string, @Req() req: FastifyRequest) {
    return { data: presentCourse(await this.courses.get(p, id), requestBaseUrl(this.config, req)) };
  }
}
