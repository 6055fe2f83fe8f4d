import { Type, type Static } from '@sinclair/typebox';
import { omitEmpty } from '../../core/http/optional-members';
import { DateTime, declaredV1, ext, nullable, PublicId, StringEnum } from '../../core/openapi/declared-shape';
import { encodeId } from '../../core/ids/ids';
import { iso } from '../../core/http/v1-rules';
import { domainBase } from '../domains/domain-url';
import type { OfferRow } from './offers';
import { priceCents, type OfferItemRow } from './offers';
export { priceCents, type OfferProduct, type OfferItemRow } from './offers';

export const money = (cents: number, currency: string) => ({ amount: (cents / 100).toFixed(2), currency_code: currency });

/**
 * The published /v1 Offer (the `offer` of a published course, path, plan or course series), declared
 * once (core/openapi/declared-shape.ts); price `{amount: "0.00", currency_code}` until set. Every
 * such object has its offer (docs/decisions/commerce.md): the presenters leave the member out,
 * rather than null (not nullable in the published schemas), should one be missing.
 */
export const OfferSchema = declaredV1(
  'Offer',
  Type.Object({ id: PublicId(), registration_open: Type.Boolean(), registration_url: Type.String(), price: Type.Object({ amount: Type.String(), currency_code: Type.String() }) }),
);
export type OfferV1 = Static<typeof OfferSchema>;

export function presentOffer(o: OfferRow | undefined, domainName: string): OfferV1 | null {
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

export const offerType = (r: Pick<OfferItemRow, 'published_course_id' | 'published_path_id' | 'plan_id'>) =>
  r.published_course_id ? 'published_course' : r.published_path_id ? 'published_path' : r.plan_id ? 'plan' : 'course_series';

/** What an offer shows of itself wherever the published OfferItem appears. */
export type OfferItemBasics = Pick<OfferItemRow, 'id' | 'published_course_id' | 'published_path_id' | 'plan_id' | 'course_series_id' | 'domain_name' | 'price_cents' | 'currency_code' | 'sku'>;

/**
 * The published OfferItem's identity and price members (part of every OfferItem answer). The three product ids it does not sell are left out, and so is `offer_type` for a course
 * series, which the published OfferTypeEnum does not name (`course_series_id` says what it sells):
 * optional, not nullable members without a value (CONVENTIONS §16, docs/decisions/conformance.md).
 */
const OFFER_BASICS = {
  id: PublicId(),
  course_series_id: Type.Optional(PublicId()),
  published_path_id: Type.Optional(PublicId()),
  published_course_id: Type.Optional(PublicId()),
  plan_id: Type.Optional(PublicId()),
  domain_name: nullable(Type.String()),
  offer_type: Type.Optional(StringEnum(['published_path', 'domain', 'published_course', 'plan'])),
  price_cents: Type.Integer(),
  currency_code: Type.String(),
  price_credits: Type.Null(),
  sku: Type.String(),
};
export const OfferBasicsSchema = Type.Object(OFFER_BASICS);

export function presentOfferBasics(r: OfferItemBasics): Static<typeof OfferBasicsSchema> {
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
      offer_type: kind === 'course_series' ? null : (kind as 'published_path' | 'published_course' | 'plan'),
      price_cents: priceCents(r),
      currency_code: r.currency_code,
      price_credits: null,
      sku: r.sku ?? id,
    },
    ['course_series_id', 'published_path_id', 'published_course_id', 'plan_id', 'offer_type'],
  );
}

/** The published OfferItem (plus `registration_open`, which CONVENTIONS §11 lets PUT/PATCH change), declared once. */
export const OfferItemSchema = declaredV1(
  'OfferItem',
  Type.Object({
    ...OFFER_BASICS,
    max_quantity: Type.Integer(),
    active: Type.Boolean(),
    starts_at: DateTime(),
    // an offer never ends here (left out: optional, not nullable)
    ends_at: Type.Optional(DateTime()),
    linked_to_plan: Type.Boolean(),
    registration_open: Type.Boolean(ext({ description: 'whether the offer can be bought (CONVENTIONS §11)' })),
  }),
);
export type OfferItemV1 = Static<typeof OfferItemSchema>;

export function presentOfferItem(r: OfferItemRow): OfferItemV1 {
  return {
    ...presentOfferBasics(r),
    max_quantity: MAX_QUANTITY,
    active: r.live,
    starts_at: iso(r.created_at)!,
    linked_to_plan: false,
    registration_open: r.registration_open,
  };
}
