import { Type, type Static } from '@sinclair/typebox';
import { omitEmpty } from '../../core/http/optional-members';
import { DateTime, declaredV1, ext, nullable, PublicId } from '../../core/openapi/declared-shape';
import { EnrollmentPurchaseSchema } from '../commerce/purchases.presenter';
import { iso } from '../../core/http/v1-rules';
import { encodeId } from '../../core/ids/ids';
import { fullName } from '../students/students.presenter';
import type { EnrollmentRow } from './enrollments.v1.service';

/**
 * The published /v1 Enrollment of a published course (and its create and update answers), declared
 * once (core/openapi/declared-shape.ts): `expires_at` left out without a value (optional, not
 * nullable); `purchase` is the block of the purchase that created it (null when none did).
 */
export const EnrollmentV1Schema = declaredV1(
  ['Enrollment', 'CreateEnrollment', 'UpdateEnrollment'],
  Type.Object({
    id: PublicId(),
    user: Type.Object({ id: PublicId(), email: Type.String({ format: 'email' }), first_name: Type.String(), last_name: Type.String(), full_name: Type.String(ext()) }),
    enrolled_at: DateTime(),
    expires_at: Type.Optional(DateTime()),
    active: Type.Boolean(),
    purchase: nullable(EnrollmentPurchaseSchema),
    rating: nullable(Type.Integer()),
    feedback: nullable(Type.String()),
  }),
);
export type EnrollmentV1 = Static<typeof EnrollmentV1Schema>;

export function presentEnrollment(r: EnrollmentRow): EnrollmentV1 {
  // expires_at, and the purchase block's ids, left out without a value (optional, not nullable in the published Enrollment)
  return omitEmpty(
    {
      id: encodeId('enrollment', r.id),
      user: { id: encodeId('student', r.user_id), email: r.email, first_name: r.first_name, last_name: r.last_name, full_name: fullName(r.first_name, r.last_name) },
      enrolled_at: iso(r.enrolled_at)!,
      expires_at: iso(r.expires_at),
      active: r.active,
      purchase: r.purchase ? omitEmpty({ ...r.purchase }, ['order_id', 'purchase_id', 'purchased_at']) : null,
      rating: r.rating ?? null,
      feedback: r.feedback ?? null,
    },
    ['expires_at'],
  );
}
