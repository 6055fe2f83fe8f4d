import { capAt, CheckoutPrice, clampPercent, groupCutCents, MAX_CENTS } from './checkout-pricing';

describe('checkout pricing', () => {
  it('subtotal is unit price × quantity, and says when a purchase cannot hold it', () => {
    const p = new CheckoutPrice(1999, 3);
    expect(p.subtotal).toBe(5997);
    expect(p.due).toBe(5997);
    expect(p.subtotalTooLarge).toBe(false);
    expect(new CheckoutPrice(MAX_CENTS, 1).subtotalTooLarge).toBe(false);
    expect(new CheckoutPrice(MAX_CENTS, 2).subtotalTooLarge).toBe(true);
    expect(new CheckoutPrice(0, 5).subtotal).toBe(0);
  });

  it('a license seat makes the purchase free; tax is still added', () => {
    const p = new CheckoutPrice(5000, 2);
    p.seat();
    expect(p.due).toBe(0);
    expect(p.total(0)).toBe(0);
    expect(p.total(150)).toBe(150);
  });

  it('a promo code takes at most what is due, never less than 0', () => {
    const p = new CheckoutPrice(1000, 1);
    expect(p.promo(300)).toBe(300);
    expect(p.due).toBe(700);
    expect(new CheckoutPrice(1000, 1).promo(5000)).toBe(1000);
    expect(new CheckoutPrice(1000, 1).promo(-20)).toBe(0);
  });

  it('the group discount applies to what is left after the promo code, rounded down', () => {
    const p = new CheckoutPrice(1000, 1);
    p.promo(1);
    // 999 × 10 % = 99.9 → 99
    expect(p.group(10)).toBe(99);
    expect(p.due).toBe(900);
    expect(groupCutCents(999, 33)).toBe(329);
    expect(groupCutCents(1, 99)).toBe(0);
  });

  it('the group percent is clamped to 0..100', () => {
    expect(clampPercent(null)).toBe(0);
    expect(clampPercent(undefined)).toBe(0);
    expect(clampPercent(-5)).toBe(0);
    expect(clampPercent(150)).toBe(100);
    expect(clampPercent(42)).toBe(42);
    expect(groupCutCents(500, 250)).toBe(500);
    expect(groupCutCents(500, -1)).toBe(0);
  });

  it('credits come last and take at most what is left', () => {
    const p = new CheckoutPrice(2000, 1);
    p.promo(500);
    p.group(50); // 1500 → 750 off
    expect(p.due).toBe(750);
    expect(p.credits(10000)).toBe(750);
    expect(p.due).toBe(0);
    expect(p.total(0)).toBe(0);
    const q = new CheckoutPrice(2000, 1);
    expect(q.credits(300)).toBe(300);
    expect(q.credits(-1)).toBe(0);
    expect(q.due).toBe(1700);
  });

  it('the order matters: promo before group gives a different price than group before promo', () => {
    const a = new CheckoutPrice(1000, 1);
    a.promo(200);
    a.group(50);
    expect(a.due).toBe(400);
    // the other order would have been 1000 → 500 → 300; the contract's order is fixed
    expect(a.due).not.toBe(300);
  });

  it('tax is added to what is due; the caller refuses a total over MAX_CENTS', () => {
    const p = new CheckoutPrice(MAX_CENTS, 1);
    expect(p.total(1)).toBe(MAX_CENTS + 1);
    expect(p.total(1) > MAX_CENTS).toBe(true);
    const q = new CheckoutPrice(1234, 2);
    expect(q.total(100)).toBe(2568);
  });

  it('capAt keeps an amount within 0..due', () => {
    expect(capAt(10, 5)).toBe(5);
    expect(capAt(10, 15)).toBe(10);
    expect(capAt(10, -3)).toBe(0);
    expect(capAt(0, 3)).toBe(0);
  });
});
