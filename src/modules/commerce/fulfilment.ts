import { EntityManager } from 'typeorm';
import { eventCourse, eventDomain, eventPath, eventUser, UserCols } from '../../core/events/bodies';
import { PendingEvent, recordEvents } from '../../core/events/outbox';
import type { EventObjectsOf } from '../../core/events/event-payloads';
import { fieldError } from '../../core/http/v1-rules';
import { encodeId } from '../../core/ids/ids';
import { storedPurchase } from './free-purchases';
import { OfferProduct, offerType } from './offers.presenter';
import type { PurchaseGrantWrites } from './purchase-grants';
import { eventPurchase } from './purchases.presenter';
import { Grants, PurchaseRow } from './purchases.store';
import { scoped } from '../../core/database/scoped';

/** The offer's object with what fulfilment needs (any state: fulfilment refuses a dead one itself). */
interface OfferTarget extends OfferProduct {
  live: boolean;
}

export async function offerTarget(m: EntityManager, organizationId: string, offerId: string): Promise<OfferTarget> {
  const [row] = await scoped(m, organizationId).query<OfferTarget[]>(
    `SELECT o.published_course_id, o.published_path_id, o.plan_id, o.course_series_id, d.id AS domain_id, d.name AS domain_name,
            (pc.id IS NOT NULL OR pp.id IS NOT NULL OR pl.id IS NOT NULL OR cs.id IS NOT NULL) AS live
       FROM offers o
       LEFT JOIN (published_courses pc JOIN courses c ON c.id = pc.course_id AND c.organization_id = pc.organization_id AND c.deleted_at IS NULL)
              ON pc.id = o.published_course_id AND pc.organization_id = o.organization_id AND pc.unpublished_at IS NULL
       LEFT JOIN published_paths pp ON pp.id = o.published_path_id AND pp.organization_id = o.organization_id AND pp.unpublished_at IS NULL
       LEFT JOIN plans pl ON pl.id = o.plan_id AND pl.organization_id = o.organization_id AND pl.deleted_at IS NULL
       LEFT JOIN course_series cs ON cs.id = o.course_series_id AND cs.organization_id = o.organization_id AND cs.deleted_at IS NULL
       LEFT JOIN domains d ON d.id = coalesce(pc.domain_id, pp.domain_id, pl.domain_id, cs.domain_id) AND d.organization_id = o.organization_id
      WHERE o.id = $1 AND o.organization_id = $org`,
    [offerId],
  );
  return row;
}

/** The live published courses an offer of a published course or a course series grants. */
async function coursesOf(m: EntityManager, organizationId: string, t: OfferTarget) {
  const rows: { id: string; course_id: string; slug: string; title: string }[] = await scoped(m, organizationId).query(
    `SELECT pc.id, pc.course_id, pc.slug, c.title
       FROM published_courses pc JOIN courses c ON c.id = pc.course_id AND c.organization_id = pc.organization_id AND c.deleted_at IS NULL
      WHERE pc.organization_id = $org AND pc.unpublished_at IS NULL
        AND (pc.id = $1 OR pc.id IN (SELECT i.published_course_id FROM course_series_items i WHERE i.organization_id = $org AND i.course_series_id = $2))
      ORDER BY pc.created_at, pc.id`,
    [t.published_course_id, t.course_series_id],
  );
  return rows.map((r) => ({ publishedCourseId: r.id, courseId: r.course_id, slug: r.slug, title: r.title }));
}

/**
 * Grant what a purchase (already in state SUCCESS, row-locked by the caller) buys, in the caller's
 * transaction: membership of the offer's domain, then the published course's enrollment, the
 * series' course enrollments, the published path's or the plan's enrollment (the owners' functions),
 * each event with the purchase, and one PURCHASE_FULFILLMENT. Returns what this call created.
 * Enrollments the buyer already had (active) are left alone and not counted: a refund never
 * deactivates them.
 */
export async function grantPurchase(m: EntityManager, writes: PurchaseGrantWrites, p: PurchaseRow): Promise<Grants> {
  const org = p.organization_id;
  const t = await offerTarget(m, org, p.offer_id);
  if (!t?.live || !t.domain_id || !t.domain_name) throw fieldError('state', "The offer's object is no longer published: nothing can be granted.");
  const domain = { id: t.domain_id, name: t.domain_name };
  const user: UserCols = { id: p.user_id, email: p.email, first_name: p.first_name, last_name: p.last_name };
  const purchase = eventPurchase(p);
  const grants: Grants = { domain_user: false, enrollments: [], published_path_enrollments: [], plan_enrollments: [] };
  grants.domain_user = await writes.joinDomain(m, { organizationId: org, domain, user, purchase });

  const events: PendingEvent[] = [];
  const objects: Pick<EventObjectsOf<'PURCHASE_FULFILLMENT'>, 'course' | 'path' | 'course_series' | 'plan'> = {};
  const kind = offerType(t);
  if (kind === 'published_course' || kind === 'course_series') {
    const courses = await coursesOf(m, org, t);
    grants.enrollments = await writes.enrollInCourses(m, { organizationId: org, user, domain, courses, purchase });
    if (kind === 'published_course' && courses[0]) {
      const c = courses[0];
      objects.course = eventCourse({ course_id: c.courseId, published_course_id: c.publishedCourseId, title: c.title, domain_name: domain.name, slug: c.slug });
    } else {
      objects.course_series = { id: encodeId('courseSeries', t.course_series_id!), published_course_ids: courses.map((c) => encodeId('publishedCourse', c.publishedCourseId)) };
    }
  } else if (kind === 'published_path') {
    const [pp] = await scoped(m, org).query<{ id: string; path_id: string; slug: string; title: string }[]>(
      `SELECT pp.id, pp.path_id, pp.slug, pa.title FROM published_paths pp JOIN paths pa ON pa.id = pp.path_id AND pa.organization_id = pp.organization_id
        WHERE pp.id = $1 AND pp.organization_id = $org`,
      [t.published_path_id],
    );
    const { id, created } = await writes.insertProgramEnrollment(m, {
      organizationId: org,
      domainId: domain.id,
      table: 'published_path_enrollments',
      owner: { column: 'published_path_id', id: pp.id },
      extra: { column: 'path_id', value: pp.path_id },
      input: { userUuid: p.user_id, enrolledAt: null, expiresAt: null, active: true, purchase: storedPurchase(p) },
    });
    objects.path = eventPath({ path_id: pp.path_id, published_path_id: pp.id, title: pp.title, domain_name: domain.name, slug: pp.slug });
    if (created) {
      grants.published_path_enrollments.push(id);
      events.push({ organizationId: org, type: 'PATH_ENROLLMENT', objects: { user: eventUser(user), path: objects.path!, purchase, domain: eventDomain(domain) } });
    }
  } else {
    const { id, created } = await writes.insertProgramEnrollment(m, {
      organizationId: org,
      domainId: domain.id,
      table: 'plan_enrollments',
      owner: { column: 'plan_id', id: t.plan_id! },
      input: { userUuid: p.user_id, enrolledAt: null, expiresAt: null, active: true, purchase: storedPurchase(p) },
    });
    objects.plan = { id: encodeId('plan', t.plan_id!) };
    if (created) grants.plan_enrollments.push(id);
  }
  events.push({ organizationId: org, type: 'PURCHASE_FULFILLMENT', objects: { user: eventUser(user), ...objects, purchase, domain: eventDomain(domain) } });
  await recordEvents(m, events);
  return grants;
}

/** A refund: the enrollments the purchase created become inactive (the domain membership stays). */
export async function revokeGrants(m: EntityManager, writes: PurchaseGrantWrites, organizationId: string, g: Grants | null): Promise<void> {
  if (!g) return;
  await writes.setEnrollmentsActive(m, organizationId, g.enrollments, false);
  await writes.setProgramEnrollmentsActive(m, organizationId, 'published_path_enrollments', g.published_path_enrollments, false);
  await writes.setProgramEnrollmentsActive(m, organizationId, 'plan_enrollments', g.plan_enrollments, false);
}
