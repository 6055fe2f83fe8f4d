import { omitEmpty } from '../../core/http/optional-members';
import { iso } from '../../core/http/v1-rules';
import { encodeId } from '../../core/ids/ids';
import { fullName } from '../students/students.presenter';
import type { OfferRow } from './offers';
import { money } from './offers.presenter';
import type { StoredPurchase } from './purchases';
import type { PurchaseRow } from './purchases.store';

/** The v1 Purchase block of an enrollment; null when it came from no purchase. */
export function presentPurchase(p: StoredPurchase | null, offer: OfferRow | undefined) {
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
 * The published Purchase (v1), plus the computed discounts the schema has no member for. The promo
 * code members are left out of a purchase without a promo code (optional, not nullable: CONVENTIONS §16).
 */
export function presentPurchaseV1(p: PurchaseRow) {
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
      purchased_at: iso(p.purchased_at),
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
