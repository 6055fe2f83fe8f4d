import { Type, type Static } from '@sinclair/typebox';
import { omitEmpty } from '../../core/http/optional-members';
import { DateTime, declaredV1, ext, nullable, PublicId } from '../../core/openapi/declared-shape';
import { iso } from '../../core/http/v1-rules';
import { encodeId } from '../../core/ids/ids';
import type { Student } from './student.entity';
import { fullName } from './students.presenter';
import type { UserOverviewRow } from './users.v1.service';
import type { UserPathEnrollmentRow, UserPlanEnrollmentRow } from './user-enrollments.v1.service';

/**
 * The published /v1 users schemas. Pure: no queries.
 * `UserOverview`: the user (with the read-only `full_name` every /v1 user object has), how many
 * course enrollments and completed ones, when they signed up, their latest activity, and when they
 * became inactive (null while active). A member without a value is left out when the published schema
 * makes it optional and not nullable (`latest_activity`, `expires_at`, the path progress's times:
 * CONVENTIONS §16).
 */
export const UserOverviewSchema = declaredV1(
  'UserOverview',
  Type.Object({
    user: Type.Object({ id: PublicId(), email: Type.String({ format: 'email' }), first_name: Type.String(), last_name: Type.String(), full_name: Type.String(ext()) }),
    registration_count: Type.Integer(),
    completion_count: Type.Integer(),
    signed_up_at: DateTime(),
    latest_activity: Type.Optional(DateTime()),
    inactive_at: nullable(DateTime()),
  }),
);

export function presentUserOverview(r: UserOverviewRow): Static<typeof UserOverviewSchema> {
  return omitEmpty(
    {
      user: { id: encodeId('student', r.id), email: r.email, first_name: r.first_name, last_name: r.last_name, full_name: fullName(r.first_name, r.last_name) },
      registration_count: r.registrations,
      completion_count: r.completions,
      signed_up_at: iso(r.created_at)!,
      latest_activity: iso(r.latest_activity),
      inactive_at: r.is_inactive ? iso(r.deactivated_at) : null,
    },
    ['latest_activity'],
  );
}

/** `UserUpdate`: the answer of users_update and users_partial_update. */
export const UserUpdateSchema = declaredV1(
  'UserUpdate',
  Type.Object({ id: PublicId(), email: Type.String({ format: 'email' }), first_name: Type.String(), last_name: Type.String(), inactive_at: nullable(DateTime()) }),
);

export function presentUserUpdate(s: Student): Static<typeof UserUpdateSchema> {
  return { id: encodeId('student', s.id), email: s.email, first_name: s.firstName, last_name: s.lastName, inactive_at: s.isInactive ? iso(s.deactivatedAt) : null };
}

/** What a user's plan and published-path enrollments both show after the program's id, in the published order. */
const ENROLLMENT_TERMS = { domain_name: Type.String(), enrolled_at: DateTime(), expires_at: Type.Optional(DateTime()), active: Type.Boolean() };

function enrollmentTerms(r: UserPlanEnrollmentRow | UserPathEnrollmentRow) {
  return { domain_name: r.domain_name, enrolled_at: iso(r.enrolled_at)!, ...(r.expires_at ? { expires_at: iso(r.expires_at)! } : {}), active: r.active };
}

/** `UserPlanEnrollments`. */
export const UserPlanEnrollmentSchema = declaredV1(
  'UserPlanEnrollments',
  Type.Object({ plan_id: PublicId(), ...ENROLLMENT_TERMS, enrollment_id: PublicId(), plan: Type.Object({ id: PublicId(), title: Type.String() }) }),
);

export function presentUserPlanEnrollment(r: UserPlanEnrollmentRow): Static<typeof UserPlanEnrollmentSchema> {
  const planId = encodeId('plan', r.plan_id);
  return {
    plan_id: planId,
    ...enrollmentTerms(r),
    enrollment_id: encodeId('planEnrollment', r.id),
    plan: { id: planId, title: r.plan_title },
  };
}

/**
 * `UserPublishedPathEnrollments` with its `StudentPathProgress`: the path progress is the
 * published-path enrollment itself (docs/decisions/progress.md), so `path_progress_id` is the
 * enrollment's id; the path has no optional courses, so the two completed counts are equal.
 */
export const UserPathEnrollmentSchema = declaredV1(
  'UserPublishedPathEnrollments',
  Type.Object({
    published_path_id: PublicId(),
    ...ENROLLMENT_TERMS,
    enrollment_id: PublicId(),
    published_path: Type.Object({ id: PublicId(), title: Type.String(), course_count: Type.Integer() }),
    published_path_progress: Type.Object({
      path_progress_id: PublicId(),
      completed_course_count: Type.Integer(),
      completed_required_course_count: Type.Integer(),
      completed_at: Type.Optional(DateTime()),
      latest_activity: Type.Optional(DateTime()),
    }),
  }),
);

export function presentUserPathEnrollment(r: UserPathEnrollmentRow): Static<typeof UserPathEnrollmentSchema> {
  const publishedPathId = encodeId('publishedPath', r.published_path_id);
  const enrollmentId = encodeId('publishedPathEnrollment', r.id);
  return {
    published_path_id: publishedPathId,
    ...enrollmentTerms(r),
    enrollment_id: enrollmentId,
    published_path: { id: publishedPathId, title: r.title, course_count: r.course_count },
    published_path_progress: omitEmpty(
      {
        path_progress_id: enrollmentId,
        completed_course_count: r.completed_count,
        completed_required_course_count: r.completed_count,
        completed_at: iso(r.completed_at),
        latest_activity: iso(r.latest_activity),
      },
      ['completed_at', 'latest_activity'],
    ),
  };
}
