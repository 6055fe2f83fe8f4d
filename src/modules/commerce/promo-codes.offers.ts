import type { EntityManager } from 'typeorm';
import { encodeId } from '../../core/ids/ids';

/** One offer as the promo-code pool operations show it (the published OfferItem). */
export interface OfferItemView {
  id: string;
  published_course_id: string | null;
  published_path_id: string | null;
  plan_id: string | null;
  course_series_id: string | null;
  domain_name: string | null;
  price_cents: number | null;
  currency_code: string;
  sku: string | null;
}

/** The offers of the organization with these uuids and the domain they are sold on, in one query (unknown ones left out). */
export async function loadOfferItems(m: EntityManager, organizationId: string, ids: string[]): Promise<OfferItemView[]> {
  if (!ids.length) return [];
  return m.query(
    `SELECT o.id, o.published_course_id, o.published_path_id, o.plan_id, o.course_series_id, o.price_cents, o.currency_code, o.sku, d.name AS domain_name
       FROM offers o
       LEFT JOIN published_courses pc ON pc.organization_id = $1 AND pc.id = o.published_course_id
       LEFT JOIN published_paths pp ON pp.organization_id = $1 AND pp.id = o.published_path_id
       LEFT JOIN plans pl ON pl.organization_id = $1 AND pl.id = o.plan_id
       LEFT JOIN course_series cs ON cs.organization_id = $1 AND cs.id = o.course_series_id
       LEFT JOIN domains d ON d.organization_id = $1 AND d.id = COALESCE(pc.domain_id, pp.domain_id, pl.domain_id, cs.domain_id)
      WHERE o.organization_id = $1 AND o.id = ANY($2::uuid[])
      ORDER BY o.created_at, o.id`,
    [organizationId, ids],
  );
}

/** The published OfferItem. */
export function presentOfferItem(r: OfferItemView) {
  const id = encodeId('offer', r.id);
  return {
    id,
    course_series_id: r.course_series_id ? encodeId('courseSeries', r.course_series_id) : null,
    published_path_id: r.published_path_id ? encodeId('publishedPath', r.published_path_id) : null,
    published_course_id: r.published_course_id ? encodeId('publishedCourse', r.published_course_id) : null,
    plan_id: r.plan_id ? encodeId('plan', r.plan_id) : null,
    domain_name: r.domain_name,
    offer_type: r.published_course_id ? 'published_course' : r.published_path_id ? 'published_path' : r.plan_id ? 'plan' : 'course_series',
    price_cents: r.price_cents ?? 0,
    currency_code: r.currency_code,
    price_credits: null,
    sku: r.sku ?? id,
  };
}
