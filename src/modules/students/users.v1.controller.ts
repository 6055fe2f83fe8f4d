import { v1UpdatedSince } from '../../core/pagination/updated-since';
import { Body, Controller, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Auth } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { V1 } from '../../core/http/interfaces';
import { ScopedRoutes } from '../../core/routes/scoped-routes';
import { boolParam, strParam } from '../../core/http/v1-rules';
import { parseV1Page, V1_PAGE_CAP, v1List } from '../../core/pagination/v1-page';
import { V1UserUpdateDto } from './dto/user.v1.dto';
import { Destructive } from './students.v2.controller';
import { StudentsService } from './students.service';
import { presentUserOverview, presentUserUpdate } from './users.v1.presenter';
import { UsersV1Service } from './users.v1.service';

/**
 * /v1/users: a /v1 user is a /v2 student (CONVENTIONS §10: same row, same id), listed and
 * addressable here when registered on at least one domain of the organization (any other id is
 * 404). Scopes students:read / students:write (docs/decisions/v1-users.md). The sub-lists are
 * UserListsV1Controller (plan and published-path enrollments), the groups module's
 * UserGroupsV1Controller and the progress module's published courses.
 *
 * `POST /v1/users/{user_id}/anonymize` is the published `users_anonymize_create`: the same
 * erasure as `POST /v2/students/{id}/anonymize` (StudentsService.anonymize), the same rate-limit
 * budget, and 200 with the published `UserOverview` of the anonymized user. The published v1 has no
 * confirmation header, so none is required here (existing clients would not send one).
 */
const route = ScopedRoutes('students');

@V1()
@Controller('v1/users')
export class UsersV1Controller {
  constructor(
    private readonly students: StudentsService,
    private readonly users: UsersV1Service,
    private readonly config: AppConfig,
  ) {}

  /** users_list: `email`, `first_name`, `last_name` exact and case-sensitive, `is_inactive` a boolean; an empty value filters nothing. */
  @route.get()
  @ApiQuery({ name: 'email', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'first_name', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'last_name', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'is_inactive', required: false, schema: { type: 'boolean' } })
  @ApiQuery({
    name: 'updated_since',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'extension: changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
  })
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer' } })
  @ApiQuery({ name: 'page_size', required: false, schema: { type: 'integer', maximum: V1_PAGE_CAP.large } })
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.large);
    const s = (n: string) => {
      const v = strParam(query, n);
      return v === '' ? undefined : v;
    };
    const filters = { email: s('email'), firstName: s('first_name'), lastName: s('last_name'), isInactive: boolParam(query, 'is_inactive'), updatedSince: v1UpdatedSince(query) };
    const { rows, count } = await this.users.list(p, filters, page);
    return v1List(rows.map(presentUserOverview), count, page, requestBaseUrl(this.config, req), req.url);
  }

  @route.get(':user_id')
  async read(@Auth() p: Principal, @Param('user_id') userId: string) {
    return presentUserOverview(await this.users.overview(p, userId));
  }

  /** users_update, and users_partial_update (PATCH, the same partial update, as published). */
  @route.putAndPatch(':user_id')
  async update(@Auth() p: Principal, @Param('user_id') userId: string, @Body() dto: V1UserUpdateDto) {
    return presentUserUpdate(await this.users.update(p, userId, dto));
  }

  @Post(':user_id/anonymize')
  @HttpCode(200)
  @Destructive('anonymize')
  async anonymize(@Auth() p: Principal, @Param('user_id') userId: string) {
    await this.students.anonymize(p, userId);
    return presentUserOverview(await this.users.overview(p, userId, { anyUser: true }));
  }
}
