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

/** A promo code claimed for a purchase: one use is taken (conditional UPDATE / row lock), never past max_uses. */
export interface PromoClaim {
  promoCodeId: string;
  /** the code as stored (case-sensitive) */
  code: string;
  percentOff: number;
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

/** Thrown errors are `ApiError`s (400 naming the body member: `promo_code`, `training_credit_code`). */
export interface CheckoutLimits {
  /** The active seat of the user that covers the offer, or null. */
  licenseSeatFor(m: EntityManager, ctx: CheckoutContext): Promise<LicenseSeat | null>;
  /** Validate (active, pool window, pool offers, max_uses, single_use_per_user) and take one use. */
  claimPromoCode(m: EntityManager, ctx: CheckoutContext, code: string): Promise<PromoClaim>;
  /** Validate (groups, offers, balance) and spend up to `amountDueCents`. */
  spendCredits(m: EntityManager, ctx: CheckoutContext, code: string, amountDueCents: number): Promise<CreditSpend>;
  /** Give back what a purchase took (promo use, credits) when it moves to FAILED, CANCELLED or REFUNDED. Idempotent. */
  releaseForPurchase(m: EntityManager, organizationId: string, purchaseId: string): Promise<void>;
}
