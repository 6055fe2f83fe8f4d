import { Controller, Get, Param, Query } from '@nestjs/common';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { V1Links, V1Resource } from '../../core/http/v1-resource';
import { boolParam, strParam } from '../../core/http/v1-rules';
import { Paged, V1_PAGE_CAP, V1Page } from '../../core/pagination/v1-page';
import { ProgramEnrollmentCreateDto, ProgramEnrollmentUpdateDto } from '../enrollments/dto/program-enrollment.v1.dto';
import {
  PathItemCreateDto,
  PathItemUpdateDto,
  PathLabelCreateDto,
  PathTagCreateDto,
  PathVisibilityCreateDto,
  PublishedPathCreateDto,
  PublishedPathPatchDto,
  PublishedPathPutDto,
} from './dto/published-path.dto';
import { presentLabel, presentOverride, presentPathEnrollment, presentPublishedPath, presentPublishedPathItem, presentTag } from './paths.presenter';
import { PathEnrollmentsService } from './path-enrollments.service';
import { PathItemsService } from './path-items.service';
import { PublishedPathLinksService } from './published-path-links.service';
import { PublishedPathsService } from './published-paths.service';

const ITEM = 'published_path_id';

/**
 * /v1/domains/{domain_name}/published-paths with its labels, tags and group visibility overrides
 * (the last two OpenAPI-only), path items and enrollments. Published paths, their links and items
 * are the `paths` family; enrollments the `enrollments` family (enrolling answers 201, or 200 with
 * the enrollment the user already has).
 */
@V1()
@V1Resource<PublishedPathsService>({
  service: 'published', id: ITEM, scopes: 'paths', present: presentPublishedPath,
  create: { call: 'createPublished', handler: 'create', body: PublishedPathCreateDto },
  read: { call: 'readPublished', handler: 'read' },
  update: { call: 'updatePublished', handler: 'update', body: PublishedPathPutDto, patchBody: PublishedPathPatchDto },
  remove: { call: 'deletePublished', handler: 'remove' },
})
@V1Links({ service: 'links.labels', at: `:${ITEM}/labels`, id: 'label_id', scopes: 'paths', present: presentLabel, body: PathLabelCreateDto, handlers: ['labels', 'addLabel', 'label', 'removeLabel'] })
@V1Links({ service: 'links.tags', at: `:${ITEM}/tags`, id: 'tag_id', scopes: 'paths', present: presentTag, body: PathTagCreateDto, handlers: ['tags', 'addTag', 'tag', 'removeTag'] })
@V1Links({ service: 'links.overrides', at: `:${ITEM}/visibility-overrides`, id: 'student_group_id', scopes: 'paths', present: presentOverride, body: PathVisibilityCreateDto, handlers: ['overrides', 'setOverride', 'override', 'removeOverride'] })
@V1Resource<PathItemsService>({
  service: 'itemsService', at: `:${ITEM}/path-items`, id: 'path_item_id', scopes: 'paths', present: presentPublishedPathItem,
  list: { call: 'listItems', handler: 'items', cap: V1_PAGE_CAP.small },
  create: { call: 'createItem', body: PathItemCreateDto },
  read: { call: 'readItem', handler: 'item' },
  update: { call: 'updateItem', body: PathItemUpdateDto },
  remove: { call: 'deleteItem' },
})
@V1Resource<PathEnrollmentsService>({
  service: 'enrollmentsService', at: `:${ITEM}/published-path-enrollments`, id: 'published_path_enrollment_id', scopes: 'enrollments', present: presentPathEnrollment,
  list: { call: 'listEnrollments', handler: 'enrollments', cap: V1_PAGE_CAP.large },
  create: { call: 'enroll', upsert: true, body: ProgramEnrollmentCreateDto },
  read: { call: 'readEnrollment', handler: 'enrollment' },
  update: { call: 'updateEnrollment', body: ProgramEnrollmentUpdateDto },
})
@Controller('v1/domains/:domain_name/published-paths')
export class PublishedPathsV1Controller {
  constructor(
    readonly published: PublishedPathsService,
    readonly links: PublishedPathLinksService,
    readonly itemsService: PathItemsService,
    readonly enrollmentsService: PathEnrollmentsService,
  ) {}

  @Get()
  @Scopes('paths:read')
  async list(@Auth() p: Principal, @Param('domain_name') domain: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const q = { search: strParam(query, 'search'), labelName: strParam(query, 'label__name'), includeSearchable: boolParam(query, 'include_searchable_content') ?? false };
    const { rows, count } = await this.published.listPublished(p, domain, page, q);
    return page.list(rows.map(presentPublishedPath), count);
  }
}
