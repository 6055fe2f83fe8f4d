import { Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DataSource, In } from 'typeorm';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { BaseUrl } from '../../core/http/base-url';
import { V2 } from '../../core/http/interfaces';
import { V2Batches } from '../../core/routes/v2-batch';
import { decodeId } from '../../core/ids/ids';
import { CursorPaged, JSON_TYPE, V2Page } from '../../core/pagination/cursor-page';
import { Course } from '../courses/course.entity';
import { presentCourse } from '../courses/courses.presenter';
import { CoursesService } from '../courses/courses.service';
import { boolParam, dateTimeParam, filterParam, includeParam } from '../../core/http/query-params';
import { Domain } from '../domains/domain.entity';
import { presentDomainV2 } from '../domains/domains.v2.presenter';
import { PublishedCourseCreateItemV2, PublishedCourseUpdateItemV2 } from './dto/published-course.v2.dto';
import { PublishedCourseFiltersV2, PublishedCoursesV2Service } from './published-courses.v2.service';
import { presentPublishedCourseV2, publishedCourseRowJson, publishedCourseRowChange, publishedCourseRowPosition, PublishedCourseV2Row } from './published-courses.v2.presenter';
import { FastRead } from '../../core/routes/fast-path';

const INCLUDES = ['course', 'domain'] as const;
type Include = (typeof INCLUDES)[number];
const pairKey = (raw: Record<string, any>) => {
  const c = raw.relationships?.course?.data?.id;
  const d = raw.relationships?.domain?.data?.id;
  return typeof c === 'string' && typeof d === 'string' ? `${c}|${d}` : undefined;
};

/** The Content-Type Fastify gives a serialized object (the /v2 one is set on send). */

/**
 * /v2/published-courses: list (filter[domain], filter[course], filter[live], include=course,domain),
 * publish batch, update batch, read, delete (the /v1 soft unpublish), POST {id}/unpublish/ and
 * {id}/publish/. Scopes published-courses:read / published-courses:write. Unpublished rows stay
 * readable here (live=false) so they can be published again.
 */
@ApiTags('published-courses')
@ApiBearerAuth('JWTAuth')
@V2()
@V2Batches<PublishedCoursesV2Service>({
  service: PublishedCoursesV2Service,
  type: 'published-courses',
  scopes: 'published-courses',
  create: {
    call: (s) => s.publishMany,
    present: presentPublishedCourseV2,
    item: PublishedCourseCreateItemV2,
    dedupeKey: pairKey,
    dedupePointer: '/relationships/course/data/id',
    doc: {
      description: 'Courses to publish to domains; the same course and domain twice in one batch is duplicate_in_batch, a pair already live already_published',
      items: '_PublishedCourseCreateData',
    },
  },
  update: {
    call: (s) => s.updateMany,
    present: presentPublishedCourseV2,
    item: PublishedCourseUpdateItemV2,
    doc: { description: 'Settings of published courses (slug, course and domain are set when publishing)', items: '_PublishedCourseUpdateData' },
  },
})
@Controller('v2/published-courses')
export class PublishedCoursesV2Controller {
  constructor(
    readonly v2: PublishedCoursesV2Service,
    readonly config: AppConfig,
    private readonly courses: CoursesService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  @Get()
  @Scopes('published-courses:read')
  @FastRead<PublishedCoursesV2Controller>((c, { principal, query, page, reply }) => c.list(principal, query, page('published-courses'), reply))
  @ApiQuery({ name: 'filter[domain]', required: false, schema: { type: 'string' }, description: 'Opaque domain id. Unknown ids match nothing.' })
  @ApiQuery({ name: 'filter[course]', required: false, schema: { type: 'string' }, description: 'Opaque course id. Unknown ids match nothing.' })
  @ApiQuery({ name: 'filter[live]', required: false, schema: { type: 'boolean' }, description: 'Omit to return both live and unpublished rows.' })
  @ApiQuery({ name: 'include', required: false, schema: { type: 'string' }, description: 'Comma-separated: course, domain.' })
  @ApiQuery({
    name: 'filter[updated_since]',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
  })
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('published-courses') page: V2Page, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const include = includeParam(query, INCLUDES);
    const f: PublishedCourseFiltersV2 = { live: boolParam(query, 'filter[live]'), updatedSince: dateTimeParam(query, 'filter[updated_since]', true) };
    const domain = filterParam(query, 'filter[domain]', 64);
    const course = filterParam(query, 'filter[course]', 64);
    let none = false;
    if (domain !== undefined) none ||= !(f.domainUuid = decodeId('domain', domain) ?? undefined);
    if (course !== undefined) none ||= !(f.courseUuid = decodeId('course', course) ?? undefined);
    const rows = none ? [] : await this.v2.list(p, page, f);
    // the document as JSON text, written from the rows (the same bytes as the presented document; `included` last)
    const base = page.baseUrl;
    let json = page.documentJson(rows, (r) => publishedCourseRowJson(r, base), f.updatedSince ? publishedCourseRowChange : publishedCourseRowPosition);
    if (include.size) json = json.slice(0, -1) + ',"included":' + JSON.stringify(await this.included(p, page.shown(rows), include, base)) + '}';
    reply.header('Content-Type', JSON_TYPE);
    return json;
  }

  @Get(':id')
  @Scopes('published-courses:read')
  @FastRead<PublishedCoursesV2Controller>((c, { principal, params, baseUrl }) => c.get(principal, params.id, baseUrl()))
  async get(@Auth() p: Principal, @Param('id') id: string, @BaseUrl() base: string) {
    return { data: presentPublishedCourseV2(await this.v2.get(p, id), base) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Scopes('published-courses:write')
  async remove(@Auth() p: Principal, @Param('id') id: string): Promise<void> {
    await this.v2.remove(p, id);
  }

  @Post(':id/unpublish')
  @HttpCode(200)
  @Scopes('published-courses:write')
  async unpublish(@Auth() p: Principal, @Param('id') id: string, @BaseUrl() base: string) {
    return { data: presentPublishedCourseV2(await this.v2.unpublish(p, id), base) };
  }

  @Post(':id/publish')
  @HttpCode(200)
  @Scopes('published-courses:write')
  async republish(@Auth() p: Principal, @Param('id') id: string, @BaseUrl() base: string) {
    return { data: presentPublishedCourseV2(await this.v2.republish(p, id), base) };
  }

  /** `included`: the page's courses (CourseResource, with their computed members) and domains, one statement each (two for courses). */
  private async included(p: Principal, rows: PublishedCourseV2Row[], include: Set<Include>, base: string): Promise<unknown[]> {
    const out: unknown[] = [];
    const org = p.organizationId;
    if (include.has('course') && rows.length) {
      const courses = await this.ds.getRepository(Course).find({ where: { organizationId: org, id: In([...new Set(rows.map((r) => r.course_id))]) }, order: { createdAt: 'ASC', id: 'ASC' } });
      out.push(...(await this.courses.withStats(org, courses)).map((v) => presentCourse(v, base)));
    }
    if (include.has('domain') && rows.length) {
      const domains = await this.ds.getRepository(Domain).find({ where: { organizationId: org, id: In([...new Set(rows.map((r) => r.domain_id))]) }, order: { createdAt: 'ASC', id: 'ASC' } });
      out.push(...domains.map((d) => presentDomainV2(d, base)));
    }
    return out;
  }
}
