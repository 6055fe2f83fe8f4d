import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { DomainsService } from '../domains/domains.service';
import { boolParam, strParam } from '../../core/http/v1-rules';
import {
  PublishedCourseCreateDto,
  PublishedCourseGroupPrerequisiteDto,
  PublishedCoursePrerequisiteDto,
  PublishedCourseTagDto,
  PublishedCourseVisibilityDto,
  PublishedCourseWriteDto,
} from './dto/published-course.dto';
import { PublishedCourseExtrasService, presentCourseOverride, presentCourseTag, presentGroupPrerequisite, presentPrerequisite } from './published-course-extras.service';
import { PublishedCourseRow, presentPublishedCourse } from './published-courses.presenter';
import { PublishedCoursesService } from './published-courses.service';
import { V1 } from '../../core/http/interfaces';
import { PutAndPatch } from '../../core/http/put-and-patch';
import { V1Links, V1Resource } from '../../core/routes/v1-resource';
import { serviceIn } from '../../core/http/service-ref';

const ITEM = 'published_course_id';

/**
 * /v1/domains/{domain_name}/published-courses, with its tags, student-group visibility overrides
 * and prerequisites (OpenAPI-only; published-courses:read / :write).
 */
@V1()
@V1Links({
  service: serviceIn(PublishedCourseExtrasService, (x) => x.tags),
  at: `:${ITEM}/tags`,
  id: 'tag_id',
  scopes: 'published-courses',
  present: presentCourseTag,
  body: PublishedCourseTagDto,
  handlers: ['listTags', 'addTag', 'readTag', 'removeTag'],
})
@V1Resource<PublishedCourseExtrasService>({
  service: PublishedCourseExtrasService,
  at: `:${ITEM}/visibility-overrides`,
  id: 'student_group_id',
  scopes: 'published-courses',
  present: presentCourseOverride,
  list: { call: (s) => s.listOverrides, cap: V1_PAGE_CAP.large },
  create: { call: (s) => s.setOverride, body: PublishedCourseVisibilityDto },
  read: { call: (s) => s.readOverride },
  remove: { call: (s) => s.removeOverride },
})
@V1Resource<PublishedCourseExtrasService>({
  service: PublishedCourseExtrasService,
  at: `:${ITEM}/published-course-prerequisites`,
  id: 'prerequisite_published_course_id',
  scopes: 'published-courses',
  present: presentPrerequisite,
  list: { call: (s) => s.listPrerequisites, cap: V1_PAGE_CAP.small },
  create: { call: (s) => s.addPrerequisite, body: PublishedCoursePrerequisiteDto },
  remove: { call: (s) => s.removePrerequisite },
})
@V1Links({
  service: serviceIn(PublishedCourseExtrasService, (x) => x.groupPrerequisites),
  at: `:${ITEM}/student-group-prerequisites`,
  id: 'student_group_id',
  scopes: 'published-courses',
  present: presentGroupPrerequisite,
  body: PublishedCourseGroupPrerequisiteDto,
  handlers: ['listGroupPrerequisites', 'addGroupPrerequisite', 'readGroupPrerequisite', 'removeGroupPrerequisite'],
})
@Controller('v1/domains/:domain_name/published-courses')
export class PublishedCoursesV1Controller {
  constructor(
    private readonly domains: DomainsService,
    private readonly published: PublishedCoursesService,
    readonly extras: PublishedCourseExtrasService,
  ) {}

  private async present(p: Principal, domain: Domain, rows: PublishedCourseRow[], opts: { detail?: boolean; searchable?: boolean }) {
    const courseIds = rows.map((r) => r.course_id);
    const [stats, searchable, tags, offers] = await Promise.all([
      this.published.lessonStats(p, courseIds),
      opts.searchable ? this.published.searchableLessons(p, courseIds) : Promise.resolve(undefined),
      opts.searchable
        ? this.extras.tagsOf(
            p,
            rows.map((r) => r.id),
          )
        : Promise.resolve(undefined),
      this.published.offers(
        p,
        rows.map((r) => r.id),
      ),
    ]);
    return rows.map((r) => presentPublishedCourse(r, { domainName: domain.name, stats, detail: opts.detail, searchable, tags, offers }));
  }

  @Get()
  @Scopes('published-courses:read')
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async list(@Auth() p: Principal, @Param('domain_name') name: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const searchable = boolParam(query, 'include_searchable_content') ?? false;
    const search = strParam(query, 'search');
    const courseId = strParam(query, 'course__id');
    const updatedSince = v1UpdatedSince(query);
    const domain = await this.domains.requireByName(p, name);
    const { rows, count } = await this.published.list(p, domain, page, { search, courseId, updatedSince });
    return page.list(await this.present(p, domain, rows, { searchable }), count);
  }

  @Post()
  @Scopes('published-courses:write')
  async create(@Auth() p: Principal, @Param('domain_name') name: string, @Body() dto: PublishedCourseCreateDto) {
    const domain = await this.domains.requireByName(p, name);
    const row = await this.published.create(p, domain, dto);
    return (await this.present(p, domain, [row], {}))[0];
  }

  @Get(':published_course_id')
  @Scopes('published-courses:read')
  async read(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Query() query: Record<string, unknown>) {
    const searchable = boolParam(query, 'include_searchable_content') ?? false;
    const domain = await this.domains.requireByName(p, name);
    const row = await this.published.get(p, domain, id);
    return (await this.present(p, domain, [row], { detail: true, searchable }))[0];
  }

  @PutAndPatch(':published_course_id')
  @Scopes('published-courses:write')
  async update(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Body() dto: PublishedCourseWriteDto) {
    const domain = await this.domains.requireByName(p, name);
    const row = await this.published.update(p, domain, id, dto);
    return (await this.present(p, domain, [row], {}))[0];
  }

  @Delete(':published_course_id')
  @HttpCode(204)
  @Scopes('published-courses:write')
  async unpublish(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string): Promise<void> {
    const domain = await this.domains.requireByName(p, name);
    await this.published.unpublish(p, domain, id);
  }
}
