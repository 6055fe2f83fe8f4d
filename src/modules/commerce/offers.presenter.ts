import { encodeId } from '../../core/ids/ids';
import { domainBase } from '../domains/domain-url';
import type { OfferRow } from './offers';

export const money = (cents: number, currency: string) => ({ amount: (cents / 100).toFixed(2), currency_code: currency });

/** `offer {id, registration_open, registration_url, price}`; price is null for a free offer. */
export function presentOffer(o: OfferRow | undefined, domainName: string) {
  if (!o) return null;
  const id = encodeId('offer', o.id);
  return {
    id,
    registration_open: o.registration_open,
    registration_url: `${domainBase(domainName)}/checkout/${id}`,
    price: o.price_cents === null || o.price_cents === undefined ? null : money(Number(o.price_cents), o.currency_code),
  };
}
