/**
 * The `catalog_pages` table (catalog-pages owns it; docs/decisions/data-access.md): the row type a page is
 * read as (with its domain's name), checked against the migrated schema by row-types.spec.ts.
 */

/** A catalog page of a domain. @table catalog_pages */
export interface CatalogPageRow {
  id: string;
  /** @column domains.name */
  domain_name: string;
  page_title: string;
  slug: string;
  short_description: string;
  tile_callout: string;
  hidden: boolean;
  strict_enforce_group_visibility: boolean;
  is_classic: boolean;
  header_html: string;
  tile_sort_method: string;
  search_location: string;
  search_behavior: string;
  item_layout: string;
}
