import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { decodeId } from '../../core/ids/ids';
import { pageDocument, parsePage, V2Page } from '../../core/pagination/cursor-page';
import { v2ChangeOf, V2UpdatedSinceQuery, v2UpdatedSince } from '../../core/pagination/v2-updated-since';
import type { CourseRating } from './course-rating.entity';
import { filterParam, listParam } from '../../core/http/query-params';
import { AnalyticsService } from './analytics.service';
import { V2 } from '../../core/http/interfaces';

@ApiTags('analytics')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/analytics/courses')
export class AnalyticsController {
  constructor(
    private readonly analytics: AnalyticsService,
    private readonly config: AppConfig,
  ) {}

  @Get(':course_id')
  @Scopes('analytics:read')
  @ApiQuery({ name: 'filter[domains]', required: false, schema: { type: 'string' } })
  async course(@Auth() p: Principal, @Param('course_id') courseId: string, @Query() query: Record<string, unknown>) {
    const domains = listParam(query, 'filter[domains]');
    // a blank filter[domains] names no domain: treated as absent
    const data = await this.analytics.courseAnalytics(p, courseId, domains && domains.length ? domains : null);
    return { data };
  }

  @Get(':course_id/ratings')
  @Scopes('analytics:read')
  @ApiQuery({ name: 'filter[student.id]', required: false, schema: { type: 'string' } })
  @V2UpdatedSinceQuery()
  @ApiQuery({ name: 'page[size]', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } })
  @ApiQuery({ name: 'page[cursor]', required: false, schema: { type: 'string' } })
  async ratings(@Auth() p: Principal, @Param('course_id') courseId: string, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const courseUuid = await this.analytics.liveCourse(p, courseId);
    const page = parsePage(query, this.config.APP_SECRET, `ratings:${courseUuid}`);
    // an over-long id matches nothing (the empty page), once the course and the page are checked
    const student = filterParam(query, 'filter[student.id]', 1000);
    // unknown or malformed student ids match nothing: an empty page
    const studentUuid = student === undefined ? undefined : decodeId('student', student);
    const since = v2UpdatedSince(query);
    const rows = studentUuid === null ? [] : await this.analytics.listRatings(p, courseUuid, page, studentUuid, since);
    const present = (r: CourseRating) => this.analytics.presentRating(r);
    if (since) return new V2Page(page, requestBaseUrl(this.config, req), req.url, this.config.APP_SECRET).documentAt(rows, present, v2ChangeOf);
    return pageDocument(rows, page, present, requestBaseUrl(this.config, req), req.url, this.config.APP_SECRET);
  }
}
