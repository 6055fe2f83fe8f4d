import type { EntityManager } from 'typeorm';
import type { OfferItemBasics } from './offers.presenter';
import { scoped } from '../../core/database/scoped';

/** One offer as the promo-code pool operations show it (the published OfferItem). */
export type OfferItemView = OfferItemBasics;

/** The offers of the organization with these uuids and the domain they are sold on, in one query (unknown ones left out). */
export async function loadOfferItems(m: EntityManager, organizationId: string, ids: string[]): Promise<OfferItemView[]> {
  if (!ids.length) return [];
  return scoped(m, organizationId).query(
    `SELECT o.id, o.published_course_id, o.published_path_id, o.plan_id, o.course_series_id, o.price_cents, o.currency_code, o.sku, d.name AS domain_name
       FROM offers o
       LEFT JOIN published_courses pc ON pc.organization_id = $org AND pc.id = o.published_course_id
       LEFT JOIN published_paths pp ON pp.organization_id = $org AND pp.id = o.published_path_id
       LEFT JOIN plans pl ON pl.organization_id = $org AND pl.id = o.plan_id
       LEFT JOIN course_series cs ON cs.organization_id = $org AND cs.id = o.course_series_id
       LEFT JOIN domains d ON d.organization_id = $org AND d.id = COALESCE(pc.domain_id, pp.domain_id, pl.domain_id, cs.domain_id)
      WHERE o.organization_id = $org AND o.id = ANY($1::uuid[])
      ORDER BY o.created_at, o.id`,
    [ids],
  );
}
