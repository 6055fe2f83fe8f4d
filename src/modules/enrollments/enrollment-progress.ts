import type { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';

/**
 * The enrollments' copy of their course progress's completion (the /v1 and /v2 enrollment reads and
 * the course analytics read `enrollments.completed_at`). Called by the progress module inside its
 * transaction; this module owns the table, so the write lives here. One statement for any number
 * of course progresses: a per-enrollment progress covers its enrollment, a shared one every
 * enrollment of that user in that published course.
 */
export async function syncEnrollmentCompletion(
  m: EntityManager,
  organizationId: string,
  items: { userId: string; publishedCourseId: string; enrollmentId: string | null; completedAt: Date | null }[],
): Promise<void> {
  if (!items.length) return;
  await scoped(m, organizationId).query(
    `UPDATE enrollments e SET completed_at = v.at, started_at = COALESCE(e.started_at, v.at), updated_at = date_trunc('milliseconds', now())
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[]) AS v(user_id, pc_id, enrollment_id, at)
      WHERE e.organization_id = $org AND e.user_id = v.user_id AND e.published_course_id = v.pc_id
        AND (v.enrollment_id IS NULL OR e.id = v.enrollment_id)
        AND e.completed_at IS DISTINCT FROM v.at`,
    [items.map((i) => i.userId), items.map((i) => i.publishedCourseId), items.map((i) => i.enrollmentId), items.map((i) => i.completedAt)],
  );
}

/** A learner started: the enrollments the course progress covers get `started_at` (first activity). */
export async function markEnrollmentsStarted(m: EntityManager, organizationId: string, userId: string, publishedCourseId: string, enrollmentId: string | null): Promise<void> {
  await scoped(m, organizationId).query(
    `UPDATE enrollments SET started_at = date_trunc('milliseconds', now()), updated_at = date_trunc('milliseconds', now())
      WHERE organization_id = $org AND user_id = $1 AND published_course_id = $2 AND ($3::uuid IS NULL OR id = $3) AND started_at IS NULL`,
    [userId, publishedCourseId, enrollmentId],
  );
}

/**
 * New enrollments that join an existing shared course progress take its state: `completed_at` is the
 * progress's completion, and `started_at` the start of the user's other enrollments there or, when
 * none recorded one, the earliest instant the progress shows activity. One statement.
 */
export async function joinSharedProgress(m: EntityManager, organizationId: string, enrollmentIds: string[]): Promise<void> {
  if (!enrollmentIds.length) return;
  await scoped(m, organizationId).query(
    `UPDATE enrollments e
        SET completed_at = cp.completed_at,
            started_at = COALESCE(e.started_at,
                                  (SELECT min(o.started_at) FROM enrollments o
                                    WHERE o.organization_id = $org AND o.user_id = e.user_id AND o.published_course_id = e.published_course_id AND o.id <> e.id),
                                  LEAST(cp.latest_activity, cp.completed_at)),
            updated_at = date_trunc('milliseconds', now())
       FROM course_progress cp
      WHERE e.organization_id = $org AND e.id = ANY($1::uuid[])
        AND cp.organization_id = $org AND cp.user_id = e.user_id AND cp.published_course_id = e.published_course_id AND cp.enrollment_id IS NULL
        AND (cp.completed_at IS NOT NULL OR cp.latest_activity IS NOT NULL)
        AND (e.completed_at IS DISTINCT FROM cp.completed_at OR e.started_at IS NULL)`,
    [enrollmentIds],
  );
}
