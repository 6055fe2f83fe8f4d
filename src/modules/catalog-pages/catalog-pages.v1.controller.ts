import { Controller } from '@nestjs/common';
import { V1 } from '../../core/http/interfaces';
import { V1Links, V1Resource } from '../../core/http/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { PublishedCourseTagDto, PublishedCourseVisibilityDto } from '../published-courses/dto/published-course.dto';
import { CatalogPagesService, presentCatalogPage, presentPageOverride, presentPageTag } from './catalog-pages.service';
import { CatalogPageCreateRequest, CatalogPageRequest } from './dto/catalog-page.dto';

const ITEM = 'catalog_page_id';

/**
 * /v1/domains/{domain_name}/catalog-pages (scopes catalog-pages:read / :write): the pages, their tags
 * and their student-group visibility overrides (what a page holds: catalog-page-content.v1.controller.ts).
 */
@V1()
@V1Links({ service: 'pages.tags', at: `:${ITEM}/tags`, id: 'tag_id', scopes: 'catalog-pages', present: presentPageTag, body: PublishedCourseTagDto, handlers: ['listTags', 'addTag', 'readTag', 'removeTag'] })
@V1Resource<CatalogPagesService['overrides']>({
  service: 'pages.overrides', at: `:${ITEM}/visibility-overrides`, id: 'student_group_id', scopes: 'catalog-pages', present: presentPageOverride,
  list: { call: 'list', cap: V1_PAGE_CAP.large, handler: 'listOverrides' },
  create: { call: 'add', body: PublishedCourseVisibilityDto, handler: 'setOverride' },
  read: { call: 'read', handler: 'readOverride' },
  remove: { call: 'remove', handler: 'removeOverride' },
})
@V1Resource<CatalogPagesService>({
  service: 'pages', id: ITEM, scopes: 'catalog-pages', present: presentCatalogPage,
  list: { call: 'list', cap: V1_PAGE_CAP.small },
  create: { call: 'create', body: CatalogPageCreateRequest },
  read: { call: 'get', handler: 'read' },
  update: { call: 'update', body: CatalogPageRequest },
  remove: { call: 'remove' },
})
@Controller('v1/domains/:domain_name/catalog-pages')
export class CatalogPagesV1Controller {
  constructor(readonly pages: CatalogPagesService) {}
}
