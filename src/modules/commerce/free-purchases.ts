import { EntityManager } from 'typeorm';
import { fieldError } from '../../core/http/v1-rules';
import { encodeId } from '../../core/ids/ids';
import { priceCents } from './offers.presenter';
import type { StoredPurchase } from './purchases';
import { eventPurchase, presentPurchase } from './purchases.presenter';
import { Grants, newOrderId, PurchaseRow } from './purchases.store';
import { scoped } from '../../core/database/scoped';

/**
 * The purchase behind an enrollment made through the enrollment operations (/v1 published-course,
 * published-path and plan enrollment creates, /v2 bulk-enroll): the platform records every
 * registration as a purchase, a free one as `SUCCESS`, price 0, `payment_processor: "NONE"`
 * (webhook-event-samples.md), and its enrollment events carry it. docs/decisions/commerce.md
 * ("Enrollments made without checkout").
 */

/** What an enrollment operation enrolls into (each has exactly one offer). */
export type EnrolledObject = 'published_course' | 'published_path' | 'plan';

const OWNER_COLUMN: Record<EnrolledObject, string> = { published_course: 'published_course_id', published_path: 'published_path_id', plan: 'plan_id' };
const GRANT_KEY: Record<EnrolledObject, 'enrollments' | 'published_path_enrollments' | 'plan_enrollments'> = {
  published_course: 'enrollments',
  published_path: 'published_path_enrollments',
  plan: 'plan_enrollments',
};

/** A new enrollment made without a purchase. */
export interface EnrollmentWithoutPurchase {
  enrollmentId: string;
  userId: string;
  /** the published course, published path or plan */
  objectId: string;
  /** when the registration happened: the enrollment's `enrolled_at` when the body set one, else now */
  at?: Date | null;
  /** the purchase a /v1 plan or published-path create body declared (`purchase`), recorded as declared */
  declared?: StoredPurchase | null;
}

export interface RecordedPurchase {
  /** the enrollment's own copy (plan and published-path enrollments keep it in their `purchase` jsonb) */
  stored: StoredPurchase;
  /** the `purchase` member of the enrollment's event */
  event: ReturnType<typeof eventPurchase>;
}

/** The most a purchase column holds (integer cents). */
const MAX_CENTS = 2147483647;

/** Status message of the purchases recorded here without a declaration. */
export const NO_CHARGE_MSG = 'Registered through an enrollment operation: no charge.';

/** The enrollment's copy of a purchase row (its `purchase` jsonb and published Purchase block). */
export const storedPurchase = (
  p: Pick<PurchaseRow, 'id' | 'price_cents' | 'currency_code' | 'state' | 'purchased_at' | 'tax_price_cents' | 'order_id' | 'payment_processor' | 'quantity'>,
): StoredPurchase => ({
  purchase_price: { amount: (p.price_cents / 100).toFixed(2), currency_code: p.currency_code },
  purchase_state: p.state,
  purchased_at: new Date(p.purchased_at).toISOString(),
  tax_price_cents: p.tax_price_cents,
  purchase_id: encodeId('purchase', p.id),
  order_id: p.order_id,
  payment_processor: p.payment_processor,
  quantity: p.quantity,
});

/**
 * Record the purchases of new enrollments made without one, in the caller's transaction, whatever
 * their number in two statements (the offers, one multi-row INSERT). Without a declaration: state
 * SUCCESS, quantity 1, `price_cents` 0, tax null, `payment_processor` NONE, whatever the offer's price
 * (an administrative enrollment is not a sale; the offer's list price stays in `offer_price_cents`,
 * hence the event's `original_price`). A declared purchase (plan and path create bodies) is recorded
 * as declared: its price, currency, state, `purchased_at` and tax, payment_processor NONE. Each purchase
 * is fulfilled already (`fulfilled_at`) and its `grants` name the enrollment, so a refund through
 * /v1/purchases deactivates it and a later fulfil grants nothing again. Returns each enrollment's
 * purchase, keyed by enrollment id (an object without an offer, which the offers' triggers rule out,
 * gets none).
 */
export async function recordEnrollmentPurchases(m: EntityManager, organizationId: string, object: EnrolledObject, items: EnrollmentWithoutPurchase[]): Promise<Map<string, RecordedPurchase>> {
  const out = new Map<string, RecordedPurchase>();
  if (!items.length) return out;
  const declaredCents = items.map((it) => (it.declared ? Math.round(Number(it.declared.purchase_price.amount) * 100) : 0));
  if (declaredCents.some((c) => !Number.isFinite(c) || c > MAX_CENTS)) {
    throw fieldError('purchase.purchase_price', `Ensure the amount is less than or equal to ${(MAX_CENTS / 100).toFixed(2)}.`);
  }
  const owner = OWNER_COLUMN[object];
  const offers: { id: string; owner_id: string; price_cents: number | null; currency_code: string; sku: string | null; description: string | null }[] = await scoped(m, organizationId).query(
    `SELECT DISTINCT ON (${owner}) id, ${owner} AS owner_id, price_cents, currency_code, sku, description
       FROM offers WHERE organization_id = $org AND ${owner} = ANY($1::uuid[]) AND is_default
      ORDER BY ${owner}, created_at, id`,
    [[...new Set(items.map((it) => it.objectId))]],
  );
  const offerOf = new Map(offers.map((o) => [o.owner_id, o]));
  const rows = items.map((it, i) => ({ it, cents: declaredCents[i], offer: offerOf.get(it.objectId) })).filter((r): r is typeof r & { offer: (typeof offers)[number] } => r.offer !== undefined);
  if (!rows.length) return out;
  const grants = (enrollmentId: string): Grants => ({
    domain_user: false,
    enrollments: [],
    published_path_enrollments: [],
    plan_enrollments: [],
    [GRANT_KEY[object]]: [enrollmentId],
  });
  const inserted: (PurchaseRow & { enrollment_id: string })[] = await scoped(m, organizationId).query(
    `INSERT INTO purchases (organization_id, user_id, offer_id, order_id, state, status_msg, quantity, currency_code, offer_price_cents, offer_sku,
                            offer_description, price_cents, tax_price_cents, payment_processor, grants, fulfilled_at, purchased_at)
     SELECT $org, v.user_id, v.offer_id, v.order_id, v.state, v.status_msg, 1, v.currency_code, v.offer_price_cents, v.offer_sku,
            v.offer_description, v.price_cents, v.tax_price_cents, 'NONE', v.grants, date_trunc('milliseconds', now()),
            COALESCE(v.purchased_at, date_trunc('milliseconds', now()))
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::int[], $11::int[], $12::jsonb[], $13::timestamptz[])
         AS v(user_id, offer_id, order_id, state, status_msg, currency_code, offer_price_cents, offer_sku, offer_description, price_cents, tax_price_cents, grants, purchased_at)
     RETURNING *, grants->'${GRANT_KEY[object]}'->>0 AS enrollment_id`,
    [
      rows.map((r) => r.it.userId),
      rows.map((r) => r.offer.id),
      rows.map(() => newOrderId()),
      rows.map((r) => r.it.declared?.purchase_state ?? 'SUCCESS'),
      rows.map((r) => (r.it.declared ? '' : NO_CHARGE_MSG)),
      rows.map((r) => r.it.declared?.purchase_price.currency_code ?? r.offer.currency_code),
      rows.map((r) => (r.it.declared ? r.cents : priceCents(r.offer))),
      rows.map((r) => r.offer.sku ?? encodeId('offer', r.offer.id)),
      rows.map((r) => r.offer.description ?? ''),
      rows.map((r) => r.cents),
      rows.map((r) => r.it.declared?.tax_price_cents ?? null),
      rows.map((r) => JSON.stringify(grants(r.it.enrollmentId))),
      rows.map((r) => (r.it.declared?.purchased_at ? new Date(r.it.declared.purchased_at) : (r.it.at ?? null))),
    ],
  );
  for (const p of inserted) out.set(p.enrollment_id, { stored: storedPurchase(p), event: eventPurchase(p) });
  return out;
}

/** The published Purchase block of an enrollment (EnrollmentPurchase). */
export type EnrollmentPurchaseBlock = NonNullable<ReturnType<typeof presentPurchase>>;

/**
 * The Purchase block of each course enrollment a purchase created (its `grants.enrollments`:
 * a checkout's or one recorded above), keyed by enrollment id; one query for a page (GIN index
 * purchases_grants_enrollments_idx). Enrollments without one are absent.
 */
export async function enrollmentPurchaseBlocks(m: EntityManager, organizationId: string, enrollmentIds: string[]): Promise<Map<string, EnrollmentPurchaseBlock>> {
  const out = new Map<string, EnrollmentPurchaseBlock>();
  if (!enrollmentIds.length) return out;
  const rows: (PurchaseRow & { enrollment_id: string; o_price_cents: number | null; o_currency_code: string })[] = await scoped(m, organizationId).query(
    `SELECT DISTINCT ON (e.id) e.id AS enrollment_id, p.id, p.price_cents, p.currency_code, p.state, p.purchased_at, p.tax_price_cents, p.order_id,
            p.payment_processor, p.quantity, p.offer_id, o.price_cents AS o_price_cents, o.currency_code AS o_currency_code
       FROM unnest($1::text[]) AS e(id)
       JOIN purchases p ON p.organization_id = $org AND p.grants -> 'enrollments' @> jsonb_build_array(e.id)
       JOIN offers o ON o.organization_id = $org AND o.id = p.offer_id
      ORDER BY e.id, p.created_at, p.id`,
    [[...new Set(enrollmentIds)]],
  );
  for (const r of rows) {
    const block = presentPurchase(storedPurchase(r), { id: r.offer_id, owner_id: '', registration_open: true, price_cents: r.o_price_cents, currency_code: r.o_currency_code });
    if (block) out.set(r.enrollment_id, block);
  }
  return out;
}
