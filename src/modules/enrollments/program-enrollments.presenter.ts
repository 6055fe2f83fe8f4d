import { omitEmpty } from '../../core/http/optional-members';
import { iso } from '../../core/http/v1-rules';
import { encodeId } from '../../core/ids/ids';
import type { OfferRow } from '../commerce/offers';
import { presentPurchase } from '../commerce/purchases.presenter';
import type { UserRow } from '../students/user-refs';
import { presentUser } from '../students/user-refs.presenter';
import type { EnrollmentLike } from './program-enrollments';

/** A v1 plan or published-path Enrollment; `expires_at` left out when it never expires (optional, not nullable). */
export function presentEnrollment(type: 'planEnrollment' | 'publishedPathEnrollment', e: EnrollmentLike, users: Map<string, UserRow>, offer: OfferRow | undefined) {
  return omitEmpty(
    {
      id: encodeId(type, e.id),
      user: presentUser(users.get(e.userId), e.userId),
      enrolled_at: iso(e.enrolledAt),
      expires_at: iso(e.expiresAt),
      active: e.active,
      purchase: presentPurchase(e.purchase, offer),
    },
    ['expires_at'],
  );
}
