import { encodeId } from '../../core/ids/ids';
import { presentOffer } from '../commerce/offers.presenter';
import { domainBase } from '../domains/domain-url';
import { presentEnrollment } from '../enrollments/program-enrollments.presenter';
import type { PlanEnrollmentView, PlanView } from './plans.service';

/**
 * Plan: the published `Plan` schema (id, name, slug, plan_url, offer, hidden, short_description)
 * plus `plan {id, title}` that resource-reference-api.md lists for the plan list item, and the
 * extension members `published_courses` and `published_paths` ([{id}], what the plan grants).
 */
export function presentPlan(v: PlanView) {
  const id = encodeId('plan', v.plan.id);
  return {
    id,
    plan: { id, title: v.plan.name },
    name: v.plan.name,
    slug: v.plan.slug,
    plan_url: `${domainBase(v.domainName)}/plan/${v.plan.slug}`,
    offer: presentOffer(v.offer, v.domainName),
    hidden: v.plan.hidden,
    short_description: v.plan.shortDescription,
    /** extension (CONVENTIONS §15): what the plan grants, as written by POST/PUT/PATCH */
    published_courses: v.items.courses.map((id) => ({ id: encodeId('publishedCourse', id) })),
    published_paths: v.items.paths.map((id) => ({ id: encodeId('publishedPath', id) })),
  };
}

export const presentPlanEnrollment = (v: PlanEnrollmentView) => presentEnrollment('planEnrollment', v.e, v.users, v.offer);
