import { Body, Controller, Param } from '@nestjs/common';
import { Auth } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { ScopedRoutes } from '../../core/http/scoped-routes';
import { Paged, V1_PAGE_CAP, V1Page } from '../../core/pagination/v1-page';
import { LessonProgressDto, ProgressTokenDto } from './dto/progress.v1.dto';
import { lessonPatchOf } from './lesson-rules';
import { presentLessonProgress, presentProgressToken } from './progress.presenter';
import { ProgressReads } from './progress-reads';
import { ProgressService } from './progress.service';

const route = ScopedRoutes('enrollments');

/** /v1/lesson-progress/{id}: read, and update (PUT and PATCH are both partial, as published: one handler). */
@V1()
@Controller('v1/lesson-progress')
export class LessonProgressV1Controller {
  constructor(private readonly progress: ProgressService) {}

  @route.get(':lesson_progress_id')
  async read(@Auth() p: Principal, @Param('lesson_progress_id') id: string) {
    return presentLessonProgress(await this.progress.readLesson(p, { id }));
  }

  @route.putAndPatch(':lesson_progress_id')
  async update(@Auth() p: Principal, @Param('lesson_progress_id') id: string, @Body() dto: LessonProgressDto) {
    return presentLessonProgress(await this.progress.writeLesson(p, { id }, lessonPatchOf(dto as Record<string, unknown>), false));
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
  ) {}

  @route.get()
  async list(@Auth() p: Principal, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.reads.tokens(p, page);
    return page.list(rows.map((r) => presentProgressToken(r as never)), count);
  }

  @route.get(':progress_token_id')
  async read(@Auth() p: Principal, @Param('progress_token_id') token: string) {
    return presentProgressToken(await this.progress.readLesson(p, { token }));
  }

  @route.putAndPatch(':progress_token_id')
  async update(@Auth() p: Principal, @Param('progress_token_id') token: string, @Body() dto: ProgressTokenDto) {
    return presentProgressToken(await this.progress.writeLesson(p, { token }, lessonPatchOf(dto as Record<string, unknown>), true));
  }
}
