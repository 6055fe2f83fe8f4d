import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `updated_since` on the last lists of quizzes and progress (docs/decisions/data-out.md): a quiz's
 * attempts (an attempt is written once: its `created_at` is its last change), /v2 questions of the
 * organization by last change, a learner's lessons of a published course (their lesson progress by
 * last change) and a learner's published courses (the learner's enrollments and course progress). A quiz's or a bank's questions and a quiz's bank assignments already have theirs
 * (1763880000000).
 */
const INDEXES: [string, string][] = [
  ['quiz_attempts_quiz_created_idx', 'quiz_attempts (organization_id, quiz_id, created_at, id)'],
  ['questions_org_updated_idx', 'questions (organization_id, updated_at, id) WHERE deleted_at IS NULL'],
  ['lesson_progress_cp_updated_idx', 'lesson_progress (organization_id, course_progress_id, updated_at, id)'],
  // a learner's published courses changed since: their enrollments' and course progress's changes
  ['enrollments_org_user_updated_idx', 'enrollments (organization_id, user_id, updated_at)'],
  ['course_progress_org_user_updated_idx', 'course_progress (organization_id, user_id, updated_at)'],
];

export class UpdatedSinceQuizzesProgress1763940000000 implements MigrationInterface {
  name = 'UpdatedSinceQuizzesProgress1763940000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [name, on] of INDEXES) await q.query(`CREATE INDEX IF NOT EXISTS ${name} ON ${on}`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name] of INDEXES) await q.query(`DROP INDEX IF EXISTS ${name}`);
  }
}
