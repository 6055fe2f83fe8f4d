import type { EntityManager } from 'typeorm';
import { fieldError } from '../../core/http/v1-rules';
import { rowsOf } from '../../core/database/sql';
import type { CheckoutContext, CheckoutLimits, CreditSpend, LicenseSeat, PromoClaim, PromoPurchase } from './checkout-contract';
import { scoped } from '../../core/database/scoped';

/**
 * The limits checkout enforces (checkout-contract.ts), implemented over the promo-code, training
 * credit and license tables (migration 1763700017100; docs/decisions/commerce-limits.md).
 *
 * `checkoutLimits` is a plain object of functions (no Nest provider needed): checkout calls them
 * with ITS transaction's EntityManager, so what they take is committed or rolled back with the
 * purchase. Every statement names the organization. Limits are held by the database under READ
 * COMMITTED (the default isolation): a promo use counts when the purchase succeeds, as a conditional
 * UPDATE (`use_count < max_uses`, re-checked on the latest row version after a concurrent writer
 * commits) with single use per user serialized per (pool, user) by a transaction-level advisory
 * lock; credits are taken at checkout under the code's row lock (`FOR UPDATE`); a license seat is
 * read `FOR SHARE` (its deactivation waits for the checkout). Errors are 400s naming the body member (`promo_code`,
 * `training_credit_code`), thrown before anything is written or after the write they undo by
 * rolling the caller's transaction back.
 */

const PROMO_LOCK_SPACE = 11;

/** The body member's value: a string of 1..max characters, else a 400 on the member. */
function codeString(field: string, value: unknown, max: number): string {
  if (typeof value !== 'string') throw fieldError(field, 'Not a valid string.');
  if (!value.length) throw fieldError(field, 'This field may not be blank.');
  if (value.length > max) throw fieldError(field, `Ensure this field has no more than ${max} characters.`);
  if (value.includes('\u0000')) throw fieldError(field, 'Null characters are not allowed.');
  return value;
}

export async function licenseSeatFor(m: EntityManager, ctx: CheckoutContext): Promise<LicenseSeat | null> {
  const rows: { package_id: string }[] = await scoped(m, ctx.organizationId).query(
    `SELECT s.package_id
       FROM license_seats s
       JOIN license_packages p ON p.organization_id = $org AND p.id = s.package_id
       JOIN license_package_offers o ON o.organization_id = $org AND o.package_id = p.id AND o.offer_id = $2
      WHERE s.organization_id = $org AND s.user_id = $1 AND s.active
        AND p.start_date <= now() AND (p.end_date IS NULL OR p.end_date > now())
      ORDER BY s.enrolled_at, s.id
      LIMIT 1
      FOR SHARE OF s`,
    [ctx.userId, ctx.offerId],
  );
  return rows.length ? { licensePackageId: rows[0].package_id } : null;
}

interface PromoRow {
  id: string;
  code: string;
  active: boolean;
  pool_id: string;
  pool_active: boolean;
  not_started: boolean;
  expired: boolean;
  discount_type: 'PERCENT_OFF' | 'PRICE_OVERRIDE';
  percent_off: number | null;
  price_cents: number | null;
  single_use_per_user: boolean;
  offer_ok: boolean;
}

/** The discount in cents of a pool on `unit × quantity` (never more than that total, never negative). */
export function promoDiscountCents(pool: Pick<PromoRow, 'discount_type' | 'percent_off' | 'price_cents'>, unitPriceCents: number, quantity: number): number {
  const total = unitPriceCents * quantity;
  if (pool.discount_type === 'PRICE_OVERRIDE') return Math.max(0, total - Math.min(unitPriceCents, pool.price_cents ?? unitPriceCents) * quantity);
  return Math.min(total, Math.round((total * (pool.percent_off ?? 0)) / 100));
}

/**
 * Checkout: validate the code for this purchase and price it; nothing is counted (a use counts only
 * when the purchase succeeds: countPromoUse). Refused (400 on `promo_code`) when the code does not
 * exist, the code or its pool is inactive, now is outside the pool's window, the offer is not one of
 * the pool's, the user already holds a counted use of the pool (`single_use_per_user`), or the code
 * has no successful use left. The last two are read without a lock: they only refuse early what
 * countPromoUse would refuse at SUCCESS, where they are enforced under locks.
 */
export async function checkPromoCode(m: EntityManager, ctx: CheckoutContext, code: string): Promise<PromoClaim> {
  const value = codeString('promo_code', code, 40);
  const [row]: (PromoRow & { used_up: boolean; user_used: boolean })[] = await scoped(m, ctx.organizationId).query(
    `SELECT c.id, c.code, c.active, c.pool_id, p.active AS pool_active,
            p.starts_at > now() AS not_started, (p.expires_at IS NOT NULL AND p.expires_at <= now()) AS expired,
            p.discount_type, p.percent_off, p.price_cents, p.single_use_per_user,
            EXISTS (SELECT 1 FROM promo_code_pool_offers po WHERE po.organization_id = $org AND po.pool_id = p.id AND po.offer_id = $2) AS offer_ok,
            c.use_count >= c.max_uses AS used_up,
            (p.single_use_per_user AND EXISTS (SELECT 1 FROM promo_code_uses u
                WHERE u.organization_id = $org AND u.pool_id = p.id AND u.user_id = $3 AND u.released_at IS NULL)) AS user_used
       FROM promo_codes c
       JOIN promo_code_pools p ON p.organization_id = $org AND p.id = c.pool_id
      WHERE c.organization_id = $org AND c.code = $1`,
    [value, ctx.offerId, ctx.userId],
  );
  if (!row) throw fieldError('promo_code', 'This promo code does not exist.');
  if (!row.active || !row.pool_active) throw fieldError('promo_code', 'This promo code is not active.');
  if (row.not_started) throw fieldError('promo_code', 'This promo code is not valid yet.');
  if (row.expired) throw fieldError('promo_code', 'This promo code has expired.');
  if (!row.offer_ok) throw fieldError('promo_code', 'This promo code does not apply to this offer.');
  if (row.user_used) throw fieldError('promo_code', SINGLE_USE);
  if (row.used_up) throw fieldError('promo_code', USED_UP);
  return {
    promoCodeId: row.id,
    code: row.code,
    percentOff: row.discount_type === 'PERCENT_OFF' ? (row.percent_off ?? 0) : 0,
    priceCents: row.discount_type === 'PRICE_OVERRIDE' ? row.price_cents : null,
    discountCents: promoDiscountCents(row, ctx.unitPriceCents, ctx.quantity),
  };
}

const SINGLE_USE = 'This promo code can be used only once per user.';
const USED_UP = 'This promo code has reached its maximum number of uses.';

/**
 * A purchase moving to SUCCESS (fulfil, PUT/PATCH, or a free checkout fulfilled at once) counts one
 * use of its promo code, in the purchase's transaction (docs/decisions/commerce-limits.md, "When a
 * promo use counts"). `single_use_per_user` is serialized per (pool, user) with a transaction-level
 * advisory lock and checked against the user's counted uses; `max_uses` is one conditional UPDATE
 * (`use_count < max_uses`, re-evaluated on the newest row version after a concurrent writer). Either
 * refused: a 400 on `promo_code`, and the caller's transaction (the move to SUCCESS) rolls back.
 * A purchase without a code, or whose code was deleted meanwhile, counts nothing.
 */
export async function countPromoUse(m: EntityManager, organizationId: string, purchase: PromoPurchase): Promise<void> {
  if (!purchase.promo_code_id) return;
  const [code]: { pool_id: string; single_use_per_user: boolean }[] = await scoped(m, organizationId).query(
    `SELECT c.pool_id, p.single_use_per_user
       FROM promo_codes c JOIN promo_code_pools p ON p.organization_id = $org AND p.id = c.pool_id
      WHERE c.organization_id = $org AND c.id = $1`,
    [purchase.promo_code_id],
  );
  if (!code) return;
  if (code.single_use_per_user) {
    // one counted use per (pool, user): parallel successes of the same user's purchases queue here
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, ${PROMO_LOCK_SPACE}))`, [`promo-user:${code.pool_id}:${purchase.user_id}`]);
    const held = await scoped(m, organizationId).query<unknown[]>(`SELECT 1 FROM promo_code_uses WHERE organization_id = $org AND pool_id = $1 AND user_id = $2 AND released_at IS NULL LIMIT 1`, [
      code.pool_id,
      purchase.user_id,
    ]);
    if (held.length) throw fieldError('promo_code', SINGLE_USE);
  }
  // never past max_uses: the row lock serializes parallel successes and the condition is
  // re-evaluated on the row each waiter finds after the holder commits
  const taken = rowsOf(
    await scoped(m, organizationId).query<unknown>(
      `UPDATE promo_codes SET use_count = use_count + 1, updated_at = now()
        WHERE organization_id = $org AND id = $1 AND use_count < max_uses
        RETURNING use_count`,
      [purchase.promo_code_id],
    ),
  );
  if (!taken.length) {
    const still = await scoped(m, organizationId).query<unknown[]>(`SELECT 1 FROM promo_codes WHERE organization_id = $org AND id = $1`, [purchase.promo_code_id]);
    if (!still.length) return; // deleted since the SELECT above: nothing to count
    throw fieldError('promo_code', USED_UP);
  }
  await scoped(m, organizationId).query(`INSERT INTO promo_code_uses (organization_id, promo_code_id, pool_id, user_id, purchase_id) VALUES ($org, $1, $2, $3, $4)`, [
    purchase.promo_code_id,
    code.pool_id,
    purchase.user_id,
    purchase.id,
  ]);
}

interface CreditRow {
  id: string;
  code: string;
  credits_total: number;
  credits_used: number;
  expired: boolean;
  available_to_all_students: boolean;
  available_for_all_offers: boolean;
  group_ok: boolean;
  offer_ok: boolean;
}

export async function spendCredits(m: EntityManager, ctx: CheckoutContext, code: string, amountDueCents: number): Promise<CreditSpend> {
  const value = codeString('training_credit_code', code, 255);
  // the row lock: parallel spends of one code take turns and each sees the balance the previous left
  const [row]: CreditRow[] = await scoped(m, ctx.organizationId).query(
    `SELECT t.id, t.code, t.credits_total, t.credits_used,
            (t.expiration_date IS NOT NULL AND t.expiration_date <= now()) AS expired,
            t.available_to_all_students, t.available_for_all_offers,
            EXISTS (SELECT 1 FROM training_credit_code_groups g
                      JOIN group_memberships gm ON gm.organization_id = $org AND gm.group_id = g.group_id AND gm.user_id = $2
                     WHERE g.organization_id = $org AND g.code_id = t.id) AS group_ok,
            EXISTS (SELECT 1 FROM training_credit_code_offers o WHERE o.organization_id = $org AND o.code_id = t.id AND o.offer_id = $3) AS offer_ok
       FROM training_credit_codes t
      WHERE t.organization_id = $org AND t.code = $1
      FOR UPDATE OF t`,
    [value, ctx.userId, ctx.offerId],
  );
  if (!row) throw fieldError('training_credit_code', 'This training credit code does not exist.');
  if (row.expired) throw fieldError('training_credit_code', 'This training credit code has expired.');
  if (!row.available_to_all_students && !row.group_ok) throw fieldError('training_credit_code', 'This training credit code is not available to this user.');
  if (!row.available_for_all_offers && !row.offer_ok) throw fieldError('training_credit_code', 'This training credit code does not apply to this offer.');
  const due = Math.max(0, Math.floor(amountDueCents));
  const left = row.credits_total - row.credits_used;
  if (due > 0 && left <= 0) throw fieldError('training_credit_code', 'This training credit code has no credits left.');
  // whole credits: the last one covers a fractional remainder (1 credit = 100 cents)
  const credits = Math.min(left, Math.ceil(due / 100));
  const spentCents = Math.min(credits * 100, due);
  if (credits > 0) {
    const spent = rowsOf(
      await scoped(m, ctx.organizationId).query<unknown>(
        `UPDATE training_credit_codes SET credits_used = credits_used + $2, updated_at = now()
          WHERE organization_id = $org AND id = $1 AND credits_used + $2 <= credits_total
          RETURNING credits_used`,
        [row.id, credits],
      ),
    );
    if (!spent.length) throw fieldError('training_credit_code', 'This training credit code has no credits left.');
  }
  await scoped(m, ctx.organizationId).query(`INSERT INTO training_credit_spends (organization_id, code_id, user_id, purchase_id, credits, spent_cents) VALUES ($org, $1, $2, $3, $4, $5)`, [
    row.id,
    ctx.userId,
    ctx.purchaseId,
    credits,
    spentCents,
  ]);
  return { trainingCreditCodeId: row.id, code: row.code, spentCents };
}

/**
 * Gives back what a purchase took, once (the claim rows are marked released under their row lock):
 * its credits (spent at checkout) and its counted promo use (only a purchase that succeeded has one:
 * a refund gives it back). Credits first, then the promo code: the order in which a free checkout
 * takes them (credit code row lock, then the promo code's), so the two never deadlock.
 */
export async function releaseForPurchase(m: EntityManager, organizationId: string, purchaseId: string): Promise<void> {
  await scoped(m, organizationId).query(
    `WITH r AS (
       UPDATE training_credit_spends SET released_at = now()
        WHERE organization_id = $org AND purchase_id = $1 AND released_at IS NULL
        RETURNING code_id, credits)
     UPDATE training_credit_codes t SET credits_used = GREATEST(t.credits_used - r.credits, 0), updated_at = now()
       FROM r WHERE t.organization_id = $org AND t.id = r.code_id`,
    [purchaseId],
  );
  await scoped(m, organizationId).query(
    `WITH r AS (
       UPDATE promo_code_uses SET released_at = now()
        WHERE organization_id = $org AND purchase_id = $1 AND released_at IS NULL
        RETURNING promo_code_id)
     UPDATE promo_codes c SET use_count = c.use_count - 1, updated_at = now()
       FROM r WHERE c.organization_id = $org AND c.id = r.promo_code_id AND c.use_count > 0`,
    [purchaseId],
  );
}

/** The implementation of the checkout contract: plain functions over the caller's transaction. */
export const checkoutLimits: CheckoutLimits = { licenseSeatFor, checkPromoCode, countPromoUse, spendCredits, releaseForPurchase };
