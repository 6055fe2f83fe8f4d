import { Body, Controller, Get, Param, Patch, Put, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { V1 } from '../../core/http/interfaces';
import { parseV1Page, V1_PAGE_CAP, v1List } from '../../core/pagination/v1-page';
import { LessonProgressDto, ProgressTokenDto } from './dto/progress.v1.dto';
import { lessonPatchOf } from './lesson-rules';
import { presentLessonProgress, presentProgressToken } from './progress.presenter';
import { ProgressReads } from './progress-reads';
import { ProgressService } from './progress.service';

/** /v1/lesson-progress/{id}: read, and update (PUT and PATCH are both partial, as published). */
@V1()
@Controller('v1/lesson-progress')
export class LessonProgressV1Controller {
  constructor(private readonly progress: ProgressService) {}

  @Get(':lesson_progress_id')
  @Scopes('enrollments:read')
  async read(@Auth() p: Principal, @Param('lesson_progress_id') id: string) {
    return presentLessonProgress(await this.progress.readLesson(p, { id }));
  }

  @Put(':lesson_progress_id')
  @Scopes('enrollments:write')
  async update(@Auth() p: Principal, @Param('lesson_progress_id') id: string, @Body() dto: LessonProgressDto) {
    return presentLessonProgress(await this.progress.writeLesson(p, { id }, lessonPatchOf(dto as Record<string, unknown>), false));
  }

  @Patch(':lesson_progress_id')
  @Scopes('enrollments:write')
  async partialUpdate(@Auth() p: Principal, @Param('lesson_progress_id') id: string, @Body() dto: LessonProgressDto) {
    return this.update(p, id, dto);
  }
}

/**
 * /v1/progresstokens: a lesson progress seen through its token. An update is a report from the
 * content and counts as a view (docs/decisions/progress.md).
 */
@V1()
@Controller('v1/progresstokens')
export class ProgressTokensV1Controller {
  constructor(
    private readonly progress: ProgressService,
    private readonly reads: ProgressReads,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('enrollments:read')
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.small);
    const { rows, count } = await this.reads.tokens(p, page);
    return v1List(rows.map((r) => presentProgressToken(r as never)), count, page, requestBaseUrl(this.config, req), req.url);
  }

  @Get(':progress_token_id')
  @Scopes('enrollments:read')
  async read(@Auth() p: Principal, @Param('progress_token_id') token: string) {
    return presentProgressToken(await this.progress.readLesson(p, { token }));
  }

  @Put(':progress_token_id')
  @Scopes('enrollments:write')
  async update(@Auth() p: Principal, @Param('progress_token_id') token: string, @Body() dto: ProgressTokenDto) {
    return presentProgressToken(await this.progress.writeLesson(p, { token }, lessonPatchOf(dto as Record<string, unknown>), true));
  }

  @Patch(':progress_token_id')
  @Scopes('enrollments:write')
  async partialUpdate(@Auth() p: Principal, @Param('progress_token_id') token: string, @Body() dto: ProgressTokenDto) {
    return this.update(p, token, dto);
  }
}
