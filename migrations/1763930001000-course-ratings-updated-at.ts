import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `filter[updated_since]` on /v2/analytics/courses/{id}/ratings (docs/decisions/data-out.md): a
 * rating is upserted (its value, scale and feedback change; anonymization clears its feedback), so
 * it gets an `updated_at`, backfilled with its creation and from now on moved on every real change
 * by the BEFORE UPDATE trigger of the synced tables (data_out_touch, at the millisecond as a cursor
 * holds it); a course's ratings by last change are read on (course_id, updated_at, id).
 */
export class CourseRatingsUpdatedAt1763930001000 implements MigrationInterface {
  name = 'CourseRatingsUpdatedAt1763930001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE course_ratings ADD COLUMN IF NOT EXISTS updated_at timestamptz`);
    await q.query(`UPDATE course_ratings SET updated_at = date_trunc('milliseconds', created_at) WHERE updated_at IS NULL`);
    await q.query(`ALTER TABLE course_ratings ALTER COLUMN updated_at SET DEFAULT date_trunc('milliseconds', now()), ALTER COLUMN updated_at SET NOT NULL`);
    await q.query(`CREATE TRIGGER course_ratings_data_out_touch BEFORE UPDATE ON course_ratings FOR EACH ROW EXECUTE FUNCTION data_out_touch()`);
    await q.query(`CREATE INDEX IF NOT EXISTS course_ratings_course_updated_idx ON course_ratings (course_id, updated_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS course_ratings_course_updated_idx`);
    await q.query(`DROP TRIGGER IF EXISTS course_ratings_data_out_touch ON course_ratings`);
    await q.query(`ALTER TABLE course_ratings DROP COLUMN IF EXISTS updated_at`);
  }
}
