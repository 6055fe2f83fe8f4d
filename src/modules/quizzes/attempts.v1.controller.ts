import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { Extension } from '../../core/http/extension';
import { V1 } from '../../core/http/interfaces';
import { v1UpdatedSince } from '../../core/pagination/updated-since';
import { Paged, V1_PAGE_CAP, V1Page } from '../../core/pagination/v1-page';
import { AttemptListQuery, AttemptRequest } from './dto/attempt.v1.dto';
import { v1PageSchema } from '../../core/openapi/v1-page-schema';
import { openApi } from '../../core/openapi/declared-shape';
import { AttemptSchema, presentAttempt, presentSubmittedAttempt, SubmittedAttemptSchema, type SubmittedAttemptV1 } from './attempts.presenter';
import { AttemptsService } from './attempts.service';

/**
 * Graded quiz attempts (CONVENTIONS §12, beyond the published API): a headless learner front end
 * submits a learner's answers and gets the grade, never the answer key. Submitting writes the
 * learner's progress, so it takes quizzes:write or enrollments:write; the list takes either read
 * scope. docs/decisions/quizzes.md "Graded attempts".
 */
@V1()
@ApiTags('v1 quizzes')
@Extension(
  "graded quiz attempts: POST grades a learner's answers (user {id}, published_course_id, answers [{question_id, answer_ids | text}]) and records the score on the quiz lesson's progress; GET lists a quiz's attempts.",
)
@Controller('v1/quizzes/:quiz_id/attempts')
export class QuizAttemptsV1Controller {
  constructor(private readonly attempts: AttemptsService) {}

  @Post()
  @Scopes('quizzes:write', 'enrollments:write')
  @ApiResponse({ status: 201, description: 'The graded attempt', schema: openApi(SubmittedAttemptSchema) })
  async submit(@Auth() p: Principal, @Param('quiz_id') quizId: string, @Body() body: AttemptRequest): Promise<SubmittedAttemptV1> {
    const { attempt, quiz, feedback } = await this.attempts.submit(p, quizId, body);
    return presentSubmittedAttempt(attempt, quiz, feedback);
  }

  @Get()
  @Scopes('quizzes:read', 'enrollments:read')
  @ApiOkResponse({ description: "A page of the quiz's attempts", schema: v1PageSchema(openApi(AttemptSchema)) })
  async list(@Auth() p: Principal, @Param('quiz_id') quizId: string, @Query() q: AttemptListQuery, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { quiz, rows, count } = await this.attempts.list(p, quizId, q.user_id || undefined, page, v1UpdatedSince(q as Record<string, unknown>));
    return page.list(
      rows.map((r) => presentAttempt(r, quiz)),
      count,
    );
  }
}
