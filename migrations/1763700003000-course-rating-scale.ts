import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organization's active rating scale (5 or 10): course analytics and a course's
 * average_rating count only ratings given on that scale (CourseAnalyticsAttributes.rating_scale).
 */
export class CourseRatingScale1763700003000 implements MigrationInterface {
  name = 'CourseRatingScale1763700003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations ADD COLUMN rating_scale integer NOT NULL DEFAULT 5 CHECK (rating_scale IN (5, 10))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations DROP COLUMN IF EXISTS rating_scale`);
  }
}
