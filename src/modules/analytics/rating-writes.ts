import { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';

/** Writes other modules ask of course_ratings (owned by this module), over the caller's EntityManager. */

/** Anonymization: the person's written feedback goes, the ratings stay (they count in the averages). */
export async function eraseRatingFeedback(m: EntityManager, organizationId: string, userId: string): Promise<void> {
  await scoped(m, organizationId).query(`UPDATE course_ratings SET feedback = NULL WHERE user_id = $1 AND organization_id = $org AND feedback IS NOT NULL`, [userId]);
}

/**
 * A learner's rating of the course of an enrollment (PATCH on the /v1 published-course enrollment,
 * CONVENTIONS §15): one per enrollment, upserted (course_ratings_enrollment_uq). `rating` undefined
 * keeps the stored one (then only `feedback` changes, and there must be a rating); `feedback`
 * undefined keeps the stored feedback. The scale is the organization's active one. Returns false
 * when only feedback was sent and the enrollment has no rating to attach it to.
 */
export async function upsertEnrollmentRating(
  m: EntityManager,
  organizationId: string,
  e: { enrollmentId: string; courseId: string; userId: string },
  rating: number | undefined,
  feedback: string | null | undefined,
): Promise<boolean> {
  if (rating === undefined) {
    const rows = rowsOf<{ id: string }>(
      await scoped(m, organizationId).query<unknown>(`UPDATE course_ratings SET feedback = $2 WHERE enrollment_id = $1 AND organization_id = $org RETURNING id`, [e.enrollmentId, feedback ?? null]),
    );
    return rows.length > 0;
  }
  await scoped(m, organizationId).query(
    `INSERT INTO course_ratings (organization_id, course_id, user_id, enrollment_id, rating, scale_max, feedback)
     SELECT $org, $1, $2, $3, $4, o.rating_scale, $5 FROM organizations o WHERE o.id = $org
     ON CONFLICT (organization_id, enrollment_id) WHERE enrollment_id IS NOT NULL
     DO UPDATE SET rating = EXCLUDED.rating, scale_max = EXCLUDED.scale_max, feedback = CASE WHEN $6 THEN EXCLUDED.feedback ELSE course_ratings.feedback END`,
    [e.courseId, e.userId, e.enrollmentId, rating, feedback ?? null, feedback !== undefined],
  );
  return true;
}

/** `rating: null` on the enrollment: its rating (and feedback) goes. */
export async function removeEnrollmentRating(m: EntityManager, organizationId: string, enrollmentId: string): Promise<void> {
  await scoped(m, organizationId).query(`DELETE FROM course_ratings WHERE enrollment_id = $1 AND organization_id = $org`, [enrollmentId]);
}
