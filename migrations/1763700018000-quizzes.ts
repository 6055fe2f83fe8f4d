import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Quizzes (issue 12, CONVENTIONS §12; docs/decisions/quizzes.md): one model for /v1 and /v2.
 *
 * quizzes, question_banks and questions are soft-deleted (deleted_at), as the published /v2
 * deletes describe; a question belongs to exactly one quiz or one question bank (CHECK), and
 * keeps its answers in `answers` (jsonb array of {id, answer_text, correct, order}: answers are
 * replaced as a whole, never edited in place). question_bank_assignments bind banks to quizzes
 * (hard-deleted, one per quiz and bank). quiz_attempts are the graded attempts of a learner on a
 * quiz lesson: attempt_number is unique per lesson progress, so max_attempts holds under
 * concurrency. lessons.quiz_id becomes a real reference (ids that name no quiz are cleared: no
 * quiz could exist before this table).
 */
export class Quizzes1763700018000 implements MigrationInterface {
  name = 'Quizzes1763700018000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE quizzes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name varchar(500) NOT NULL,
        html text NOT NULL DEFAULT '',
        passing_percentage_correct integer NOT NULL DEFAULT 0 CHECK (passing_percentage_correct BETWEEN 0 AND 100),
        show_results_on_failure boolean NOT NULL DEFAULT false,
        max_attempts integer NOT NULL DEFAULT 0 CHECK (max_attempts >= 0),
        require_correct_response boolean NOT NULL DEFAULT false,
        randomize_questions boolean NOT NULL DEFAULT false,
        limit_question_count integer NOT NULL DEFAULT 0 CHECK (limit_question_count >= 0),
        randomize_answers boolean NOT NULL DEFAULT false,
        time_limit_seconds integer CHECK (time_limit_seconds BETWEEN 0 AND 3600000),
        show_question_feedback boolean NOT NULL DEFAULT false,
        skip_start_screen boolean DEFAULT false,
        alignment text NOT NULL DEFAULT 'center' CHECK (alignment IN ('left', 'center', 'right')),
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        deleted_at timestamptz,
        CONSTRAINT quizzes_organization_id_id_key UNIQUE (organization_id, id)
      )`);
    await q.query(`CREATE INDEX quizzes_list_idx ON quizzes (organization_id, created_at, id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX quizzes_name_idx ON quizzes (organization_id, name) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX quizzes_lower_name_idx ON quizzes (organization_id, lower(name)) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX quizzes_updated_idx ON quizzes (organization_id, updated_at) WHERE deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE question_banks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name varchar(500) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        deleted_at timestamptz,
        CONSTRAINT question_banks_organization_id_id_key UNIQUE (organization_id, id)
      )`);
    await q.query(`CREATE INDEX question_banks_list_idx ON question_banks (organization_id, created_at, id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX question_banks_lower_name_idx ON question_banks (organization_id, lower(name)) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX question_banks_updated_idx ON question_banks (organization_id, updated_at) WHERE deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE questions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        quiz_id uuid,
        question_bank_id uuid,
        type text NOT NULL CHECK (type IN ('MULTIPLE_CHOICE', 'MULTIPLE_ANSWER', 'FILL_IN_THE_BLANK', 'FREEFORM')),
        html text NOT NULL,
        "order" integer NOT NULL DEFAULT 0,
        case_sensitive boolean NOT NULL DEFAULT false,
        requires_manual_grading boolean NOT NULL DEFAULT false,
        is_graded boolean NOT NULL DEFAULT true,
        is_optional boolean NOT NULL DEFAULT false,
        correct_answer_feedback_html text NOT NULL DEFAULT '',
        incorrect_answer_feedback_html text NOT NULL DEFAULT '',
        answer_feedback_html text NOT NULL DEFAULT '',
        answers jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        deleted_at timestamptz,
        CONSTRAINT questions_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT questions_one_parent CHECK ((quiz_id IS NULL) <> (question_bank_id IS NULL)),
        CONSTRAINT questions_quiz_id_fkey FOREIGN KEY (organization_id, quiz_id) REFERENCES quizzes (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT questions_question_bank_id_fkey FOREIGN KEY (organization_id, question_bank_id) REFERENCES question_banks (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX questions_list_idx ON questions (organization_id, created_at, id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX questions_quiz_idx ON questions (organization_id, quiz_id, "order", id) WHERE deleted_at IS NULL AND quiz_id IS NOT NULL`);
    await q.query(`CREATE INDEX questions_bank_idx ON questions (organization_id, question_bank_id, "order", id) WHERE deleted_at IS NULL AND question_bank_id IS NOT NULL`);
    await q.query(`CREATE INDEX questions_quiz_created_idx ON questions (organization_id, quiz_id, created_at, id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX questions_bank_created_idx ON questions (organization_id, question_bank_id, created_at, id) WHERE deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE question_bank_assignments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        quiz_id uuid NOT NULL,
        question_bank_id uuid NOT NULL,
        "order" integer NOT NULL DEFAULT 0 CHECK ("order" >= 0),
        randomize_questions boolean NOT NULL DEFAULT false,
        limit_question_count integer NOT NULL DEFAULT 0 CHECK (limit_question_count >= 0),
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        CONSTRAINT question_bank_assignments_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT question_bank_assignments_quiz_bank_uq UNIQUE (organization_id, quiz_id, question_bank_id),
        CONSTRAINT question_bank_assignments_quiz_id_fkey FOREIGN KEY (organization_id, quiz_id) REFERENCES quizzes (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT question_bank_assignments_question_bank_id_fkey FOREIGN KEY (organization_id, question_bank_id) REFERENCES question_banks (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX question_bank_assignments_bank_idx ON question_bank_assignments (organization_id, question_bank_id)`);

    await q.query(`
      CREATE TABLE quiz_attempts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        quiz_id uuid NOT NULL,
        user_id uuid NOT NULL,
        lesson_id uuid NOT NULL,
        lesson_progress_id uuid NOT NULL,
        published_course_id uuid NOT NULL,
        attempt_number integer NOT NULL CHECK (attempt_number >= 1),
        status text NOT NULL CHECK (status IN ('IN_PROGRESS', 'GRADED', 'PENDING_REVIEW', 'TIMED_OUT')),
        questions jsonb NOT NULL,
        responses jsonb,
        score integer,
        max_score integer,
        percentage_correct integer,
        passed boolean,
        started_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        expires_at timestamptz,
        submitted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        CONSTRAINT quiz_attempts_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT quiz_attempts_number_uq UNIQUE (organization_id, lesson_progress_id, attempt_number),
        CONSTRAINT quiz_attempts_quiz_id_fkey FOREIGN KEY (organization_id, quiz_id) REFERENCES quizzes (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT quiz_attempts_user_id_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT quiz_attempts_lesson_id_fkey FOREIGN KEY (organization_id, lesson_id) REFERENCES lessons (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT quiz_attempts_lesson_progress_id_fkey FOREIGN KEY (organization_id, lesson_progress_id) REFERENCES lesson_progress (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT quiz_attempts_published_course_id_fkey FOREIGN KEY (organization_id, published_course_id) REFERENCES published_courses (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX quiz_attempts_quiz_user_idx ON quiz_attempts (organization_id, quiz_id, user_id, created_at)`);
    await q.query(`CREATE INDEX quiz_attempts_user_idx ON quiz_attempts (organization_id, user_id)`);
    await q.query(`CREATE INDEX quiz_attempts_lesson_idx ON quiz_attempts (organization_id, lesson_id)`);
    await q.query(`CREATE INDEX quiz_attempts_pc_idx ON quiz_attempts (organization_id, published_course_id)`);

    // lessons.quiz_id: a reference from now on (before this table no id could name a quiz)
    await q.query(`UPDATE lessons SET quiz_id = NULL WHERE quiz_id IS NOT NULL`);
    await q.query(`ALTER TABLE lessons ADD CONSTRAINT lessons_quiz_id_fkey FOREIGN KEY (organization_id, quiz_id) REFERENCES quizzes (organization_id, id) ON DELETE SET NULL (quiz_id)`);
    await q.query(`CREATE INDEX lessons_quiz_idx ON lessons (organization_id, quiz_id) WHERE quiz_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS lessons_quiz_idx`);
    await q.query(`ALTER TABLE lessons DROP CONSTRAINT IF EXISTS lessons_quiz_id_fkey`);
    await q.query(`DROP TABLE IF EXISTS quiz_attempts`);
    await q.query(`DROP TABLE IF EXISTS question_bank_assignments`);
    await q.query(`DROP TABLE IF EXISTS questions`);
    await q.query(`DROP TABLE IF EXISTS question_banks`);
    await q.query(`DROP TABLE IF EXISTS quizzes`);
  }
}
