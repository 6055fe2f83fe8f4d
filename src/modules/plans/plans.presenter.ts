import { Type, type Static } from '@sinclair/typebox';
import { encodeId } from '../../core/ids/ids';
import { declaredV1, ext, nullable, PublicId } from '../../core/openapi/declared-shape';
import { OfferSchema, presentOffer } from '../commerce/offers.presenter';
import { domainBase } from '../domains/domain-url';
import { presentEnrollment } from '../enrollments/program-enrollments.presenter';
import type { PlanEnrollmentView, PlanView } from './plans.service';

/**
 * Plan: the published `Plan` schema (id, name, slug, plan_url, offer, hidden, short_description)
 * plus `plan {id, title}` that resource-reference-api.md lists for the plan list item, and the
 * extension members `published_courses` and `published_paths` ([{id}], what the plan grants).
 */
export const PlanSchema = declaredV1(
  'Plan',
  Type.Object({
    id: PublicId(),
    plan: Type.Object({ id: PublicId(), title: Type.String() }, ext({ description: 'the plan list item of resource-reference-api.md' })),
    name: Type.String(),
    slug: Type.String(),
    plan_url: Type.String(),
    offer: Type.Optional(OfferSchema),
    hidden: Type.Boolean(),
    short_description: nullable(Type.String()),
    published_courses: Type.Array(Type.Object({ id: PublicId() }), ext({ description: 'the published courses the plan grants' })),
    published_paths: Type.Array(Type.Object({ id: PublicId() }), ext({ description: 'the published paths the plan grants' })),
  }),
);
export type PlanV1 = Static<typeof PlanSchema>;

export function presentPlan(v: PlanView): PlanV1 {
  const id = encodeId('plan', v.plan.id);
  return {
    id,
    plan: { id, title: v.plan.name },
    name: v.plan.name,
    slug: v.plan.slug,
    plan_url: `${domainBase(v.domainName)}/plan/${v.plan.slug}`,
    offer: presentOffer(v.offer, v.domainName) ?? undefined,
    hidden: v.plan.hidden,
    short_description: v.plan.shortDescription,
    /** extension (CONVENTIONS §15): what the plan grants, as written by POST/PUT/PATCH */
    published_courses: v.items.courses.map((id) => ({ id: encodeId('publishedCourse', id) })),
    published_paths: v.items.paths.map((id) => ({ id: encodeId('publishedPath', id) })),
  };
}

export const presentPlanEnrollment = (v: PlanEnrollmentView) => presentEnrollment('planEnrollment', v.e, v.users, v.offer);
