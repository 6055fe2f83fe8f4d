import { Controller } from '@nestjs/common';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { LessonProgressDto, ProgressTokenDto } from './dto/progress.v1.dto';
import { lessonPatchOf } from './lesson-rules';
import { presentLessonProgress, presentProgressToken } from './progress.presenter';
import { ProgressReads } from './progress-reads';
import { ProgressService } from './progress.service';

/**
 * The /v1 read and update of a lesson progress addressed by `key`: its id, or its progress token.
 * PUT and PATCH are both partial, as published; an update through the token is a report from the
 * content and counts as a view (docs/decisions/progress.md).
 */
class LessonProgressBy {
  constructor(
    private readonly progress: ProgressService,
    private readonly key: 'id' | 'token',
  ) {}

  read(p: Principal, value: string) {
    return this.progress.readLesson(p, this.target(value));
  }

  update(p: Principal, value: string, dto: LessonProgressDto | ProgressTokenDto) {
    return this.progress.writeLesson(p, this.target(value), lessonPatchOf(dto as Record<string, unknown>), this.key === 'token');
  }

  private target(value: string) {
    return this.key === 'id' ? { id: value } : { token: value };
  }
}

/** /v1/lesson-progress/{id}: read, and update. */
@V1()
@V1Resource<LessonProgressBy>({
  service: LessonProgressBy,
  id: 'lesson_progress_id',
  scopes: 'enrollments',
  present: presentLessonProgress,
  read: { call: (s) => s.read },
  update: { call: (s) => s.update, body: LessonProgressDto },
})
@Controller('v1/lesson-progress')
export class LessonProgressV1Controller {
  readonly lessons: LessonProgressBy;

  constructor(progress: ProgressService) {
    this.lessons = new LessonProgressBy(progress, 'id');
  }
}

/** /v1/progresstokens: a lesson progress seen through its token (the list first: the lower @V1Resource declares its handlers first). */
@V1()
@V1Resource<LessonProgressBy>({
  service: LessonProgressBy,
  id: 'progress_token_id',
  scopes: 'enrollments',
  present: presentProgressToken,
  read: { call: (s) => s.read },
  update: { call: (s) => s.update, body: ProgressTokenDto },
})
@V1Resource<ProgressReads>({
  service: ProgressReads,
  id: 'progress_token_id',
  scopes: 'enrollments',
  present: (r) => presentProgressToken(r as never),
  list: { call: (s) => s.tokens, handler: 'list', cap: V1_PAGE_CAP.small },
})
@Controller('v1/progresstokens')
export class ProgressTokensV1Controller {
  readonly tokens: LessonProgressBy;

  constructor(
    progress: ProgressService,
    readonly reads: ProgressReads,
  ) {
    this.tokens = new LessonProgressBy(progress, 'token');
  }
}
