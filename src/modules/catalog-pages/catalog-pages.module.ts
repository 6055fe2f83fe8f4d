import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains/domains.module';
import { CatalogPageContentService } from './catalog-page-content.service';
import { CatalogPageContentV1Controller } from './catalog-page-content.v1.controller';
import { CatalogPagesService } from './catalog-pages.service';
import { CatalogPagesV1Controller } from './catalog-pages.v1.controller';

/** Catalog pages of a domain (/v1). Owns catalog_pages, catalog_page_tags, catalog_page_visibility_overrides, catalog_page_blocks, catalog_page_items. */
@Module({
  imports: [DomainsModule],
  controllers: [CatalogPagesV1Controller, CatalogPageContentV1Controller],
  providers: [CatalogPagesService, CatalogPageContentService],
})
export class CatalogPagesModule {}
