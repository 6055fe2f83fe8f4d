import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Found by the large world of the benchmark (bench/scale.js, docs/performance.md "Cost at scale"):
 * the enrollment read (/v2/enrollments lists and reads) asks, per enrollment, whether its course has
 * a graded lesson (a live, required QUIZ or IE_EXAM lesson). No index answered that condition, so
 * the planner hashed the answer from a sequential scan of every lesson of every organization: a
 * page of 100 enrollments cost a read of the whole lessons table (687 pages at 35,000 lessons).
 * This partial index holds only the graded lessons: the check is an index probe (or a hash of the
 * few graded lessons), whatever the number of lessons.
 */
export class ScaleGradedLessonsIndex1763870000000 implements MigrationInterface {
  name = 'ScaleGradedLessonsIndex1763870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX lessons_org_course_graded_idx ON lessons (organization_id, course_id)
        WHERE type IN ('QUIZ', 'IE_EXAM') AND NOT optional AND deleted_at IS NULL AND NOT is_draft`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS lessons_org_course_graded_idx`);
  }
}
