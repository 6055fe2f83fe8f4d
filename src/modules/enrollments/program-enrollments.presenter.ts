import { Type, type Static } from '@sinclair/typebox';
import { omitEmpty } from '../../core/http/optional-members';
import { DateTime, declaredV1, nullable, PublicId } from '../../core/openapi/declared-shape';
import { iso } from '../../core/http/v1-rules';
import { encodeId } from '../../core/ids/ids';
import type { OfferRow } from '../commerce/offers';
import { EnrollmentPurchaseSchema, presentPurchase } from '../commerce/purchases.presenter';
import type { UserRow } from '../students/user-refs';
import { presentUser, UserRefSchema } from '../students/user-refs.presenter';
import type { EnrollmentLike } from './program-enrollments';

/**
 * The published /v1 PlanEnrollment and PublishedPathEnrollment (and their create and update
 * answers), declared once (core/openapi/declared-shape.ts): `expires_at` left out when it never
 * expires (optional, not nullable); `purchase` null when no purchase created it.
 */
export const ProgramEnrollmentSchema = declaredV1(
  ['PlanEnrollment', 'CreatePlanEnrollment', 'UpdatePlanEnrollment', 'PublishedPathEnrollment', 'CreatePublishedPathEnrollment', 'UpdatePublishedPathEnrollment'],
  Type.Object({
    id: PublicId(),
    user: UserRefSchema,
    enrolled_at: DateTime(),
    expires_at: Type.Optional(DateTime()),
    active: Type.Boolean(),
    purchase: nullable(EnrollmentPurchaseSchema),
  }),
);
export type ProgramEnrollment = Static<typeof ProgramEnrollmentSchema>;

/** A v1 plan or published-path Enrollment. */
export function presentEnrollment(type: 'planEnrollment' | 'publishedPathEnrollment', e: EnrollmentLike, users: Map<string, UserRow>, offer: OfferRow | undefined): ProgramEnrollment {
  return omitEmpty(
    {
      id: encodeId(type, e.id),
      user: presentUser(users.get(e.userId), e.userId),
      enrolled_at: iso(e.enrolledAt)!,
      expires_at: iso(e.expiresAt),
      active: e.active,
      purchase: presentPurchase(e.purchase, offer),
    },
    ['expires_at'],
  );
}
