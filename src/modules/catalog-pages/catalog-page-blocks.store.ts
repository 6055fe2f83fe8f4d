/**
 * The `catalog_page_blocks` table (catalog-pages owns it; docs/decisions/data-access.md): the row type a
 * block is read as, checked against the migrated schema by row-types.spec.ts, and its column list.
 */

/** A content block of a builder catalog page, with the members of its typed block. @table catalog_page_blocks */
export interface BlockRow {
  id: string;
  order: number;
  type: string;
  html: string;
  component: string | null;
  header_text: string;
  header_sub_text: string;
  include_profile_link: boolean;
  max_tiles: number;
  alignment: string | null;
}

/** BlockRow's columns, for a SELECT or RETURNING list. */
export const BLOCK_COLUMNS = `id, "order", type, html, component, header_text, header_sub_text, include_profile_link, max_tiles, alignment`;
