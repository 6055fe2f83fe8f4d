import { Type, type Static } from '@sinclair/typebox';
import { omitEmpty } from '../../core/http/optional-members';
import { DateTime, declaredV1, ext, nullable, PublicId } from '../../core/openapi/declared-shape';
import { iso } from '../../core/http/v1-rules';
import { encodeId } from '../../core/ids/ids';
import { fullName } from '../students/students.presenter';
import type { OfferRow } from './offers';
import { money } from './offers.presenter';
import type { StoredPurchase } from './purchases';
import type { PurchaseRow } from './purchases.store';

const PriceSchema = Type.Object({ amount: Type.String(), currency_code: Type.String() });

/**
 * The published /v1 EnrollmentPurchase (the `purchase` block of an enrollment), declared once
 * (core/openapi/declared-shape.ts): the ids and time a free enrollment's block has none of are left
 * out (optional, not nullable).
 */
export const EnrollmentPurchaseSchema = declaredV1(
  'EnrollmentPurchase',
  Type.Object({
    order_id: Type.Optional(Type.String()),
    offer_price: PriceSchema,
    purchase_price: PriceSchema,
    quantity: Type.Integer(),
    purchase_state: Type.String(),
    payment_processor: Type.String(),
    purchase_id: Type.Optional(Type.String()),
    purchased_at: Type.Optional(DateTime()),
    tax_price_cents: nullable(Type.Integer()),
  }),
);
export type EnrollmentPurchaseV1 = Static<typeof EnrollmentPurchaseSchema>;

/** The v1 Purchase block of an enrollment; null when it came from no purchase. */
export function presentPurchase(p: StoredPurchase | null, offer: OfferRow | undefined): EnrollmentPurchaseV1 | null {
  if (!p) return null;
  // the ids and time a free enrollment's block has none of are left out (optional, not nullable in the published EnrollmentPurchase)
  return omitEmpty(
    {
      order_id: p.order_id ?? null,
      offer_price: offer && offer.price_cents !== null ? money(Number(offer.price_cents), offer.currency_code) : { amount: '0.00', currency_code: p.purchase_price.currency_code },
      purchase_price: p.purchase_price,
      quantity: p.quantity ?? 1,
      purchase_state: p.purchase_state,
      payment_processor: p.payment_processor ?? 'NONE',
      purchase_id: p.purchase_id ?? null,
      purchased_at: p.purchased_at,
      tax_price_cents: p.tax_price_cents,
    },
    ['order_id', 'purchase_id', 'purchased_at'],
  );
}

/**
 * The published Purchase (v1), plus the computed discounts the schema has no member for (extensions,
 * docs/decisions/commerce.md), declared once (core/openapi/declared-shape.ts). The promo code members
 * are left out of a purchase without a promo code (optional, not nullable: CONVENTIONS §16).
 */
export const PurchaseV1Schema = declaredV1(
  'Purchase',
  Type.Object({
    id: PublicId(),
    user: Type.Object({ id: PublicId(), email: Type.String({ format: 'email' }), first_name: Type.String(), last_name: Type.String(), full_name: Type.String() }),
    state: Type.String(),
    status_msg: Type.String(),
    purchased_at: DateTime(),
    refunded_at: nullable(DateTime()),
    refund_cents: nullable(Type.Integer()),
    payment_processor: Type.String(),
    order_id: Type.String(),
    price_cents: Type.Integer(),
    quantity: Type.Integer(),
    offer_id: PublicId(),
    offer_sku: Type.String(),
    offer_description: Type.String(),
    offer_price_cents: Type.Integer(),
    promo_code: Type.Optional(Type.String()),
    promo_code_price_cents: Type.Optional(Type.Integer()),
    promo_code_percent_off: Type.Optional(Type.Integer()),
    promo_code_quantity: Type.Integer(),
    tax_price_cents: nullable(Type.Integer()),
    payment_processor_order_id: Type.String(),
    payment_processor_response_data: Type.String(),
    currency_code: Type.String(),
    original_price_cents: Type.Integer(ext({ description: 'the offer price times the quantity, before any discount' })),
    promo_code_discount_cents: Type.Integer(ext()),
    group_discount_percent: nullable(Type.Integer(ext())),
    group_discount_cents: Type.Integer(ext()),
    training_credit_code: nullable(Type.String(ext())),
    training_credits_cents: Type.Integer(ext()),
    license_package_id: nullable(PublicId(ext())),
  }),
);
export type PurchaseV1 = Static<typeof PurchaseV1Schema>;

export function presentPurchaseV1(p: PurchaseRow): PurchaseV1 {
  return omitEmpty(
    {
      id: encodeId('purchase', p.id),
      user: {
        id: encodeId('student', p.user_id),
        email: p.email,
        first_name: p.first_name,
        last_name: p.last_name,
        full_name: fullName(p.first_name, p.last_name),
      },
      state: p.state,
      status_msg: p.status_msg,
      purchased_at: iso(p.purchased_at)!,
      refunded_at: iso(p.refunded_at),
      refund_cents: p.refund_cents,
      payment_processor: p.payment_processor,
      order_id: p.order_id,
      price_cents: p.price_cents,
      quantity: p.quantity,
      offer_id: encodeId('offer', p.offer_id),
      offer_sku: p.offer_sku,
      offer_description: p.offer_description,
      offer_price_cents: p.offer_price_cents,
      promo_code: p.promo_code,
      promo_code_price_cents: p.promo_code_price_cents,
      promo_code_percent_off: p.promo_code_percent_off,
      promo_code_quantity: p.promo_code_quantity,
      tax_price_cents: p.tax_price_cents,
      payment_processor_order_id: p.payment_processor_order_id,
      payment_processor_response_data: p.payment_processor_response_data,
      currency_code: p.currency_code,
      // beyond the published members: how price_cents was reached (docs/decisions/commerce.md)
      original_price_cents: p.offer_price_cents * p.quantity,
      promo_code_discount_cents: p.promo_discount_cents,
      group_discount_percent: p.group_discount_percent,
      group_discount_cents: p.group_discount_cents,
      training_credit_code: p.training_credit_code,
      training_credits_cents: p.credits_cents,
      license_package_id: p.license_package_id ? encodeId('licensePackage', p.license_package_id) : null,
    },
    ['promo_code', 'promo_code_price_cents', 'promo_code_percent_off'],
  );
}

/** The `purchase` member of events, as the platform sends it (webhook-event-samples.md). */
export function eventPurchase(p: PurchaseRow) {
  return {
    id: encodeId('purchase', p.id),
    purchase_price: (p.price_cents / 100).toFixed(2),
    order_id: p.order_id,
    original_price: ((p.offer_price_cents * p.quantity) / 100).toFixed(2),
    offer_sku: p.offer_sku,
    price_cents: p.price_cents,
    currency_code: p.currency_code,
    state: p.state,
    quantity: p.quantity,
    purchased_at: iso(p.purchased_at),
    payment_processor: p.payment_processor,
    payment_processor_order_id: p.payment_processor_order_id,
    promo_code_id: p.promo_code_id ? encodeId('promoCode', p.promo_code_id) : null,
    promo_code: p.promo_code,
    promo_code_price_cents: p.promo_code_price_cents,
    promo_code_percent_off: p.promo_code_percent_off,
    promo_code_quantity: p.promo_code_quantity,
  };
}

/**
 * The published PurchaseFulfillment: where to send the buyer (the domain of what the offer sells)
 * and the purchase. `redirect_url` is left out when the offer's object is gone and has no domain
 * (optional, not nullable: CONVENTIONS §16).
 */
export const PurchaseFulfillmentSchema = declaredV1('PurchaseFulfillment', Type.Object({ redirect_url: Type.Optional(Type.String()), purchase: PurchaseV1Schema }));

export const presentFulfillment = (purchase: PurchaseRow, redirectUrl: string | null): Static<typeof PurchaseFulfillmentSchema> =>
  omitEmpty({ redirect_url: redirectUrl, purchase: presentPurchaseV1(purchase) }, ['redirect_url']);
