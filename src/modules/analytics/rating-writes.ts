import { EntityManager } from 'typeorm';

/** Writes other modules ask of course_ratings (owned by this module), over the caller's EntityManager. */

/** Anonymization: the person's written feedback goes, the ratings stay (they count in the averages). */
export async function eraseRatingFeedback(m: EntityManager, organizationId: string, userId: string): Promise<void> {
  await m.query(`UPDATE course_ratings SET feedback = NULL WHERE user_id = $1 AND organization_id = $2 AND feedback IS NOT NULL`, [userId, organizationId]);
}
