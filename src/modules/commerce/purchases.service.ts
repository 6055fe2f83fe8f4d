import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { noteAnswerRef } from '../../core/idempotency/keyed-write';
import { notFound } from '../../core/http/api-error';
import { fieldError, invalidPk, parseTimestamp } from '../../core/http/v1-rules';
import { decodeId, encodeId } from '../../core/ids/ids';
import { domainBase } from '../domains/domain-url';
import { insertMissingUsers } from '../students/students.service';
import { ANONYMIZED_USER } from '../students/user-refs';
import type { CheckoutContext, CheckoutLimits } from './checkout-contract';
import { checkoutLimits } from './checkout-limits';
import { CheckoutPrice, clampPercent, MAX_CENTS } from './checkout-pricing';
import type { CheckoutDto, PurchaseFulfillDto, PurchaseUpdateDto } from './dto/purchase.dto';
import { grantPurchase, offerTarget, revokeGrants } from './fulfilment';
import { PurchaseGrantWrites } from './purchase-grants';
import { offerItem } from './offers-v1.service';
import { priceCents } from './offers';
import { insertPurchase, loadPurchase, loadPurchaseByUuid, PurchaseRow, PurchaseState, updatePurchase } from './purchases.store';
import { scoped } from '../../core/database/scoped';

/** The moves of CONVENTIONS §11; anything else is a 400 naming `state`. */
const MOVES: Record<PurchaseState, readonly PurchaseState[]> = {
  CREATED: ['PENDING'],
  PENDING: ['SUCCESS', 'FAILED', 'CANCELLED', 'FLAGGED'],
  SUCCESS: ['REFUNDED'],
  FAILED: [],
  CANCELLED: [],
  FLAGGED: [],
  REFUNDED: [],
};
/** States that give back what the limits took (promo use, credits). */
const RELEASING: ReadonlySet<PurchaseState> = new Set(['FAILED', 'CANCELLED', 'REFUNDED']);

/** The Idempotency-Key answer reference of a checkout (core/idempotency/keyed-write.ts): the purchase it created. */
export const PURCHASE_ANSWER = 'v1.purchase';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Checkout and purchases (CONVENTIONS §11; docs/decisions/commerce.md). Every change of a purchase
 * runs in one transaction holding the purchase's row lock, so parallel fulfils and updates of one
 * purchase are serialized and each sees the state the previous one left.
 */
@Injectable()
export class PurchasesService {
  /** the limits checkout enforces (commerce-limits' checkout-limits.ts) */
  private readonly limits: CheckoutLimits = checkoutLimits;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly grantWrites: PurchaseGrantWrites,
  ) {}

  /**
   * POST /v1/purchases. In one transaction: the offer (live, registration open), the buyer (by id,
   * or by email, created when new), the purchase row (CREATED), then the limits in the contract's
   * order — licence seat (free), promo code, best group discount, training credits — then tax; a
   * purchase whose price is 0 is fulfilled at once. Any refusal rolls everything back.
   */
  async checkout(p: Principal, dto: CheckoutDto): Promise<PurchaseRow> {
    const quantity = dto.quantity ?? 1;
    const tax = dto.tax_price_cents ?? 0;
    const user = this.parseUser(dto.user);
    return this.ds.transaction(async (m) => {
      const offer = await offerItem(m, p.organizationId, dto.offer_id, true);
      if (!offer) throw invalidPk('offer_id', dto.offer_id);
      if (!offer.registration_open) throw fieldError('offer_id', 'Registration is closed for this offer.');
      const userId = await this.buyer(m, p.organizationId, user);
      const unit = priceCents(offer);
      const price = new CheckoutPrice(unit, quantity);
      const subtotal = price.subtotal;
      // refused here, naming the member, rather than as an out-of-range value from the database
      if (price.subtotalTooLarge) throw fieldError('quantity', `The offer's price times the quantity (${subtotal} cents) exceeds the largest amount a purchase can hold (${MAX_CENTS} cents).`);
      const purchaseId = await insertPurchase(m, {
        organizationId: p.organizationId,
        userId,
        offerId: offer.id,
        state: 'CREATED',
        quantity,
        currencyCode: offer.currency_code,
        offerPriceCents: unit,
        offerSku: offer.sku ?? encodeId('offer', offer.id),
        offerDescription: offer.description ?? '',
        priceCents: subtotal,
        taxPriceCents: tax,
        paymentProcessor: dto.payment_processor ?? 'NONE',
        paymentProcessorOrderId: dto.payment_processor_order_id ?? '',
      });
      // with an Idempotency-Key: the key is marked committed with this purchase in this transaction,
      // so a retry after a crash before the answer is stored answers it and never checks out again
      noteAnswerRef({ kind: PURCHASE_ANSWER, id: purchaseId });
      const ctx: CheckoutContext = { organizationId: p.organizationId, userId, offerId: offer.id, purchaseId, unitPriceCents: unit, quantity, currencyCode: offer.currency_code };
      const set: Record<string, unknown> = {};
      // the contract's order (checkout-pricing.ts): seat, promo code, group discount, credits, tax
      const seat = await this.limits.licenseSeatFor(m, ctx);
      if (seat) {
        set.license_package_id = seat.licensePackageId;
        price.seat();
      } else {
        const percent = await this.bestGroupDiscount(m, p.organizationId, userId);
        if (dto.promo_code !== undefined && dto.promo_code !== null) {
          // checked and priced; the use counts only when the purchase succeeds (succeed below)
          const claim = await this.limits.checkPromoCode(m, ctx, dto.promo_code);
          Object.assign(set, {
            promo_code_id: claim.promoCodeId,
            promo_code: claim.code,
            promo_code_percent_off: claim.percentOff,
            promo_code_price_cents: claim.priceCents ?? null,
            promo_code_quantity: quantity,
            promo_discount_cents: price.promo(claim.discountCents),
          });
        }
        if (percent > 0) Object.assign(set, { group_discount_percent: percent, group_discount_cents: price.group(percent) });
        if (dto.training_credit_code !== undefined && dto.training_credit_code !== null) {
          const spend = await this.limits.spendCredits(m, ctx, dto.training_credit_code, price.due);
          Object.assign(set, { training_credit_code_id: spend.trainingCreditCodeId, training_credit_code: spend.code, credits_cents: price.credits(spend.spentCents) });
        }
      }
      const total = price.total(tax);
      if (total > MAX_CENTS) throw fieldError('tax_price_cents', `The price with tax (${total} cents) exceeds the largest amount a purchase can hold (${MAX_CENTS} cents).`);
      set.price_cents = total;
      await updatePurchase(m, p.organizationId, purchaseId, set);
      if (total === 0) {
        await updatePurchase(m, p.organizationId, purchaseId, { state: 'SUCCESS' });
        await this.succeed(m, await loadPurchaseByUuid(m, p.organizationId, purchaseId));
      }
      return loadPurchaseByUuid(m, p.organizationId, purchaseId);
    });
  }

  /** A purchase by uuid (null when gone): the rebuilt answer of a checkout whose answer was lost (PURCHASE_ANSWER). */
  async readByUuid(organizationId: string, uuid: string): Promise<PurchaseRow | null> {
    return (await loadPurchaseByUuid(this.ds.manager, organizationId, uuid)) ?? null;
  }

  async read(p: Principal, publicId: string): Promise<PurchaseRow> {
    const row = await loadPurchase(this.ds.manager, p.organizationId, publicId);
    if (!row) throw notFound();
    return row;
  }

  /**
   * PUT / PATCH (both partial). `state` moves as §11 allows (SUCCESS fulfils, REFUNDED revokes);
   * `price_cents` and `tax_price_cents` only while the purchase is CREATED or PENDING;
   * `refunded_at` and `refund_cents` only on a refund (they default to now and the price).
   */
  async update(p: Principal, publicId: string, dto: PurchaseUpdateDto): Promise<PurchaseRow> {
    const refundedAt = parseTimestamp('refunded_at', dto.refunded_at, true);
    return this.ds.transaction(async (m) => {
      const cur = await this.locked(m, p, publicId);
      const target = (dto.state ?? cur.state) as PurchaseState;
      const set: Record<string, unknown> = {};
      for (const f of ['price_cents', 'tax_price_cents'] as const) {
        if (dto[f] === undefined) continue;
        if (cur.state !== 'CREATED' && cur.state !== 'PENDING') throw fieldError(f, `The price of a purchase in state ${cur.state} cannot change.`);
        if (f === 'price_cents' && dto[f] === null) throw fieldError(f, 'This field may not be null.');
        set[f] = dto[f];
      }
      const refunding = target === 'REFUNDED';
      if (!refunding && (refundedAt !== undefined || dto.refund_cents !== undefined)) {
        throw fieldError(dto.refund_cents !== undefined ? 'refund_cents' : 'refunded_at', 'Only a refunded purchase has a refund.');
      }
      if (refunding) {
        const cents = dto.refund_cents ?? cur.refund_cents ?? cur.price_cents;
        if (cents > cur.price_cents) throw fieldError('refund_cents', `Ensure this value is less than or equal to the price (${cur.price_cents}).`);
        set.refund_cents = cents;
        set.refunded_at = refundedAt ?? cur.refunded_at ?? new Date();
      }
      await updatePurchase(m, p.organizationId, cur.id, set);
      if (target !== cur.state) await this.move(m, cur, target, {});
      return loadPurchaseByUuid(m, p.organizationId, cur.id);
    });
  }

  /**
   * POST .../fulfill: SUCCESS, FAILED or CANCELLED from PENDING (§11). Asking for the state the
   * purchase is already in answers it unchanged and creates nothing (a retried or parallel fulfil).
   */
  async fulfil(p: Principal, publicId: string, dto: PurchaseFulfillDto): Promise<{ purchase: PurchaseRow; redirectUrl: string | null }> {
    const purchase = await this.ds.transaction(async (m) => {
      const cur = await this.locked(m, p, publicId);
      if (cur.state === dto.state) return cur;
      const extra: Record<string, unknown> = {};
      if (dto.error_msg !== undefined) extra.status_msg = dto.error_msg;
      if (dto.payment_processor_order_id !== undefined) extra.payment_processor_order_id = dto.payment_processor_order_id;
      if (dto.payment_processor_response_data !== undefined) extra.payment_processor_response_data = dto.payment_processor_response_data;
      await this.move(m, cur, dto.state, extra);
      return loadPurchaseByUuid(m, p.organizationId, cur.id);
    });
    const target = await offerTarget(this.ds.manager, p.organizationId, purchase.offer_id);
    // no domain: the object the offer sells is gone (unpublished, deleted); there is nowhere to send the buyer
    return { purchase, redirectUrl: target?.domain_name ? `${domainBase(target.domain_name)}/` : null };
  }

  private async locked(m: EntityManager, p: Principal, publicId: string): Promise<PurchaseRow> {
    const row = await loadPurchase(m, p.organizationId, publicId, true);
    if (!row) throw notFound();
    return row;
  }

  /** One state move of a locked purchase, with what it entails. */
  private async move(m: EntityManager, cur: PurchaseRow, to: PurchaseState, extra: Record<string, unknown>): Promise<void> {
    if (!MOVES[cur.state].includes(to)) {
      const allowed = MOVES[cur.state];
      throw fieldError('state', `A purchase in state ${cur.state} cannot move to ${to}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ' (it is final)'}.`);
    }
    await updatePurchase(m, cur.organization_id, cur.id, { ...extra, state: to });
    if (to === 'SUCCESS') await this.succeed(m, await loadPurchaseByUuid(m, cur.organization_id, cur.id));
    if (to === 'REFUNDED') await revokeGrants(m, this.grantWrites, cur.organization_id, cur.grants);
    if (RELEASING.has(to)) await this.limits.releaseForPurchase(m, cur.organization_id, cur.id);
  }

  /**
   * What a purchase moving to SUCCESS entails, in its transaction: its promo code's use counts now
   * (a 400 on `promo_code` when that would pass max_uses or single_use_per_user: the move is refused
   * and rolled back), then fulfilment.
   */
  private async succeed(m: EntityManager, row: PurchaseRow): Promise<void> {
    await this.limits.countPromoUse(m, row.organization_id, row);
    await this.grant(m, row);
  }

  /** Fulfilment, once: a purchase with `fulfilled_at` set is never granted again. */
  private async grant(m: EntityManager, row: PurchaseRow): Promise<void> {
    if (row.fulfilled_at) return;
    const grants = await grantPurchase(m, this.grantWrites, row);
    await updatePurchase(m, row.organization_id, row.id, { grants, fulfilled_at: new Date() });
  }

  /** The highest `discount_percent` (clamped to 0..100) of the user's groups; 0 when none. */
  private async bestGroupDiscount(m: EntityManager, organizationId: string, userId: string): Promise<number> {
    const [row] = await scoped(m, organizationId).query<{ pct: number | null }[]>(
      `SELECT max(g.discount_percent)::int AS pct FROM group_memberships gm JOIN groups g ON g.id = gm.group_id AND g.organization_id = gm.organization_id
        WHERE gm.organization_id = $org AND gm.user_id = $1 AND g.discount_percent > 0`,
      [userId],
    );
    return clampPercent(row?.pct);
  }

  /** `user`: {id} or {email, first_name, last_name} (400 on `user` otherwise). */
  private parseUser(u: Record<string, unknown>): { id: string } | { email: string; first_name: string; last_name: string } {
    if (u.id !== undefined) {
      if (typeof u.id !== 'string' || !u.id || u.id.length > 64) throw fieldError('user', 'The user id must be a string.');
      return { id: u.id };
    }
    const email = u.email;
    if (typeof email !== 'string' || !EMAIL_RE.test(email.trim()) || email.length > 254 || email.includes('\u0000')) {
      throw fieldError('user', u.email === undefined ? 'Give the user as {"id"} or {"email", "first_name", "last_name"}.' : 'Enter a valid email address.');
    }
    const name = (k: 'first_name' | 'last_name') => {
      const v = u[k] ?? '';
      if (typeof v !== 'string' || v.length > 50 || v.includes('\u0000')) throw fieldError('user', `${k}: a string of at most 50 characters.`);
      return v;
    };
    return { email: email.trim(), first_name: name('first_name'), last_name: name('last_name') };
  }

  /** The buyer's uuid: an existing user of the organization, or a new one made by email (students' insertMissingUsers). */
  private async buyer(m: EntityManager, organizationId: string, u: { id: string } | { email: string; first_name: string; last_name: string }): Promise<string> {
    if ('id' in u) {
      const uuid = decodeId('student', u.id);
      const [row] = uuid ? await scoped(m, organizationId).query<{ id: string; is_anonymized: boolean }[]>(`SELECT id, is_anonymized FROM users WHERE id = $1 AND organization_id = $org`, [uuid]) : [];
      if (!row) throw invalidPk('user', u.id);
      if (row.is_anonymized) throw fieldError('user', ANONYMIZED_USER);
      return row.id;
    }
    await insertMissingUsers(m, organizationId, [u]);
    const [row] = await scoped(m, organizationId).query<{ id: string; is_anonymized: boolean }[]>(`SELECT id, is_anonymized FROM users WHERE organization_id = $org AND lower(email) = lower($1)`, [
      u.email,
    ]);
    if (row.is_anonymized) throw fieldError('user', ANONYMIZED_USER);
    return row.id;
  }
}
