/**
 * The `catalog_page_items` table (catalog-pages owns it; docs/decisions/data-access.md): the row type an
 * item is read as, checked against the migrated schema by row-types.spec.ts, and its column list.
 */

/** An item of a classic catalog page or of a tile container: exactly one of the four item ids is set. @table catalog_page_items */
export interface ItemRow {
  id: string;
  order: number;
  item_type: string;
  item_catalog_page_id: string | null;
  item_published_course_id: string | null;
  item_published_path_id: string | null;
  item_plan_id: string | null;
}

/** ItemRow's columns, for a SELECT or RETURNING list. */
export const ITEM_COLUMNS = `id, "order", item_type, item_catalog_page_id, item_published_course_id, item_published_path_id, item_plan_id`;
