import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rating content blocks (issue 29 point 3): `rating_scale` is stored on the course, as the published
 * RatingContentBlock says ("Stored on Course, not on the block"): 5 or 10, null for the organization's.
 * The blocks themselves live in their RATING content item (lessons.content_items), as content items do.
 */
export class CourseRatingScale1763740001000 implements MigrationInterface {
  name = 'CourseRatingScale1763740001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE courses ADD COLUMN rating_scale smallint CHECK (rating_scale IN (5, 10))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE courses DROP COLUMN IF EXISTS rating_scale`);
  }
}
