import type { EntityManager } from 'typeorm';
import { offerItemsOf } from './offers-v1.service';
import type { OfferItemRow } from './offers';

/** One offer as the promo-code pool operations show it (the published OfferItem). */
export type OfferItemView = OfferItemRow;

/** The offers of the organization with these uuids, live or not, in one query (unknown ones left out). */
export function loadOfferItems(m: EntityManager, organizationId: string, ids: string[]): Promise<OfferItemView[]> {
  return offerItemsOf(m, organizationId, ids);
}
