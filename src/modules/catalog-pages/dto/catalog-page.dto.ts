import { Bool, Choice, requireMembers, Str } from '../../../core/http/v1-rules';

export const TILE_SORT_METHODS = ['catalog_settings_order', 'registered_first_completed_last_order', 'alphabetically_a_to_z', 'alphabetically_z_to_a'] as const;
export const SEARCH_LOCATIONS = ['HEADER_RIGHT', 'LEFT_NAV_TOP', 'HIDDEN', 'IN_PLACE_OF_HEADER'] as const;
export const SEARCH_BEHAVIORS = ['GLOBAL', 'LOCAL', 'FEDERATED', 'NONE'] as const;
export const ITEM_LAYOUTS = ['TILE', 'LIST'] as const;

/** CatalogPageRequest / PatchedCatalogPageRequest: nothing required (PUT and PATCH are both partial, as published). */
export class CatalogPageRequest {
  @Str({ min: 1, max: 500 }) page_title?: string;
  @Str({ min: 1, max: 255 }) slug?: string;
  @Str({ min: 1, max: 300 }) short_description?: string;
  @Str({ min: 1, max: 15 }) tile_callout?: string;
  @Bool() hidden?: boolean;
  @Bool() strict_enforce_group_visibility?: boolean;
  @Str({ min: 1, max: 1_000_000 }) header_html?: string;
  @Choice(TILE_SORT_METHODS) tile_sort_method?: string;
  @Choice(SEARCH_LOCATIONS) search_location?: string;
  @Choice(SEARCH_BEHAVIORS) search_behavior?: string;
  @Choice(ITEM_LAYOUTS) item_layout?: string;
}

/** CatalogPageCreateRequest: page_title required; is_classic (classic or builder page) set once, at creation. */
export class CatalogPageCreateRequest extends CatalogPageRequest {
  @Bool() is_classic?: boolean;
}
requireMembers(CatalogPageCreateRequest, ['page_title']);
