import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { scoped } from '../../core/database/scoped';
import { isUniqueViolation } from '../../core/database/sql';
import { eventCourse, eventDomain, eventQuiz, eventUser } from '../../core/events/bodies';
import { recordEvents } from '../../core/events/outbox';
import { ApiError, badRequest, FieldProblem, notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId, encodeId, newUuid } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { lockUsers } from '../progress/completion';
import type { LessonPatch } from '../progress/lesson-rules';
import { ProgressService } from '../progress/progress.service';
import { REGISTERED } from '../students/users.v1.service';
import { draw, grade, Grade, parseResponses, PoolQuestion } from './attempts-grading';
import type { AttemptRequest } from './dto/attempt.v1.dto';
import type { QuizRow } from './quiz-model';
import type { AttemptRow } from './quiz-attempts.store';
import { QuizzesService } from './quizzes.service';
import { liveLesson } from '../../core/database/fragments';

export type { AttemptRow } from './quiz-attempts.store';

/** What a submitted attempt answers with: the attempt, the quiz's feedback settings and, per drawn question, its feedback. */
export interface SubmittedAttempt {
  attempt: AttemptRow;
  quiz: QuizRow;
  feedback: Map<string, string>;
}

/** The learner, published course and quiz lesson an attempt names (one statement; each part null when unknown). */
type AttemptReference = {
  user_id: string | null;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  is_anonymized: boolean | null;
  registered: boolean;
  pc_id: string | null;
  course_id: string | null;
  slug: string | null;
  course_title: string | null;
  domain_id: string | null;
  domain_name: string | null;
  lesson_id: string | null;
  enrolled: boolean;
};
/** An attempt's reference once checked: every part known. */
type KnownReference = { [K in keyof AttemptReference]: NonNullable<AttemptReference[K]> };

const ATTEMPT_SELECT = `t.id, t.quiz_id, t.user_id, t.lesson_id, t.published_course_id, t.attempt_number, t.status, t.questions, t.score, t.max_score,
  t.percentage_correct, t.passed, t.started_at, t.submitted_at, t.created_at`;

/** The pool of a quiz: its own live questions and those of its bound live banks (questions of a deleted bank are deleted with it). */
const POOL = `
  SELECT x.id, x.question_bank_id, x.type, x.case_sensitive, x.requires_manual_grading, x.is_graded, x.is_optional,
         x.correct_answer_feedback_html, x.incorrect_answer_feedback_html, x.answers, x."order",
         NULL::int AS bank_order, NULL::timestamptz AS bank_at, NULL::int AS bank_limit
    FROM questions x WHERE x.organization_id = $org AND x.quiz_id = $1 AND x.deleted_at IS NULL
  UNION ALL
  SELECT x.id, x.question_bank_id, x.type, x.case_sensitive, x.requires_manual_grading, x.is_graded, x.is_optional,
         x.correct_answer_feedback_html, x.incorrect_answer_feedback_html, x.answers, x."order",
         a."order", a.created_at, a.limit_question_count
    FROM question_bank_assignments a
    JOIN questions x ON x.organization_id = $org AND x.question_bank_id = a.question_bank_id AND x.deleted_at IS NULL
   WHERE a.organization_id = $org AND a.quiz_id = $1`;

/**
 * Graded quiz attempts (CONVENTIONS §12, beyond the published API; docs/decisions/quizzes.md
 * "Graded attempts"). A submission is checked whole before anything is written (400 otherwise,
 * no attempt counted), then, in one transaction under the learner's progress lock: the quiz
 * lesson's progress (made when first needed), the attempt number (max_attempts; the unique
 * (lesson progress, attempt number) is the backstop), the attempt row, the score on the lesson
 * progress through ProgressService.writeLessonIn (completion, course completion, certificate and
 * their events follow from it) and QUIZ_COMPLETION in the outbox. A fixed number of statements
 * whatever the number of questions.
 */
@Injectable()
export class AttemptsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly quizzes: QuizzesService,
    private readonly progress: ProgressService,
  ) {}

  private async quizOf(p: Principal, publicId: string): Promise<QuizRow> {
    const id = decodeId('quiz', publicId);
    const quiz = id ? (await this.quizzes.quizzesById(p.organizationId, [id])).get(id) : undefined;
    if (!quiz) throw notFound('Quiz not found.');
    return quiz;
  }

  async submit(p: Principal, quizPublicId: string, body: AttemptRequest): Promise<SubmittedAttempt> {
    const org = p.organizationId;
    const db = scoped(this.ds, org);
    const quiz = await this.quizOf(p, quizPublicId);

    // the learner, the published course and the quiz lesson in it (body references: 400 at the member)
    const userId = decodeId('student', body.user.id);
    const pcId = decodeId('publishedCourse', body.published_course_id);
    const [ref] = await db.query<AttemptReference[]>(
      `SELECT u.id AS user_id, u.email, u.first_name, u.last_name, u.is_anonymized, (u.id IS NOT NULL AND ${REGISTERED('u')}) AS registered,
              pc.id AS pc_id, pc.course_id, pc.slug, c.title AS course_title, d.id AS domain_id, d.name AS domain_name,
              (SELECT l.id FROM lessons l
                WHERE l.organization_id = $org AND l.quiz_id = $3 AND l.course_id = pc.course_id AND ${liveLesson('l')}
                ORDER BY l."order", l.id LIMIT 1) AS lesson_id,
              EXISTS (SELECT 1 FROM enrollments e
                       WHERE e.organization_id = $org AND e.published_course_id = pc.id AND e.user_id = u.id
                         AND e.active AND (e.expires_at IS NULL OR e.expires_at > now())) AS enrolled
         FROM (SELECT 1) one
         LEFT JOIN users u ON u.id = $1 AND u.organization_id = $org
         LEFT JOIN published_courses pc ON pc.id = $2 AND pc.organization_id = $org AND pc.unpublished_at IS NULL
         LEFT JOIN courses c ON c.id = pc.course_id AND c.organization_id = $org
         LEFT JOIN domains d ON d.id = pc.domain_id AND d.organization_id = $org`,
      [userId, pcId, quiz.id],
    );
    const refProblems: FieldProblem[] = [];
    if (!ref.user_id || !ref.registered) refProblems.push({ field: 'user', message: `Invalid pk "${body.user.id.slice(0, 64)}" - object does not exist.` });
    else if (ref.is_anonymized) refProblems.push({ field: 'user', message: 'The user is anonymized and cannot attempt a quiz.' });
    if (!ref.pc_id) refProblems.push({ field: 'published_course_id', message: `Invalid pk "${body.published_course_id.slice(0, 64)}" - object does not exist.` });
    else if (!ref.lesson_id) refProblems.push({ field: 'published_course_id', message: 'This published course has no lesson with this quiz.' });
    if (!refProblems.length && !ref.enrolled) refProblems.push({ field: 'user', message: 'The user has no active enrollment in this published course.' });
    if (refProblems.length) throw new ValidationFailed(refProblems, 400);
    // past the checks above, every part of the reference is known
    const known = ref as KnownReference;

    // the answers against the questions the quiz can ask, and the draw
    const poolRows: PoolQuestion[] = await db.query(POOL, [quiz.id]);
    const pool = new Map(poolRows.map((q) => [q.id, q]));
    const parsed = parseResponses(pool, body.answers);
    if (parsed.problems.length) throw new ValidationFailed(parsed.problems, 400);
    const drawn = draw(poolRows, quiz.limit_question_count, new Set(parsed.responses.map((r) => r.question_id)));
    if (drawn.problems.length) throw new ValidationFailed(drawn.problems, 400);
    const g = grade(drawn.drawn, parsed.responses, quiz.passing_percentage_correct);

    const attempt = await this.ds
      .transaction(async (m) => {
        const tx = db.with(m);
        await lockUsers(m, [known.user_id]);
        let cp: { id: string; user_id: string; course_id: string };
        try {
          cp = await this.progress.courseProgressOf(m, p, body.user.id, body.published_course_id);
        } catch (e) {
          if (e instanceof ApiError && e.status === 404) throw new ValidationFailed([{ field: 'user', message: 'The user has no active enrollment in this published course.' }], 400);
          throw e;
        }
        await this.progress.materializeLessons(m, org, cp, known.lesson_id);
        // the quiz lesson's progress and its attempts so far (the last number, the best graded one)
        const [lp] = await tx.query<{ id: string; last: number; best: number | null }[]>(
          `SELECT lp.id,
                  COALESCE((SELECT max(t.attempt_number) FROM quiz_attempts t WHERE t.organization_id = $org AND t.lesson_progress_id = lp.id), 0)::int AS last,
                  (SELECT max(CASE WHEN t.status = 'GRADED' THEN t.passed::int * 1000 + t.percentage_correct END) FROM quiz_attempts t
                    WHERE t.organization_id = $org AND t.lesson_progress_id = lp.id)::int AS best
             FROM lesson_progress lp WHERE lp.organization_id = $org AND lp.course_progress_id = $1 AND lp.lesson_id = $2`,
          [cp.id, known.lesson_id],
        );
        const prev = lp;
        const number = prev.last + 1;
        if (quiz.max_attempts > 0 && number > quiz.max_attempts) {
          throw badRequest(`The maximum number of attempts (${quiz.max_attempts}) at this quiz has been reached.`);
        }
        const [row]: AttemptRow[] = await tx.query(
          `INSERT INTO quiz_attempts (id, organization_id, quiz_id, user_id, lesson_id, lesson_progress_id, published_course_id, attempt_number, status,
                                      questions, responses, score, max_score, percentage_correct, passed, submitted_at)
           VALUES ($1, $org, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11, $12, $13, $14, date_trunc('milliseconds', now()))
           RETURNING ${ATTEMPT_SELECT.replace(/\bt\./g, '')}`,
          [
            newUuid(),
            quiz.id,
            known.user_id,
            known.lesson_id,
            lp.id,
            known.pc_id,
            number,
            g.status,
            JSON.stringify(g.results),
            JSON.stringify(parsed.responses),
            g.score,
            g.max_score,
            g.percentage_correct,
            g.passed,
          ],
        );
        // the lesson progress keeps the best graded attempt (passed first, then the percentage)
        const key = g.passed === null ? null : Number(g.passed) * 1000 + g.percentage_correct;
        const patch: LessonPatch = {};
        if (key !== null && (prev.best === null || key > prev.best)) {
          Object.assign(patch, { score: g.score, max_score: g.max_score, success_status: g.passed ? 'PASSED' : 'FAILED' });
          if (g.passed) patch.finished_at = row.submitted_at;
        }
        await this.progress.writeLessonIn(m, org, { id: lp.id, user_id: known.user_id }, patch, false);
        if (g.status === 'GRADED') await recordEvents(m, [this.completionEvent(org, quiz, known, g, row)]);
        return row;
      })
      .catch((e) => {
        // two submissions of one learner are serialized by the progress lock; the constraint is the backstop
        if (isUniqueViolation(e, 'quiz_attempts_number_uq')) throw badRequest('Another attempt at this quiz was recorded at the same time; try again.');
        throw e;
      });
    const feedback = new Map(drawn.drawn.map((q) => [q.id, g.results.find((r) => r.id === q.id)?.correct ? q.correct_answer_feedback_html : q.incorrect_answer_feedback_html]));
    return { attempt, quiz, feedback };
  }

  /** QUIZ_COMPLETION (webhook-event-samples.md): user, course, domain, the quiz with its score and result, success_status, score, completed_at. */
  private completionEvent(org: string, quiz: QuizRow, ref: KnownReference, g: Grade, row: AttemptRow) {
    return {
      organizationId: org,
      type: 'QUIZ_COMPLETION' as const,
      objects: {
        user: eventUser({ id: ref.user_id, email: ref.email, first_name: ref.first_name, last_name: ref.last_name }),
        course: eventCourse({ course_id: ref.course_id, published_course_id: ref.pc_id, title: ref.course_title, domain_name: ref.domain_name, slug: ref.slug }),
        domain: eventDomain({ id: ref.domain_id, name: ref.domain_name }),
        quiz: { ...eventQuiz(quiz), score: g.percentage_correct, passed: g.passed },
        attempt: { id: encodeId('quizAttempt', row.id), attempt_number: row.attempt_number },
        success_status: g.passed ? ('PASSED' as const) : ('FAILED' as const),
        score: g.percentage_correct,
        completed_at: new Date(row.submitted_at!).toISOString(),
      },
    };
  }

  /** A quiz's attempts, oldest first, optionally of one learner (an id that names no learner matches nothing). */
  /**
   * A quiz's attempts, oldest first. `updatedSince` keeps those submitted at or after it: an attempt
   * is written once, so its `created_at` is its last change and the order stays (created_at, id), on
   * quiz_attempts_quiz_created_idx (docs/decisions/data-out.md).
   */
  async list(p: Principal, quizPublicId: string, userPublicId: string | undefined, page: V1PageRequest, updatedSince?: Date): Promise<{ quiz: QuizRow; rows: AttemptRow[]; count: number }> {
    const quiz = await this.quizOf(p, quizPublicId);
    const db = scoped(this.ds, p.organizationId);
    const userId = userPublicId === undefined ? null : decodeId('student', userPublicId);
    if (userPublicId !== undefined && !userId) return { quiz, rows: [], count: 0 };
    const params: unknown[] = [quiz.id, userId];
    const since = updatedSince === undefined ? '' : ` AND t.created_at >= $${params.push(updatedSince)}`;
    const where = `WHERE t.organization_id = $org AND t.quiz_id = $1 AND ($2::uuid IS NULL OR t.user_id = $2)${since}`;
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM quiz_attempts t ${where}`, params);
    const rows = await db.query<AttemptRow[]>(`SELECT ${ATTEMPT_SELECT} FROM quiz_attempts t ${where} ORDER BY t.created_at, t.id LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
    return { quiz, rows, count: n };
  }
}
