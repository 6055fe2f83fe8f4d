import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { V1 } from '../../core/http/interfaces';
import { parseV1Page, V1_PAGE_CAP, v1List } from '../../core/pagination/v1-page';
import { UserEnrollmentsV1Service } from './user-enrollments.v1.service';
import { presentUserPathEnrollment, presentUserPlanEnrollment } from './users.v1.presenter';

/**
 * The enrollment sub-lists of a /v1 user (students:read): users_plan_enrollments_list and
 * users_published_path_enrollments_list. The published document answers them as bare arrays;
 * resource-reference-api.md (which wins) gives them `page` and the /v1 list envelope, with the
 * "users and their sub-lists" cap of 1000 (docs/decisions/v1-users.md).
 */
@V1()
@Controller('v1/users/:user_id')
export class UserListsV1Controller {
  constructor(
    private readonly enrollments: UserEnrollmentsV1Service,
    private readonly config: AppConfig,
  ) {}

  @Get('plan-enrollments')
  @Scopes('students:read')
  async planEnrollments(@Auth() p: Principal, @Param('user_id') userId: string, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.large);
    const { rows, count } = await this.enrollments.planEnrollments(p, userId, page);
    return v1List(rows.map(presentUserPlanEnrollment), count, page, requestBaseUrl(this.config, req), req.url);
  }

  @Get('published-path-enrollments')
  @Scopes('students:read')
  async pathEnrollments(@Auth() p: Principal, @Param('user_id') userId: string, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.large);
    const { rows, count } = await this.enrollments.pathEnrollments(p, userId, page);
    return v1List(rows.map(presentUserPathEnrollment), count, page, requestBaseUrl(this.config, req), req.url);
  }
}
