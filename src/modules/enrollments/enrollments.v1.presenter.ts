import { iso } from '../../core/http/v1-rules';
import { encodeId } from '../../core/ids/ids';
import { fullName } from '../students/students.presenter';
import type { EnrollmentRow } from './enrollments.v1.service';

/** The v1 Enrollment of a published course; `purchase` is the block of the purchase that created it (null when none did). */
export function presentEnrollment(r: EnrollmentRow) {
  return {
    id: encodeId('enrollment', r.id),
    user: { id: encodeId('student', r.user_id), email: r.email, first_name: r.first_name, last_name: r.last_name, full_name: fullName(r.first_name, r.last_name) },
    enrolled_at: iso(r.enrolled_at),
    expires_at: iso(r.expires_at),
    active: r.active,
    purchase: r.purchase ?? null,
    rating: r.rating ?? null,
    feedback: r.feedback ?? null,
  };
}
