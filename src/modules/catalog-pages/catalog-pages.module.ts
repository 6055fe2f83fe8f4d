import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains/domains.module';
import { CatalogPageContentService } from './catalog-page-content.service';
import { CatalogPageContentV1Controller } from './catalog-page-content.v1.controller';
import { CatalogPagesService } from './catalog-pages.service';
import { CatalogPagesV1Controller } from './catalog-pages.v1.controller';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogPageBlock } from './catalog-page-block.entity';
import { CatalogPageItem } from './catalog-page-item.entity';
import { CatalogPageTag } from './catalog-page-tag.entity';
import { CatalogPageVisibilityOverride } from './catalog-page-visibility-override.entity';
import { CatalogPage } from './catalog-page.entity';

/** Catalog pages of a domain (/v1). Owns catalog_pages, catalog_page_tags, catalog_page_visibility_overrides, catalog_page_blocks, catalog_page_items. */
@Module({
  imports: [TypeOrmModule.forFeature([CatalogPageBlock, CatalogPageItem, CatalogPageTag, CatalogPageVisibilityOverride, CatalogPage]), DomainsModule],
  controllers: [CatalogPagesV1Controller, CatalogPageContentV1Controller],
  providers: [CatalogPagesService, CatalogPageContentService],
})
export class CatalogPagesModule {}
