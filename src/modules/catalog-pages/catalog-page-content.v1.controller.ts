import { Controller } from '@nestjs/common';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { CatalogPageContentService, presentBlockItem, presentClassicItem, presentComponentBlock, presentHtmlBlock, presentTileBlock, presentTileItem } from './catalog-page-content.service';
import {
  ComponentBlockPatchRequest,
  ComponentBlockRequest,
  HtmlContentBlockRequest,
  OrderUpdateRequest,
  PageContentBlockRequest,
  PageItemRequest,
  TileContainerBlockRequest,
} from './dto/catalog-page-content.dto';

type S = CatalogPageContentService;
const PAGE = ':catalog_page_id';

/**
 * What a catalog page holds (/v1/domains/{domain_name}/catalog-pages/{catalog_page_id}/..., scopes
 * catalog-pages:*): classic page items, content blocks of a builder page (their order), the HTML,
 * tile container and component blocks (their members), and a tile container's items. PUT and PATCH
 * alike where the published request requires nothing; the component block's PUT requires `component`.
 */
@V1()
@V1Resource<S>({
  service: CatalogPageContentService,
  at: `${PAGE}/classic-page-items`,
  id: 'id',
  scopes: 'catalog-pages',
  present: presentClassicItem,
  list: { call: (s) => s.listClassic, cap: V1_PAGE_CAP.small },
  create: { call: (s) => s.addClassic, body: PageItemRequest },
  read: { call: (s) => s.getClassic },
  update: { call: (s) => s.orderClassic, body: OrderUpdateRequest },
  remove: { call: (s) => s.removeClassic },
})
@V1Resource<S>({
  service: CatalogPageContentService,
  at: `${PAGE}/content-blocks`,
  id: 'id',
  scopes: 'catalog-pages',
  present: presentBlockItem,
  list: { call: (s) => s.listBlocks, cap: V1_PAGE_CAP.small },
  create: { call: (s) => s.addBlock, body: PageContentBlockRequest },
  read: { call: (s) => s.getBlock },
  update: { call: (s) => s.orderBlock, body: OrderUpdateRequest },
  remove: { call: (s) => s.removeBlock },
})
@V1Resource<S>({
  service: CatalogPageContentService,
  at: `${PAGE}/html-content-blocks`,
  id: 'id',
  scopes: 'catalog-pages',
  present: presentHtmlBlock,
  read: { call: (s) => s.getHtml },
  update: { call: (s) => s.setHtml, body: HtmlContentBlockRequest },
})
@V1Resource<S>({
  service: CatalogPageContentService,
  at: `${PAGE}/tile-container-content-blocks`,
  id: 'id',
  scopes: 'catalog-pages',
  present: presentTileBlock,
  read: { call: (s) => s.getTile },
  update: { call: (s) => s.setTile, body: TileContainerBlockRequest },
})
@V1Resource<S>({
  service: CatalogPageContentService,
  at: `${PAGE}/component-content-blocks`,
  id: 'id',
  scopes: 'catalog-pages',
  present: presentComponentBlock,
  read: { call: (s) => s.getComponent },
  update: { call: (s) => s.setComponent, body: ComponentBlockRequest, patchBody: ComponentBlockPatchRequest },
})
@V1Resource<S>({
  service: CatalogPageContentService,
  at: `${PAGE}/tile-container-content-blocks/:tile_container_id/items`,
  id: 'id',
  scopes: 'catalog-pages',
  present: presentTileItem,
  list: { call: (s) => s.listTileItems, cap: V1_PAGE_CAP.small },
  create: { call: (s) => s.addTileItem, body: PageItemRequest },
  read: { call: (s) => s.getTileItem },
  update: { call: (s) => s.orderTileItem, body: OrderUpdateRequest },
  remove: { call: (s) => s.removeTileItem },
})
@Controller('v1/domains/:domain_name/catalog-pages')
export class CatalogPageContentV1Controller {
  constructor(readonly content: CatalogPageContentService) {}
}
