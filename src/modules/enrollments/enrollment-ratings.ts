import type { EntityManager } from 'typeorm';

/**
 * The writes of an enrollment's course rating (`course_ratings`, owned by modules/analytics) the /v1
 * enrollment PATCH asks for, in the caller's transaction. Declared here and provided by
 * modules/analytics (`EnrollmentRatingsModule`, global), so enrollments, below analytics in the
 * module graph, imports nothing of it (docs/decisions/module-graph.md).
 */
export abstract class EnrollmentRatingWrites {
  /** Upserts the rating (and feedback); false when only feedback was sent and there is no rating to attach it to. */
  abstract upsertEnrollmentRating(
    m: EntityManager,
    organizationId: string,
    e: { enrollmentId: string; courseId: string; userId: string },
    rating: number | undefined,
    feedback: string | null | undefined,
  ): Promise<boolean>;
  abstract removeEnrollmentRating(m: EntityManager, organizationId: string, enrollmentId: string): Promise<void>;
}
