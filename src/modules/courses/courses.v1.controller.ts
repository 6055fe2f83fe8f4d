import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiExtension, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { presentLabel } from '../labels-tags/labels.service';
import { CourseLabelsService } from './course-labels.service';
import { Course } from './course.entity';
import { presentCourse } from './courses.v1.presenter';
import { V1CoursesService } from './courses.v1.service';
import { V1 } from '../../core/http/interfaces';
import { CourseLabelRequest, CourseListQuery, CourseRequest, PatchedCourseRequest } from './dto/course.v1.dto';

/** The members of the course this platform adds to the published Course (CONVENTIONS §15), on every operation that reads or writes it. */
const CertificateMembers = () => ApiExtension('x-extension-members', ['issues_certificate', 'certificate_validity_days']);

/**
 * /v1/courses and /v1/courses/{course_id}/labels (courses:read / courses:write). Course pages are
 * caller-set up to 100; course-label pages up to 1000 like labels.
 */
@V1()
@ApiTags('v1 courses')
@Controller('v1/courses')
export class CoursesV1Controller {
  constructor(
    private readonly courses: V1CoursesService,
    private readonly labels: CourseLabelsService,
  ) {}

  @CertificateMembers()
  @Get()
  @Scopes('courses:read')
  async list(@Auth() p: Principal, @Query() query: CourseListQuery, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    // An empty filter value filters nothing (as django-filter does).
    const updatedSince = v1UpdatedSince(query as Record<string, unknown>);
    const [rows, count] = await this.courses.list(p, page, query.label__name || undefined, updatedSince);
    return page.list(await this.present(p, rows), count);
  }

  @CertificateMembers()
  @Post()
  @Scopes('courses:write')
  async create(@Auth() p: Principal, @Body() dto: CourseRequest) {
    return this.presentOne(p, await this.courses.create(p, dto));
  }

  @CertificateMembers()
  @Get(':course_id')
  @Scopes('courses:read')
  async read(@Auth() p: Principal, @Param('course_id') id: string) {
    return this.presentOne(p, await this.courses.get(p, id));
  }

  @CertificateMembers()
  @Put(':course_id')
  @Scopes('courses:write')
  async update(@Auth() p: Principal, @Param('course_id') id: string, @Body() dto: CourseRequest) {
    return this.presentOne(p, await this.courses.update(p, id, dto));
  }

  @CertificateMembers()
  @Patch(':course_id')
  @Scopes('courses:write')
  async partialUpdate(@Auth() p: Principal, @Param('course_id') id: string, @Body() dto: PatchedCourseRequest) {
    return this.presentOne(p, await this.courses.update(p, id, dto));
  }

  @Delete(':course_id')
  @HttpCode(204)
  @Scopes('courses:write')
  async remove(@Auth() p: Principal, @Param('course_id') id: string) {
    await this.courses.delete(p, id);
  }

  @Get(':course_id/labels')
  @Scopes('courses:read')
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async listLabels(@Auth() p: Principal, @Param('course_id') id: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const updatedSince = v1UpdatedSince(query);
    const course = await this.courses.get(p, id);
    const [rows, count] = await this.labels.list(p, course.id, page, updatedSince);
    return page.list(
      rows.map((l) => ({ label: presentLabel(l) })),
      count,
    );
  }

  @Post(':course_id/labels')
  @Scopes('courses:write')
  async addLabel(@Auth() p: Principal, @Param('course_id') id: string, @Body() dto: CourseLabelRequest) {
    const course = await this.courses.get(p, id);
    return { label: presentLabel(await this.labels.add(p, course.id, dto.label)) };
  }

  @Get(':course_id/labels/:label_id')
  @Scopes('courses:read')
  async readLabel(@Auth() p: Principal, @Param('course_id') id: string, @Param('label_id') labelId: string) {
    const course = await this.courses.get(p, id);
    return { label: presentLabel(await this.labels.get(p, course.id, labelId)) };
  }

  @Delete(':course_id/labels/:label_id')
  @HttpCode(204)
  @Scopes('courses:write')
  async removeLabel(@Auth() p: Principal, @Param('course_id') id: string, @Param('label_id') labelId: string) {
    const course = await this.courses.get(p, id);
    await this.labels.remove(p, course.id, labelId);
  }

  private async present(p: Principal, courses: Course[]) {
    const x = await this.courses.extras(p, courses);
    return courses.map((c) => presentCourse(c, x));
  }

  private async presentOne(p: Principal, course: Course) {
    return (await this.present(p, [course]))[0];
  }
}
