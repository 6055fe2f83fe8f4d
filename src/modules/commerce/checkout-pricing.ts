/**
 * The arithmetic of a checkout, and nothing else (no SQL, no clock): what a purchase costs once
 * the limits have spoken. PurchasesService.checkout asks the limits (checkout-contract.ts) and
 * feeds their answers here, step by step, in the contract's order; the order is the rule:
 *
 * 1. subtotal = unit price × quantity (at most MAX_CENTS);
 * 2. a license seat makes the purchase free (no discount, no credits after it);
 * 3. the promo code's discount, at most what is due;
 * 4. the best group discount: floor(due × percent / 100) of what is left after the promo code;
 * 5. training credits, at most what is left;
 * 6. tax is added last; the total is at most MAX_CENTS.
 *
 * Amounts are integer cents throughout; the only rounding is step 4's floor (in the buyer's
 * favour). docs/decisions/commerce.md states the same rules.
 */

/** The largest amount a purchase holds (its cents columns are PostgreSQL integers, as the published Purchase bounds them). */
export const MAX_CENTS = 2147483647;

/** A group's discount_percent as checkout uses it: clamped to 0..100, none (null) is 0. */
export function clampPercent(percent: number | null | undefined): number {
  return Math.min(100, Math.max(0, percent ?? 0));
}

/** At most `due`, at least 0: what a promo code or credits can take off. */
export function capAt(due: number, cents: number): number {
  return Math.min(due, Math.max(0, cents));
}

/** What a group discount of `percent` takes off `due` (rounded down). */
export function groupCutCents(due: number, percent: number): number {
  return Math.floor((due * clampPercent(percent)) / 100);
}

/**
 * One checkout's price, step by step. Each step returns what it took off (already capped), and
 * `due` is what is still owed before tax.
 */
export class CheckoutPrice {
  readonly subtotal: number;
  private owed: number;

  constructor(unitPriceCents: number, quantity: number) {
    this.subtotal = unitPriceCents * quantity;
    this.owed = this.subtotal;
  }

  /** Whether the subtotal is more than a purchase can hold (refused, naming `quantity`). */
  get subtotalTooLarge(): boolean {
    return this.subtotal > MAX_CENTS;
  }

  /** What is still owed before tax. */
  get due(): number {
    return this.owed;
  }

  /** A license seat covers the offer: nothing is owed. */
  seat(): void {
    this.owed = 0;
  }

  /** A promo code offering `discountCents` off: takes at most what is due. */
  promo(discountCents: number): number {
    const taken = capAt(this.owed, discountCents);
    this.owed -= taken;
    return taken;
  }

  /** The best group discount (percent, clamped to 0..100) on what is left. */
  group(percent: number): number {
    const taken = groupCutCents(this.owed, percent);
    this.owed -= taken;
    return taken;
  }

  /** Training credits worth `spentCents`: take at most what is left. */
  credits(spentCents: number): number {
    const taken = capAt(this.owed, spentCents);
    this.owed -= taken;
    return taken;
  }

  /** The purchase's price: what is owed plus tax. */
  total(taxCents: number): number {
    return this.owed + taxCents;
  }
}
