import type { OfferRow } from './offers';
import { money } from './offers.presenter';
import type { StoredPurchase } from './purchases';

/** The v1 Purchase block of an enrollment; null when it came from no purchase. */
export function presentPurchase(p: StoredPurchase | null, offer: OfferRow | undefined) {
  if (!p) return null;
  return {
    order_id: null,
    offer_price: offer && offer.price_cents !== null ? money(Number(offer.price_cents), offer.currency_code) : { amount: '0.00', currency_code: p.purchase_price.currency_code },
    purchase_price: p.purchase_price,
    quantity: 1,
    purchase_state: p.purchase_state,
    payment_processor: 'NONE',
    purchase_id: null,
    purchased_at: p.purchased_at,
    tax_price_cents: p.tax_price_cents,
  };
}
