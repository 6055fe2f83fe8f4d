import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { V1Links, V1Resource } from '../../core/routes/v1-resource';
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
import { serviceIn } from '../../core/http/service-ref';

const ITEM = 'published_path_id';

/**
 * /v1/domains/{domain_name}/published-paths with its labels, tags and group visibility overrides
 * (the last two OpenAPI-only), path items and enrollments. Published paths, their links and items
 * are the `paths` family; enrollments the `enrollments` family (enrolling answers 201, or 200 with
 * the enrollment the user already has).
 */
@V1()
@V1Resource<PublishedPathsService>({
  service: PublishedPathsService,
  id: ITEM,
  scopes: 'paths',
  present: presentPublishedPath,
  create: { call: (s) => s.createPublished, handler: 'create', body: PublishedPathCreateDto },
  read: { call: (s) => s.readPublished, handler: 'read' },
  update: { call: (s) => s.updatePublished, handler: 'update', body: PublishedPathPutDto, patchBody: PublishedPathPatchDto },
  remove: { call: (s) => s.deletePublished, handler: 'remove' },
})
@V1Links({
  service: serviceIn(PublishedPathLinksService, (x) => x.labels),
  at: `:${ITEM}/labels`,
  id: 'label_id',
  scopes: 'paths',
  present: presentLabel,
  body: PathLabelCreateDto,
  handlers: ['labels', 'addLabel', 'label', 'removeLabel'],
})
@V1Links({
  service: serviceIn(PublishedPathLinksService, (x) => x.tags),
  at: `:${ITEM}/tags`,
  id: 'tag_id',
  scopes: 'paths',
  present: presentTag,
  body: PathTagCreateDto,
  handlers: ['tags', 'addTag', 'tag', 'removeTag'],
})
@V1Links({
  service: serviceIn(PublishedPathLinksService, (x) => x.overrides),
  at: `:${ITEM}/visibility-overrides`,
  id: 'student_group_id',
  scopes: 'paths',
  present: presentOverride,
  body: PathVisibilityCreateDto,
  handlers: ['overrides', 'setOverride', 'override', 'removeOverride'],
})
@V1Resource<PathItemsService>({
  service: PathItemsService,
  at: `:${ITEM}/path-items`,
  id: 'path_item_id',
  scopes: 'paths',
  present: presentPublishedPathItem,
  list: { call: (s) => s.listItems, handler: 'items', cap: V1_PAGE_CAP.small },
  create: { call: (s) => s.createItem, body: PathItemCreateDto },
  read: { call: (s) => s.readItem, handler: 'item' },
  update: { call: (s) => s.updateItem, body: PathItemUpdateDto },
  remove: { call: (s) => s.deleteItem },
})
@V1Resource<PathEnrollmentsService>({
  service: PathEnrollmentsService,
  at: `:${ITEM}/published-path-enrollments`,
  id: 'published_path_enrollment_id',
  scopes: 'enrollments',
  present: presentPathEnrollment,
  list: { call: (s) => s.listEnrollments, handler: 'enrollments', cap: V1_PAGE_CAP.large },
  create: { call: (s) => s.enroll, upsert: true, body: ProgramEnrollmentCreateDto },
  read: { call: (s) => s.readEnrollment, handler: 'enrollment' },
  update: { call: (s) => s.updateEnrollment, body: ProgramEnrollmentUpdateDto },
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
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async list(@Auth() p: Principal, @Param('domain_name') domain: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const q = {
      search: strParam(query, 'search'),
      labelName: strParam(query, 'label__name'),
      includeSearchable: boolParam(query, 'include_searchable_content') ?? false,
      updatedSince: v1UpdatedSince(query),
    };
    const { rows, count } = await this.published.listPublished(p, domain, page, q);
    return page.list(rows.map(presentPublishedPath), count);
  }
}
