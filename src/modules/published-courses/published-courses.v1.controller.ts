import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Auth, Scopes } from '../../core/auth/decorators';
import { encodeId } from '../../core/ids/ids';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { DomainsService } from '../domains/domains.service';
import { boolParam, strParam } from '../../core/http/v1-rules';
import { PublishedCourseCreateDto, PublishedCourseGroupPrerequisiteDto, PublishedCoursePrerequisiteDto, PublishedCourseTagDto, PublishedCourseVisibilityDto, PublishedCourseWriteDto } from './dto/published-course.dto';
import { PublishedCourseExtrasService, presentCourseOverride, presentCourseTag } from './published-course-extras.service';
import { PublishedCourseRow, presentPublishedCourse } from './published-courses.presenter';
import { PublishedCoursesService } from './published-courses.service';
import { V1 } from '../../core/http/interfaces';
import { PutAndPatch } from '../../core/http/put-and-patch';

/** /v1/domains/{domain_name}/published-courses */
@V1()
@Controller('v1/domains/:domain_name/published-courses')
export class PublishedCoursesV1Controller {
  constructor(
    private readonly domains: DomainsService,
    private readonly published: PublishedCoursesService,
    private readonly extras: PublishedCourseExtrasService,
  ) {}

  private async present(p: Principal, domain: Domain, rows: PublishedCourseRow[], opts: { detail?: boolean; searchable?: boolean }) {
    const courseIds = rows.map((r) => r.course_id);
    const [stats, searchable, tags] = await Promise.all([
      this.published.lessonStats(p, courseIds),
      opts.searchable ? this.published.searchableLessons(p, courseIds) : Promise.resolve(undefined),
      opts.searchable ? this.extras.tagsOf(p, rows.map((r) => r.id)) : Promise.resolve(undefined),
    ]);
    return rows.map((r) => presentPublishedCourse(r, { domainName: domain.name, stats, detail: opts.detail, searchable, tags }));
  }

  @Get()
  @Scopes('published-courses:read')
  async list(@Auth() p: Principal, @Param('domain_name') name: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const searchable = boolParam(query, 'include_searchable_content') ?? false;
    const search = strParam(query, 'search', 500);
    const courseId = strParam(query, 'course__id', 64);
    const domain = await this.domains.requireByName(p, name);
    const { rows, count } = await this.published.list(p, domain, page, { search, courseId });
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

  private async live(p: Principal, name: string, id: string) {
    const domain = await this.domains.requireByName(p, name);
    return this.published.get(p, domain, id);
  }

  // ---- tags (OpenAPI-only)

  @Get(':published_course_id/tags')
  @Scopes('published-courses:read')
  async listTags(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.extras.listTags(p, await this.live(p, name, id), page);
    return page.list(rows.map(presentCourseTag), count);
  }

  @Post(':published_course_id/tags')
  @Scopes('published-courses:write')
  async addTag(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Body() dto: PublishedCourseTagDto) {
    return presentCourseTag(await this.extras.addTag(p, await this.live(p, name, id), dto.tag.id));
  }

  @Get(':published_course_id/tags/:tag_id')
  @Scopes('published-courses:read')
  async readTag(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Param('tag_id') tagId: string) {
    return presentCourseTag(await this.extras.readTag(p, await this.live(p, name, id), tagId));
  }

  @Delete(':published_course_id/tags/:tag_id')
  @HttpCode(204)
  @Scopes('published-courses:write')
  async removeTag(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Param('tag_id') tagId: string): Promise<void> {
    await this.extras.removeTag(p, await this.live(p, name, id), tagId);
  }

  // ---- student-group visibility overrides (OpenAPI-only)

  @Get(':published_course_id/visibility-overrides')
  @Scopes('published-courses:read')
  async listOverrides(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.extras.listOverrides(p, await this.live(p, name, id), page);
    return page.list(rows.map(presentCourseOverride), count);
  }

  @Post(':published_course_id/visibility-overrides')
  @Scopes('published-courses:write')
  async setOverride(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Body() dto: PublishedCourseVisibilityDto) {
    return presentCourseOverride(await this.extras.setOverride(p, await this.live(p, name, id), dto.student_group.id, dto.is_visible));
  }

  @Get(':published_course_id/visibility-overrides/:student_group_id')
  @Scopes('published-courses:read')
  async readOverride(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Param('student_group_id') groupId: string) {
    return presentCourseOverride(await this.extras.readOverride(p, await this.live(p, name, id), groupId));
  }

  @Delete(':published_course_id/visibility-overrides/:student_group_id')
  @HttpCode(204)
  @Scopes('published-courses:write')
  async removeOverride(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Param('student_group_id') groupId: string): Promise<void> {
    await this.extras.removeOverride(p, await this.live(p, name, id), groupId);
  }

  // ---- prerequisites (OpenAPI-only)

  @Get(':published_course_id/published-course-prerequisites')
  @Scopes('published-courses:read')
  async listPrerequisites(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.extras.listPrerequisites(p, await this.live(p, name, id), page);
    return page.list(rows.map((r) => ({ published_course: { id: encodeId('publishedCourse', r.id) } })), count);
  }

  @Post(':published_course_id/published-course-prerequisites')
  @Scopes('published-courses:write')
  async addPrerequisite(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Body() dto: PublishedCoursePrerequisiteDto) {
    const r = await this.extras.addPrerequisite(p, await this.live(p, name, id), dto.published_course.id);
    return { published_course: { id: encodeId('publishedCourse', r.id) } };
  }

  @Delete(':published_course_id/published-course-prerequisites/:prerequisite_published_course_id')
  @HttpCode(204)
  @Scopes('published-courses:write')
  async removePrerequisite(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Param('prerequisite_published_course_id') prereq: string): Promise<void> {
    await this.extras.removePrerequisite(p, await this.live(p, name, id), prereq);
  }

  @Get(':published_course_id/student-group-prerequisites')
  @Scopes('published-courses:read')
  async listGroupPrerequisites(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.extras.listGroupPrerequisites(p, await this.live(p, name, id), page);
    return page.list(rows.map((g) => ({ student_group: { id: encodeId('group', g.id), name: g.name } })), count);
  }

  @Post(':published_course_id/student-group-prerequisites')
  @Scopes('published-courses:write')
  async addGroupPrerequisite(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Body() dto: PublishedCourseGroupPrerequisiteDto) {
    const g = await this.extras.addGroupPrerequisite(p, await this.live(p, name, id), dto.student_group.id);
    return { student_group: { id: encodeId('group', g.id), name: g.name } };
  }

  @Get(':published_course_id/student-group-prerequisites/:student_group_id')
  @Scopes('published-courses:read')
  async readGroupPrerequisite(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Param('student_group_id') groupId: string) {
    const g = await this.extras.readGroupPrerequisite(p, await this.live(p, name, id), groupId);
    return { student_group: { id: encodeId('group', g.id), name: g.name } };
  }

  @Delete(':published_course_id/student-group-prerequisites/:student_group_id')
  @HttpCode(204)
  @Scopes('published-courses:write')
  async removeGroupPrerequisite(@Auth() p: Principal, @Param('domain_name') name: string, @Param('published_course_id') id: string, @Param('student_group_id') groupId: string): Promise<void> {
    await this.extras.removeGroupPrerequisite(p, await this.live(p, name, id), groupId);
  }
}
