import { serviceIn } from '../../core/http/service-ref';
import { Controller } from '@nestjs/common';
import { V1 } from '../../core/http/interfaces';
import { V1Links, V1Resource } from '../../core/routes/v1-resource';
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
@V1Links({
  service: serviceIn(CatalogPagesService, (x) => x.tags),
  at: `:${ITEM}/tags`,
  id: 'tag_id',
  scopes: 'catalog-pages',
  present: presentPageTag,
  body: PublishedCourseTagDto,
  handlers: ['listTags', 'addTag', 'readTag', 'removeTag'],
})
@V1Resource<CatalogPagesService['overrides']>({
  service: serviceIn(CatalogPagesService, (x) => x.overrides),
  at: `:${ITEM}/visibility-overrides`,
  id: 'student_group_id',
  scopes: 'catalog-pages',
  present: presentPageOverride,
  list: { call: (s) => s.list, cap: V1_PAGE_CAP.large, handler: 'listOverrides' },
  create: { call: (s) => s.add, body: PublishedCourseVisibilityDto, handler: 'setOverride' },
  read: { call: (s) => s.read, handler: 'readOverride' },
  remove: { call: (s) => s.remove, handler: 'removeOverride' },
})
@V1Resource<CatalogPagesService>({
  service: CatalogPagesService,
  id: ITEM,
  scopes: 'catalog-pages',
  present: presentCatalogPage,
  list: { call: (s) => s.list, cap: V1_PAGE_CAP.small },
  create: { call: (s) => s.create, body: CatalogPageCreateRequest },
  read: { call: (s) => s.get, handler: 'read' },
  update: { call: (s) => s.update, body: CatalogPageRequest },
  remove: { call: (s) => s.remove },
})
@Controller('v1/domains/:domain_name/catalog-pages')
export class CatalogPagesV1Controller {
  constructor(readonly pages: CatalogPagesService) {}
}
