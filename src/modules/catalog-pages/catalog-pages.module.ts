import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains/domains.module';
import { CatalogPagesService } from './catalog-pages.service';
import { CatalogPagesV1Controller } from './catalog-pages.v1.controller';

/** Catalog pages of a domain (/v1). Owns catalog_pages, catalog_page_tags, catalog_page_visibility_overrides. */
@Module({
  imports: [DomainsModule],
  controllers: [CatalogPagesV1Controller],
  providers: [CatalogPagesService],
})
export class CatalogPagesModule {}
