import type { EntityManager } from 'typeorm';

/**
 * The contract between checkout (purchases, owned by `purchases*.ts` / `checkout*.ts`) and the
 * limits it enforces (promo codes, training credits, license seats, owned by `promo-codes*.ts`,
 * `training-credits*.ts`, `license-packages*.ts`). Checkout calls these inside its own transaction
 * (`m`), in this order: license seat, promo code, group discount (checkout's own), credits.
 * Every function takes the organization id and must put it on every statement.
 */
export interface CheckoutContext {
  organizationId: string;
  /** uuid of the purchasing user */
  userId: string;
  /** uuid of the offer being bought */
  offerId: string;
  /** uuid of the purchase row being created (already inserted in state CREATED by checkout) */
  purchaseId: string;
  /** offer price in cents for ONE unit */
  unitPriceCents: number;
  quantity: number;
  currencyCode: string;
}

/** A promo code checked and priced for a purchase at checkout (no use counted yet: countPromoUse, at SUCCESS). */
export interface PromoClaim {
  promoCodeId: string;
  /** the code as stored (case-sensitive) */
  code: string;
  /** the pool's percent_off (0 for a PRICE_OVERRIDE pool) */
  percentOff: number;
  /** a PRICE_OVERRIDE pool's unit price in cents (null for PERCENT_OFF): the purchase's promo_code_price_cents (added by the limits side) */
  priceCents?: number | null;
  /** discount in cents on (unitPriceCents * quantity) */
  discountCents: number;
}

/** Training credits spent on a purchase (1 credit = 1 unit of currency = 100 cents). */
export interface CreditSpend {
  trainingCreditCodeId: string;
  code: string;
  /** cents taken from the balance (never more than the amount due nor the balance left) */
  spentCents: number;
}

/** A user's active license seat covering the offer: the offer is free for them. */
export interface LicenseSeat {
  licensePackageId: string;
}

/** What countPromoUse needs of a purchase moving to SUCCESS (its row, locked by the caller). */
export interface PromoPurchase {
  /** uuid of the purchase */
  id: string;
  user_id: string;
  /** the promo code it was checked out with (null: none, or the code was deleted since) */
  promo_code_id: string | null;
}

/** Thrown errors are `ApiError`s (400 naming the body member: `promo_code`, `training_credit_code`). */
export interface CheckoutLimits {
  /** The active seat of the user that covers the offer, or null. */
  licenseSeatFor(m: EntityManager, ctx: CheckoutContext): Promise<LicenseSeat | null>;
  /** Validate (active, pool window, pool offers, uses left, single_use_per_user) and price; counts nothing. */
  checkPromoCode(m: EntityManager, ctx: CheckoutContext, code: string): Promise<PromoClaim>;
  /** The purchase moves to SUCCESS: count its code's use (max_uses, single_use_per_user under locks), or 400 on promo_code. */
  countPromoUse(m: EntityManager, organizationId: string, purchase: PromoPurchase): Promise<void>;
  /** Validate (groups, offers, balance) and spend up to `amountDueCents`. */
  spendCredits(m: EntityManager, ctx: CheckoutContext, code: string, amountDueCents: number): Promise<CreditSpend>;
  /** Give back what a purchase took (credits; the promo use of a refunded one) when it moves to FAILED, CANCELLED or REFUNDED. Idempotent. */
  releaseForPurchase(m: EntityManager, organizationId: string, purchaseId: string): Promise<void>;
}

/*
 * Implemented by `checkoutLimits` in checkout-limits.ts (a plain object of functions, no provider:
 * `import { checkoutLimits } from './checkout-limits'`). Notes from the limits side (commerce-limits):
 * - A promo use counts when the purchase moves to SUCCESS (countPromoUse, in that move's
 *   transaction; issue 25 item 5) and is given back by releaseForPurchase on REFUNDED; use_count
 *   counts successful, unrefunded purchases only (docs/decisions/commerce-limits.md). Credits are
 *   spent at checkout and given back on FAILED / CANCELLED / REFUNDED. Call releaseForPurchase in
 *   the same transaction as the state change; calling it twice is harmless.
 * - REQUEST to purchases: deleting a promo code pool (or a code) must null `code_used` on the
 *   purchases that used its codes. Please export from purchases*.ts a function over the caller's
 *   transaction, e.g. `clearPromoCodes(m: EntityManager, organizationId: string, promoCodeIds: string[]): Promise<void>`
 *   (purchases store the promo code's uuid and/or code string; the function clears both), and
 *   note its name here. Until then the pool delete removes the codes and their use rows only.
 * - promo_code_uses.purchase_id and training_credit_spends.purchase_id have no foreign key yet
 *   (migration 1763700017100 ran without a purchases table); once purchases exists the limits side
 *   adds the composite key (organization_id, purchase_id) -> purchases ON DELETE CASCADE.
 */

/*
 * Answer from purchases (commerce core):
 * - `clearPromoCodeUse(m, organizationId, promoCodeIds: string[])` in purchases.store.ts clears
 *   `promo_code_id` and `promo_code` (the code used) on the organization's purchases that used any
 *   of those promo codes (uuids), in the caller's transaction; the amounts charged stay. Call it
 *   before deleting codes (or a pool's codes).
 * - The `purchases` table exists (migration 1763700017000, UNIQUE (organization_id, id)): the
 *   composite keys from promo_code_uses / training_credit_spends can be added.
 * - Checkout calls licenseSeatFor, checkPromoCode, spendCredits in the contract's order after
 *   inserting the purchase (CREATED), countPromoUse in the transaction of every move to SUCCESS
 *   (a free checkout's too), and releaseForPurchase in the transaction of every move to
 *   FAILED, CANCELLED or REFUNDED. A PRICE_OVERRIDE claim's `priceCents` is stored as the purchase's
 *   `promo_code_price_cents`; the discount itself as `promo_discount_cents` (shown as
 *   `promo_code_discount_cents`).
 */
