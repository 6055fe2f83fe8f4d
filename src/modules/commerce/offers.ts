import { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import type { OfferRow } from './offers.store';

/**
 * Offers: the price and registration state of a sellable object (published path, plan, course
 * series, published course). Exactly one per object (unique index per owner column), created with
 * it by the owner table's AFTER INSERT trigger (migration 1763700017000). Commerce owns the
 * `offers` table: other modules read offers through these functions, inside their own transaction.
 */
export type OfferOwner = 'published_path_id' | 'plan_id' | 'course_series_id' | 'published_course_id';

export type { OfferRow } from './offers.store';

/** The offer of each owner, keyed by owner uuid. One query. */
export async function loadOffers(m: EntityManager, organizationId: string, owner: OfferOwner, ids: string[]): Promise<Map<string, OfferRow>> {
  const out = new Map<string, OfferRow>();
  if (!ids.length) return out;
  const rows: OfferRow[] = await scoped(m, organizationId).query(
    `SELECT DISTINCT ON (${owner}) id, ${owner} AS owner_id, registration_open, price_cents, currency_code
       FROM offers WHERE organization_id = $org AND ${owner} = ANY($1::uuid[]) AND is_default
      ORDER BY ${owner}, created_at, id`,
    [[...new Set(ids)]],
  );
  for (const r of rows) out.set(r.owner_id, r);
  return out;
}

/**
 * The offer of a newly published object. The owner table's trigger already made it in the
 * INSERT; this keeps the call sites that predate the trigger correct (a no-op then).
 */
export async function insertDefaultOffer(m: EntityManager, organizationId: string, owner: OfferOwner, ownerId: string, description: string): Promise<void> {
  await scoped(m, organizationId).query(`INSERT INTO offers (organization_id, ${owner}, registration_open, price_cents, description) VALUES ($org, $1, true, NULL, $2) ON CONFLICT DO NOTHING`, [
    ownerId,
    description.slice(0, 500),
  ]);
}

/** An offer's price in cents: an offer whose price was never set is free (CONVENTIONS §11). */
export const priceCents = (o: { price_cents: number | string | null }) => (o.price_cents === null || o.price_cents === undefined ? 0 : Number(o.price_cents));

/** What an offer sells (one of its four product ids is set) and the domain the product is on. */
export interface OfferProduct {
  published_course_id: string | null;
  published_path_id: string | null;
  plan_id: string | null;
  course_series_id: string | null;
  domain_id: string | null;
  domain_name: string | null;
}

/** One row of the /v1/offers queries (offers-v1.service.ts). */
export interface OfferItemRow extends OfferProduct {
  id: string;
  description: string | null;
  registration_open: boolean;
  price_cents: number | null;
  currency_code: string;
  sku: string | null;
  created_at: Date;
  live: boolean;
}
