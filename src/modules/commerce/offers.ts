import { EntityManager } from 'typeorm';

/**
 * Offers: the price and registration state of a sellable object (published path, plan, course
 * series, published course). Commerce owns the `offers` table: other modules create and read
 * offers through these functions, inside their own transaction.
 */
export type OfferOwner = 'published_path_id' | 'plan_id' | 'course_series_id' | 'published_course_id';

export interface OfferRow {
  id: string;
  owner_id: string;
  registration_open: boolean;
  price_cents: number | null;
  currency_code: string;
}

/** The default offer of each owner (the oldest default one), keyed by owner uuid. One query. */
export async function loadOffers(m: EntityManager, organizationId: string, owner: OfferOwner, ids: string[]): Promise<Map<string, OfferRow>> {
  const out = new Map<string, OfferRow>();
  if (!ids.length) return out;
  const rows: OfferRow[] = await m.query(
    `SELECT DISTINCT ON (${owner}) id, ${owner} AS owner_id, registration_open, price_cents, currency_code
       FROM offers WHERE organization_id = $1 AND ${owner} = ANY($2::uuid[]) AND is_default
      ORDER BY ${owner}, created_at, id`,
    [organizationId, [...new Set(ids)]],
  );
  for (const r of rows) out.set(r.owner_id, r);
  return out;
}

/** A free, open default offer for a newly published object (its description: the object's title, at most 500 characters). */
export async function insertDefaultOffer(m: EntityManager, organizationId: string, owner: OfferOwner, ownerId: string, description: string): Promise<void> {
  await m.query(`INSERT INTO offers (organization_id, ${owner}, registration_open, price_cents, description) VALUES ($1, $2, true, NULL, $3)`, [
    organizationId,
    ownerId,
    description.slice(0, 500),
  ]);
}
