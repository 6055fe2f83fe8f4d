import { omitEmpty } from '../../core/http/optional-members';
import { encodeId } from '../../core/ids/ids';
import { iso } from '../../core/http/v1-rules';
import { domainBase } from '../domains/domain-url';
import type { OfferRow } from './offers';

export const money = (cents: number, currency: string) => ({ amount: (cents / 100).toFixed(2), currency_code: currency });

/** An offer's price in cents: an offer whose price was never set is free (CONVENTIONS §11). */
export const priceCents = (o: { price_cents: number | string | null }) => (o.price_cents === null || o.price_cents === undefined ? 0 : Number(o.price_cents));

/** `offer {id, registration_open, registration_url, price}`; price `{amount: "0.00", currency_code}` until set. */
export function presentOffer(o: OfferRow | undefined, domainName: string) {
  if (!o) return null;
  const id = encodeId('offer', o.id);
  return {
    id,
    registration_open: o.registration_open,
    registration_url: `${domainBase(domainName)}/checkout/${id}`,
    price: money(priceCents(o), o.currency_code),
  };
}

/** The most units one checkout may buy (OfferItem.max_quantity). */
export const MAX_QUANTITY = 100;

/** What an offer sells (one of its four product ids is set) and the domain the product is on. */
export interface OfferProduct {
  published_course_id: string | null;
  published_path_id: string | null;
  plan_id: string | null;
  course_series_id: string | null;
  domain_id: string | null;
  domain_name: string | null;
}

/** One row of the /v1/offers queries (offers-v1.service.ts). */
export interface OfferItemRow extends OfferProduct {
  id: string;
  description: string | null;
  registration_open: boolean;
  price_cents: number | null;
  currency_code: string;
  sku: string | null;
  created_at: Date;
  live: boolean;
}

export const offerType = (r: Pick<OfferItemRow, 'published_course_id' | 'published_path_id' | 'plan_id'>) =>
  r.published_course_id ? 'published_course' : r.published_path_id ? 'published_path' : r.plan_id ? 'plan' : 'course_series';

/** What an offer shows of itself wherever the published OfferItem appears. */
export type OfferItemBasics = Pick<OfferItemRow, 'id' | 'published_course_id' | 'published_path_id' | 'plan_id' | 'course_series_id' | 'domain_name' | 'price_cents' | 'currency_code' | 'sku'>;

/**
 * The published OfferItem's identity and price members (the promo-code pool operations show these
 * alone). The three product ids it does not sell are left out, and so is `offer_type` for a course
 * series, which the published OfferTypeEnum does not name (`course_series_id` says what it sells):
 * optional, not nullable members without a value (CONVENTIONS §16, docs/decisions/conformance.md).
 */
export function presentOfferBasics(r: OfferItemBasics) {
  const id = encodeId('offer', r.id);
  const kind = offerType(r);
  return omitEmpty(
    {
      id,
      course_series_id: r.course_series_id ? encodeId('courseSeries', r.course_series_id) : null,
      published_path_id: r.published_path_id ? encodeId('publishedPath', r.published_path_id) : null,
      published_course_id: r.published_course_id ? encodeId('publishedCourse', r.published_course_id) : null,
      plan_id: r.plan_id ? encodeId('plan', r.plan_id) : null,
      domain_name: r.domain_name,
      offer_type: kind === 'course_series' ? null : kind,
      price_cents: priceCents(r),
      currency_code: r.currency_code,
      price_credits: null,
      sku: r.sku ?? id,
    },
    ['course_series_id', 'published_path_id', 'published_course_id', 'plan_id', 'offer_type'],
  );
}

/** The published OfferItem (plus `registration_open`, which CONVENTIONS §11 lets PUT/PATCH change). */
export function presentOfferItem(r: OfferItemRow) {
  return {
    ...presentOfferBasics(r),
    max_quantity: MAX_QUANTITY,
    active: r.live,
    starts_at: iso(r.created_at),
    // ends_at: an offer never ends here (left out: optional, not nullable)
    linked_to_plan: false,
    registration_open: r.registration_open,
  };
}
