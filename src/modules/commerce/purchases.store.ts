import { randomInt } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { decodeId } from '../../core/ids/ids';
import { scoped } from '../../core/database/scoped';

/**
 * The `purchases` table (commerce owns it): one row per checkout (and per free enrollment made
 * through the enrollment operations), with every price member computed when it was made. Every
 * statement carries the organization.
 */
export const PURCHASE_STATES = ['CREATED', 'PENDING', 'SUCCESS', 'FAILED', 'CANCELLED', 'FLAGGED', 'REFUNDED'] as const;
export type PurchaseState = (typeof PURCHASE_STATES)[number];

export const PAYMENT_PROCESSORS = ['NONE', 'STRIPE', 'STRIPE_BTC', 'PAYPAL', 'PAYFLOW', 'CYBERSRC', 'MES', 'EXTERNAL'] as const;

/** What fulfilment created (and refund deactivates): only rows this purchase made, never pre-existing ones. */
export interface Grants {
  domain_user: boolean;
  enrollments: string[];
  published_path_enrollments: string[];
  plan_enrollments: string[];
}

/** A purchase and its buyer's name and email. @table purchases */
export interface PurchaseRow {
  id: string;
  organization_id: string;
  user_id: string;
  offer_id: string;
  order_id: string;
  state: PurchaseState;
  status_msg: string;
  quantity: number;
  currency_code: string;
  offer_price_cents: number;
  offer_sku: string;
  offer_description: string;
  promo_code_id: string | null;
  promo_code: string | null;
  promo_code_percent_off: number | null;
  promo_code_price_cents: number | null;
  promo_code_quantity: number;
  promo_discount_cents: number;
  group_discount_percent: number | null;
  group_discount_cents: number;
  training_credit_code_id: string | null;
  training_credit_code: string | null;
  credits_cents: number;
  license_package_id: string | null;
  tax_price_cents: number | null;
  price_cents: number;
  refund_cents: number | null;
  refunded_at: Date | null;
  payment_processor: string;
  payment_processor_order_id: string;
  payment_processor_response_data: string;
  grants: Grants | null;
  fulfilled_at: Date | null;
  purchased_at: Date;
  /** the buyer's email: @column users.email */
  email: string;
  /** @column users.first_name */
  first_name: string;
  /** @column users.last_name */
  last_name: string;
}

const SELECT = `p.*, u.email, u.first_name, u.last_name FROM purchases p JOIN users u ON u.id = p.user_id AND u.organization_id = p.organization_id`;

/** The purchase behind a public id (null when malformed, unknown or another organization's); `lock` takes its row lock. */
export async function loadPurchase(m: EntityManager, organizationId: string, publicId: unknown, lock = false): Promise<PurchaseRow | null> {
  const uuid = decodeId('purchase', publicId);
  if (!uuid) return null;
  const [row] = await scoped(m, organizationId).query<PurchaseRow[]>(`SELECT ${SELECT} WHERE p.id = $1 AND p.organization_id = $org${lock ? ' FOR UPDATE OF p' : ''}`, [uuid]);
  return row ?? null;
}

export async function loadPurchaseByUuid(m: EntityManager, organizationId: string, uuid: string): Promise<PurchaseRow> {
  const [row] = await scoped(m, organizationId).query<PurchaseRow[]>(`SELECT ${SELECT} WHERE p.id = $1 AND p.organization_id = $org`, [uuid]);
  return row;
}

const ORDER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** An order reference as the platform shows them (8 upper-case letters and digits, e.g. `67FSRWY9`). */
export const newOrderId = () => Array.from({ length: 8 }, () => ORDER_ALPHABET[randomInt(ORDER_ALPHABET.length)]).join('');

/** Columns a new purchase row is written with (checkout, free enrollments). */
export interface NewPurchase {
  organizationId: string;
  userId: string;
  offerId: string;
  state: PurchaseState;
  quantity: number;
  currencyCode: string;
  offerPriceCents: number;
  offerSku: string;
  offerDescription: string;
  priceCents: number;
  taxPriceCents: number | null;
  paymentProcessor: string;
  paymentProcessorOrderId: string;
}

/** Insert one purchase; returns its uuid. */
export async function insertPurchase(m: EntityManager, p: NewPurchase): Promise<string> {
  const [row] = await scoped(m, p.organizationId).query<{ id: string }[]>(
    `INSERT INTO purchases (organization_id, user_id, offer_id, order_id, state, quantity, currency_code, offer_price_cents, offer_sku, offer_description,
                            price_cents, tax_price_cents, payment_processor, payment_processor_order_id)
     VALUES ($org, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
    [
      p.userId,
      p.offerId,
      newOrderId(),
      p.state,
      p.quantity,
      p.currencyCode,
      p.offerPriceCents,
      p.offerSku,
      p.offerDescription,
      p.priceCents,
      p.taxPriceCents,
      p.paymentProcessor,
      p.paymentProcessorOrderId,
    ],
  );
  return row.id;
}

/** Set columns of one purchase (names are this module's constants, never input). */
export async function updatePurchase(m: EntityManager, organizationId: string, id: string, set: Record<string, unknown>): Promise<void> {
  const cols = Object.keys(set);
  if (!cols.length) return;
  const params: unknown[] = [id];
  const sets = cols.map((c) => {
    const v = set[c];
    params.push(c === 'grants' && v !== null ? JSON.stringify(v) : v);
    return `${c} = $${params.length}${c === 'grants' ? '::jsonb' : ''}`;
  });
  await scoped(m, organizationId).query(`UPDATE purchases SET ${sets.join(', ')}, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`, params);
}

/**
 * For commerce-limits: when promo codes (or a whole pool's codes) are deleted, the purchases that
 * used them lose the link and the code (`code_used`): promo_code_id and promo_code become null; the
 * amounts charged (percent off, discount, price) stay as they were. In the caller's transaction.
 */
export async function clearPromoCodeUse(m: EntityManager, organizationId: string, promoCodeIds: string[]): Promise<void> {
  if (!promoCodeIds.length) return;
  await scoped(m, organizationId).query(
    `UPDATE purchases SET promo_code_id = NULL, promo_code = NULL, updated_at = date_trunc('milliseconds', now())
      WHERE organization_id = $org AND promo_code_id = ANY($1::uuid[])`,
    [promoCodeIds],
  );
}
