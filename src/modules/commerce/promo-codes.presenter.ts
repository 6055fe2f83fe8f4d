import { Type, type Static } from '@sinclair/typebox';
import { encodeId } from '../../core/ids/ids';
import { DateTime, declaredV1, nullable, PublicId, StringEnum } from '../../core/openapi/declared-shape';
import { iso } from '../../core/http/v1-rules';
import { presentOfferBasics } from './offers.presenter';
import type { OfferItemView } from './promo-codes.offers';
import type { PoolRow, PromoCodeRow } from './promo-codes.service';

/**
 * PromoCodePoolListItem / PromoCodePoolCreate / PromoCodePoolUpdate: one shape with every member
 * (discount_type, single_use_per_user included), declared once (core/openapi/declared-shape.ts).
 */
export const PromoCodePoolSchema = declaredV1(
  ['PromoCodePoolCreate', 'PromoCodePoolListItem', 'PromoCodePoolUpdate'],
  Type.Object({
    id: PublicId(),
    name: Type.String(),
    active: Type.Boolean(),
    discount_type: StringEnum(['PRICE_OVERRIDE', 'PERCENT_OFF']),
    price_cents: nullable(Type.Integer()),
    percent_off: nullable(Type.Integer()),
    starts_at: DateTime(),
    expires_at: nullable(DateTime()),
    expire_content: Type.Boolean(),
    single_use_per_user: Type.Boolean(),
  }),
);

export function presentPool(r: PoolRow): Static<typeof PromoCodePoolSchema> {
  return {
    id: encodeId('promoCodePool', r.id),
    name: r.name,
    active: r.active,
    discount_type: r.discount_type,
    price_cents: r.price_cents,
    percent_off: r.percent_off,
    starts_at: iso(r.starts_at)!,
    expires_at: iso(r.expires_at),
    expire_content: r.expire_content,
    single_use_per_user: r.single_use_per_user,
  };
}

/** PromoCodePoolOffer: `{offers: [OfferItem]}` (a list result holds one offer, the attach answer every offer it named). */
export const presentPoolOffers = (offers: OfferItemView[]) => ({ offers: offers.map(presentOfferBasics) });

/** The published PromoCode (and PromoCodeUpdate), declared once. */
export const PromoCodeSchema = declaredV1(
  ['PromoCode', 'PromoCodeUpdate'],
  Type.Object({ id: PublicId(), code: Type.String(), use_count: Type.Integer(), max_uses: Type.Integer(), active: Type.Boolean(), promo_code_pool_id: PublicId() }),
);

export function presentPromoCode(r: PromoCodeRow): Static<typeof PromoCodeSchema> {
  return {
    id: encodeId('promoCode', r.id),
    code: r.code,
    use_count: r.use_count,
    max_uses: r.max_uses,
    active: r.active,
    promo_code_pool_id: encodeId('promoCodePool', r.pool_id),
  };
}
