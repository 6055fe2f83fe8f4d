import { iso, parseTimestamp } from '../../core/http/v1-rules';

/**
 * Purchases. For now a purchase is what a /v1 plan or published-path enrollment stores about the
 * purchase it came from (create body `purchase`, kept in the enrollment's `purchase` jsonb); the
 * commerce work (orders, promo codes, ...) grows here.
 */
export interface StoredPurchase {
  purchase_price: { amount: string; currency_code: string };
  purchase_state: string;
  purchased_at: string | null;
  tax_price_cents: number | null;
  /** set when the enrollment came from a purchase of the `purchases` table (checkout fulfilment) */
  purchase_id?: string;
  order_id?: string;
  payment_processor?: string;
  quantity?: number;
}

/** The `purchase` member of an enrollment create body. */
export interface PurchaseBody {
  purchase_price?: { amount?: string; currency_code?: string };
  purchase_state?: string;
  purchased_at?: unknown;
  tax_price_cents?: number | null;
}

/** The stored form of a create body's `purchase` (null when absent); `purchased_at` defaults to the enrollment time, else now. */
export function parsePurchase(body: PurchaseBody | null | undefined, enrolledAt: Date | null): StoredPurchase | null {
  if (!body) return null;
  const purchasedAt = parseTimestamp('purchase.purchased_at', body.purchased_at, true);
  return {
    purchase_price: {
      amount: Number(body.purchase_price?.amount ?? '0').toFixed(2),
      currency_code: (body.purchase_price?.currency_code ?? 'USD').toUpperCase(),
    },
    purchase_state: body.purchase_state ?? 'SUCCESS',
    purchased_at: iso(purchasedAt ?? enrolledAt ?? new Date()),
    tax_price_cents: body.tax_price_cents ?? null,
  };
}
