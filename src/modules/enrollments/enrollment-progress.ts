import type { EntityManager } from 'typeorm';

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
  await m.query(
    `UPDATE enrollments e SET completed_at = v.at, started_at = COALESCE(e.started_at, v.at), updated_at = date_trunc('milliseconds', now())
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[]) AS v(user_id, pc_id, enrollment_id, at)
      WHERE e.organization_id = $5 AND e.user_id = v.user_id AND e.published_course_id = v.pc_id
        AND (v.enrollment_id IS NULL OR e.id = v.enrollment_id)
        AND e.completed_at IS DISTINCT FROM v.at`,
    [items.map((i) => i.userId), items.map((i) => i.publishedCourseId), items.map((i) => i.enrollmentId), items.map((i) => i.completedAt), organizationId],
  );
}

/** A learner started: the enrollments the course progress covers get `started_at` (first activity). */
export async function markEnrollmentsStarted(m: EntityManager, organizationId: string, userId: string, publishedCourseId: string, enrollmentId: string | null): Promise<void> {
  await m.query(
    `UPDATE enrollments SET started_at = date_trunc('milliseconds', now()), updated_at = date_trunc('milliseconds', now())
      WHERE organization_id = $1 AND user_id = $2 AND published_course_id = $3 AND ($4::uuid IS NULL OR id = $4) AND started_at IS NULL`,
    [organizationId, userId, publishedCourseId, enrollmentId],
  );
}
