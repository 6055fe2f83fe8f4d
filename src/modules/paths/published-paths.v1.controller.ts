import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { EnrollmentCreateDto, EnrollmentUpdateDto } from '../enrollments/dto/program-enrollment.v1.dto';
import { PathItemCreateDto, PathItemUpdateDto, PathLabelCreateDto, PathTagCreateDto, PathVisibilityCreateDto, PublishedPathCreateDto, PublishedPathPatchDto, PublishedPathPutDto } from './dto/published-path.dto';
import { presentLabel, presentOverride, presentPathEnrollment, presentPublishedPath, presentPublishedPathItem, presentTag } from './paths.presenter';
import { PathEnrollmentsService } from './path-enrollments.service';
import { PathItemsService } from './path-items.service';
import { PublishedPathLinksService } from './published-path-links.service';
import { PublishedPathsService } from './published-paths.service';
import { V1 } from '../../core/http/interfaces';
import { PutAndPatch } from '../../core/http/put-and-patch';
import { boolParam, strParam } from '../../core/http/v1-rules';

/**
 * /v1/domains/{domain_name}/published-paths with its labels, path items and enrollments.
 * Published paths, labels and items are the `paths` family; enrollments the `enrollments` family.
 */
@V1()
@Controller('v1/domains/:domain_name/published-paths')
export class PublishedPathsV1Controller {
  constructor(
    private readonly published: PublishedPathsService,
    private readonly links: PublishedPathLinksService,
    private readonly itemsService: PathItemsService,
    private readonly enrollmentsService: PathEnrollmentsService,
  ) {}

  @Get()
  @Scopes('paths:read')
  async list(@Auth() p: Principal, @Param('domain_name') domain: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const q = { search: strParam(query, 'search'), labelName: strParam(query, 'label__name'), includeSearchable: boolParam(query, 'include_searchable_content') ?? false };
    const { rows, count } = await this.published.listPublished(p, domain, page, q);
    return page.list(rows.map(presentPublishedPath), count);
  }

  @Post()
  @Scopes('paths:write')
  async create(@Auth() p: Principal, @Param('domain_name') domain: string, @Body() dto: PublishedPathCreateDto) {
    return presentPublishedPath(await this.published.createPublished(p, domain, dto));
  }

  @Get(':published_path_id')
  @Scopes('paths:read')
  async read(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string) {
    return presentPublishedPath(await this.published.readPublished(p, domain, id));
  }

  @Put(':published_path_id')
  @Scopes('paths:write')
  async update(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Body() dto: PublishedPathPutDto) {
    return presentPublishedPath(await this.published.updatePublished(p, domain, id, dto));
  }

  @Patch(':published_path_id')
  @Scopes('paths:write')
  async partialUpdate(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Body() dto: PublishedPathPatchDto) {
    return presentPublishedPath(await this.published.updatePublished(p, domain, id, dto));
  }

  @Delete(':published_path_id')
  @HttpCode(204)
  @Scopes('paths:write')
  async remove(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string) {
    await this.published.deletePublished(p, domain, id);
  }

  // labels

  @Get(':published_path_id/labels')
  @Scopes('paths:read')
  async labels(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.links.listLabels(p, domain, id, page);
    return page.list(rows.map(presentLabel), count);
  }

  @Post(':published_path_id/labels')
  @Scopes('paths:write')
  async addLabel(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Body() dto: PathLabelCreateDto) {
    return presentLabel(await this.links.addLabel(p, domain, id, dto.label.id));
  }

  @Get(':published_path_id/labels/:label_id')
  @Scopes('paths:read')
  async label(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Param('label_id') labelId: string) {
    return presentLabel(await this.links.readLabel(p, domain, id, labelId));
  }

  @Delete(':published_path_id/labels/:label_id')
  @HttpCode(204)
  @Scopes('paths:write')
  async removeLabel(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Param('label_id') labelId: string) {
    await this.links.removeLabel(p, domain, id, labelId);
  }

  // tags (OpenAPI-only)

  @Get(':published_path_id/tags')
  @Scopes('paths:read')
  async tags(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.links.listTags(p, domain, id, page);
    return page.list(rows.map(presentTag), count);
  }

  @Post(':published_path_id/tags')
  @Scopes('paths:write')
  async addTag(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Body() dto: PathTagCreateDto) {
    return presentTag(await this.links.addTag(p, domain, id, dto.tag.id));
  }

  @Get(':published_path_id/tags/:tag_id')
  @Scopes('paths:read')
  async tag(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Param('tag_id') tagId: string) {
    return presentTag(await this.links.readTag(p, domain, id, tagId));
  }

  @Delete(':published_path_id/tags/:tag_id')
  @HttpCode(204)
  @Scopes('paths:write')
  async removeTag(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Param('tag_id') tagId: string) {
    await this.links.removeTag(p, domain, id, tagId);
  }

  // student-group visibility overrides (OpenAPI-only)

  @Get(':published_path_id/visibility-overrides')
  @Scopes('paths:read')
  async overrides(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.links.listOverrides(p, domain, id, page);
    return page.list(rows.map(presentOverride), count);
  }

  @Post(':published_path_id/visibility-overrides')
  @Scopes('paths:write')
  async setOverride(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Body() dto: PathVisibilityCreateDto) {
    return presentOverride(await this.links.setOverride(p, domain, id, dto.student_group.id, dto.is_visible));
  }

  @Get(':published_path_id/visibility-overrides/:student_group_id')
  @Scopes('paths:read')
  async override(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Param('student_group_id') groupId: string) {
    return presentOverride(await this.links.readOverride(p, domain, id, groupId));
  }

  @Delete(':published_path_id/visibility-overrides/:student_group_id')
  @HttpCode(204)
  @Scopes('paths:write')
  async removeOverride(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Param('student_group_id') groupId: string) {
    await this.links.removeOverride(p, domain, id, groupId);
  }

  // path items

  @Get(':published_path_id/path-items')
  @Scopes('paths:read')
  async items(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.itemsService.listItems(p, domain, id, page);
    return page.list(rows.map(presentPublishedPathItem), count);
  }

  @Post(':published_path_id/path-items')
  @Scopes('paths:write')
  async createItem(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Body() dto: PathItemCreateDto) {
    return presentPublishedPathItem(await this.itemsService.createItem(p, domain, id, dto));
  }

  @Get(':published_path_id/path-items/:path_item_id')
  @Scopes('paths:read')
  async item(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Param('path_item_id') itemId: string) {
    return presentPublishedPathItem(await this.itemsService.readItem(p, domain, id, itemId));
  }

  @PutAndPatch(':published_path_id/path-items/:path_item_id')
  @Scopes('paths:write')
  async updateItem(
    @Auth() p: Principal,
    @Param('domain_name') domain: string,
    @Param('published_path_id') id: string,
    @Param('path_item_id') itemId: string,
    @Body() dto: PathItemUpdateDto,
  ) {
    return presentPublishedPathItem(await this.itemsService.updateItem(p, domain, id, itemId, dto));
  }

  @Delete(':published_path_id/path-items/:path_item_id')
  @HttpCode(204)
  @Scopes('paths:write')
  async deleteItem(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Param('path_item_id') itemId: string) {
    await this.itemsService.deleteItem(p, domain, id, itemId);
  }

  // enrollments

  @Get(':published_path_id/published-path-enrollments')
  @Scopes('enrollments:read')
  async enrollments(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.enrollmentsService.listEnrollments(p, domain, id, page);
    return page.list(rows.map(presentPathEnrollment), count);
  }

  @Post(':published_path_id/published-path-enrollments')
  @Scopes('enrollments:write')
  async enroll(
    @Auth() p: Principal,
    @Param('domain_name') domain: string,
    @Param('published_path_id') id: string,
    @Body() dto: EnrollmentCreateDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { view, created } = await this.enrollmentsService.enroll(p, domain, id, dto);
    reply.status(created ? 201 : 200);
    return presentPathEnrollment(view);
  }

  @Get(':published_path_id/published-path-enrollments/:published_path_enrollment_id')
  @Scopes('enrollments:read')
  async enrollment(@Auth() p: Principal, @Param('domain_name') domain: string, @Param('published_path_id') id: string, @Param('published_path_enrollment_id') eid: string) {
    return presentPathEnrollment(await this.enrollmentsService.readEnrollment(p, domain, id, eid));
  }

  @PutAndPatch(':published_path_id/published-path-enrollments/:published_path_enrollment_id')
  @Scopes('enrollments:write')
  async updateEnrollment(
    @Auth() p: Principal,
    @Param('domain_name') domain: string,
    @Param('published_path_id') id: string,
    @Param('published_path_enrollment_id') eid: string,
    @Body() dto: EnrollmentUpdateDto,
  ) {
    return presentPathEnrollment(await this.enrollmentsService.updateEnrollment(p, domain, id, eid, dto));
  }
}
