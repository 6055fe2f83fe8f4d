import { omitEmpty } from '../../core/http/optional-members';
import { iso } from '../../core/http/v1-rules';
import { encodeId } from '../../core/ids/ids';
import { fullName } from '../students/students.presenter';
import type { EnrollmentRow } from './enrollments.v1.service';

/** The v1 Enrollment of a published course; `purchase` is the block of the purchase that created it (null when none did). */
export function presentEnrollment(r: EnrollmentRow) {
  // expires_at, and the purchase block's ids, left out without a value (optional, not nullable in the published Enrollment)
  return omitEmpty(
    {
      id: encodeId('enrollment', r.id),
      user: { id: encodeId('student', r.user_id), email: r.email, first_name: r.first_name, last_name: r.last_name, full_name: fullName(r.first_name, r.last_name) },
      enrolled_at: iso(r.enrolled_at),
      expires_at: iso(r.expires_at),
      active: r.active,
      purchase: r.purchase ? omitEmpty({ ...r.purchase }, ['order_id', 'purchase_id', 'purchased_at']) : null,
      rating: r.rating ?? null,
      feedback: r.feedback ?? null,
    },
    ['expires_at'],
  );
}
