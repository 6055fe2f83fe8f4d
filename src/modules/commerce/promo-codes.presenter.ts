import { encodeId } from '../../core/ids/ids';
import { iso } from '../../core/http/v1-rules';
import { presentOfferBasics } from './offers.presenter';
import type { OfferItemView } from './promo-codes.offers';
import type { PoolRow, PromoCodeRow } from './promo-codes.service';

/** PromoCodePoolListItem / PromoCodePoolCreate / PromoCodePoolUpdate: one shape with every member (discount_type, single_use_per_user included). */
export function presentPool(r: PoolRow) {
  return {
    id: encodeId('promoCodePool', r.id),
    name: r.name,
    active: r.active,
    discount_type: r.discount_type,
    price_cents: r.price_cents,
    percent_off: r.percent_off,
    starts_at: iso(r.starts_at),
    expires_at: iso(r.expires_at),
    expire_content: r.expire_content,
    single_use_per_user: r.single_use_per_user,
  };
}

/** PromoCodePoolOffer: `{offers: [OfferItem]}` (a list result holds one offer, the attach answer every offer it named). */
export const presentPoolOffers = (offers: OfferItemView[]) => ({ offers: offers.map(presentOfferBasics) });

/** PromoCode. */
export function presentPromoCode(r: PromoCodeRow) {
  return {
    id: encodeId('promoCode', r.id),
    code: r.code,
    use_count: r.use_count,
    max_uses: r.max_uses,
    active: r.active,
    promo_code_pool_id: encodeId('promoCodePool', r.pool_id),
  };
}
