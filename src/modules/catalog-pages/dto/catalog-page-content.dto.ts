import { Bool, Choice, Int, requireMembers, Str } from '../../../core/http/v1-rules';

export const BLOCK_TYPES = ['HTML', 'HERO', 'ANNOUNCEMENT_BAR', 'TILE_SECTION', 'IN_PROGRESS_COURSES'] as const;
export const COMPONENTS = ['in_progress_content', 'federated_search'] as const;
export const ALIGNMENTS = ['left', 'center', 'right'] as const;

/** ClassicCatalogPageItemRequest / TileContainerItemRequest: an order (dense; the end when absent) and exactly one item id. */
export class PageItemRequest {
  @Int(1) order?: number;
  @Str({ min: 1, max: 64 }) item_catalog_page_id?: string;
  @Str({ min: 1, max: 64 }) item_published_path_id?: string;
  @Str({ min: 1, max: 64 }) item_published_course_id?: string;
  @Str({ min: 1, max: 64 }) item_plan_id?: string;
}

/** The order updates of items and content blocks (PUT and PATCH: nothing required). */
export class OrderUpdateRequest {
  @Int(1) order?: number;
}

/** PageContentBlockItemRequest: type required. */
export class PageContentBlockRequest {
  @Int(1) order?: number;
  @Choice(BLOCK_TYPES) type!: string;
}
requireMembers(PageContentBlockRequest, ['type']);

/** HtmlContentBlockRequest. */
export class HtmlContentBlockRequest {
  @Str({ max: 100_000 }) html?: string;
}

/** TileContainerContentBlockRequest. */
export class TileContainerBlockRequest {
  @Str({ max: 100_000 }) header_text?: string;
  @Str({ max: 100_000 }) header_sub_text?: string;
  @Choice(ALIGNMENTS) alignment?: string;
}

/** PatchedComponentContentBlockRequest: nothing required. */
export class ComponentBlockPatchRequest {
  @Choice(COMPONENTS) component?: string;
  @Str({ max: 100_000 }) header_text?: string;
  @Str({ max: 100_000 }) header_sub_text?: string;
  @Bool() include_profile_link?: boolean;
  @Int(1) max_tiles?: number;
  @Choice(ALIGNMENTS) alignment?: string;
}

/** ComponentContentBlockRequest (PUT): component required. */
export class ComponentBlockRequest extends ComponentBlockPatchRequest {}
requireMembers(ComponentBlockRequest, ['component']);
