import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { eventLesson, eventSuccessStatus } from '../../core/events/bodies';
import { learnerCourseObjects } from './learner-objects';
import { PendingEvent, recordEvents } from '../../core/events/outbox';
import { notFound } from '../../core/http/api-error';
import { parseTimestamp } from '../../core/http/v1-rules';
import { decodeId } from '../../core/ids/ids';
import { rowsOf } from '../../core/database/sql';
import { joinSharedProgress, markEnrollmentsStarted } from '../enrollments/enrollment-progress';
import { lockUsers, REGISTERED_USER, setCourseCompletion } from './completion';
import { LessonPatch, nextLessonState } from './lesson-rules';
import { liveLesson } from '../../core/database/fragments';
import { scoped } from '../../core/database/scoped';
import type { LessonProgressRow } from './lesson-progress.store';
import type { CourseProgressRefRow } from './course-progress.store';

export type { LessonProgressRow } from './lesson-progress.store';

/** A lesson progress as a write reads it (locked): the row, its lesson, course progress, learner, course and domain. */
type LessonProgressForWrite = LessonProgressRow & {
  lesson_type: string;
  optional: boolean;
  lesson_title: string;
  lesson_deleted_at: Date | null;
  course_completed_at: Date | null;
  latest_activity: Date | null;
  published_course_id: string;
  course_id: string;
  enrollment_id: string | null;
  email: string;
  first_name: string;
  last_name: string;
  course_title: string;
  slug: string;
  domain_id: string;
  domain_name: string;
};

export interface CourseProgressPatch {
  completed_at?: Date | null;
  score?: number | null;
  max_score?: number | null;
  credits_earned?: string;
  credit_unit_plural?: string;
  success_status?: string | null;
}

/** What a lesson-progress write is addressed by. */
export type LessonTarget = { id: string } | { token: string } | { userId: string; publishedCourseId: string; lessonId: string };

/**
 * Learners' progress (CONVENTIONS §10, docs/decisions/progress.md): course progress made with each
 * enrollment, lesson progress and its token, the lesson state table, course completion and what
 * follows it (completion.ts). Every write runs under the user's progress lock, in one transaction
 * with its events.
 */
@Injectable()
export class ProgressService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * The course progress of new (or reactivated) enrollments, in the enrolling transaction: a row
   * per enrollment when the published course keeps progress per enrollment, else the user's shared
   * row, made when missing. An enrollment that joins an existing shared progress takes its state
   * (docs/decisions/progress.md "Storage"): `completed_at` is the progress's completion, and
   * `started_at` the start of the user's other enrollments there or, when none recorded one, the
   * earliest instant the progress shows activity (its latest activity or completion). Two
   * statements whatever the number of enrollments.
   */
  async ensureCourseProgress(m: EntityManager, organizationId: string, rows: { enrollmentId: string; userId: string; publishedCourseId: string; courseId: string }[]): Promise<void> {
    if (!rows.length) return;
    await scoped(m, organizationId).query(
      `INSERT INTO course_progress (organization_id, user_id, published_course_id, course_id, enrollment_id)
       SELECT $org, v.user_id, v.pc_id, v.course_id, CASE WHEN pc.unique_progress_per_enrollment THEN v.enrollment_id END
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[]) AS v(enrollment_id, user_id, pc_id, course_id)
         JOIN published_courses pc ON pc.id = v.pc_id AND pc.organization_id = $org
       ON CONFLICT DO NOTHING`,
      [rows.map((r) => r.enrollmentId), rows.map((r) => r.userId), rows.map((r) => r.publishedCourseId), rows.map((r) => r.courseId)],
    );
    await joinSharedProgress(
      m,
      organizationId,
      rows.map((r) => r.enrollmentId),
    );
  }

  /**
   * PATCH /v2/enrollments/completion: on the course progress covering each enrollment, sets the
   * direct `success_status` (`PASSED` / `FAILED`; null clears it, the derived status shows again)
   * and then sets (a date) or removes (null) the completion; `undefined` leaves either unchanged.
   * The status is written first, so the COURSE_COMPLETION event and the certificate of the same item
   * carry it. A fixed number of statements for any batch; within a batch the last item of a course
   * progress wins. Unknown enrollments are skipped (the caller reports them). Returns the
   * enrollment ids found.
   */
  async setCourseCompletions(m: EntityManager, organizationId: string, items: { enrollmentId: string; completedAt?: Date | null; successStatus?: 'PASSED' | 'FAILED' | null }[]): Promise<Set<string>> {
    if (!items.length) return new Set();
    const found: { enrollment_id: string; cp_id: string; user_id: string }[] = await scoped(m, organizationId).query(
      `SELECT DISTINCT ON (e.id) e.id AS enrollment_id, cp.id AS cp_id, cp.user_id
         FROM unnest($1::uuid[]) AS v(id)
         JOIN enrollments e ON e.id = v.id AND e.organization_id = $org
         JOIN course_progress cp ON cp.organization_id = $org AND cp.user_id = e.user_id AND cp.published_course_id = e.published_course_id
                                AND (cp.enrollment_id = e.id OR cp.enrollment_id IS NULL)
        ORDER BY e.id, (cp.enrollment_id IS NULL)`,
      [items.map((i) => i.enrollmentId)],
    );
    const cpOf = new Map(found.map((f) => [f.enrollment_id, f.cp_id]));
    await lockUsers(
      m,
      found.map((f) => f.user_id),
    );
    const known = items.filter((i) => cpOf.has(i.enrollmentId));
    const statuses = new Map<string, string | null>();
    for (const i of known) if (i.successStatus !== undefined) statuses.set(cpOf.get(i.enrollmentId) as string, i.successStatus);
    if (statuses.size) {
      await scoped(m, organizationId).query(
        `UPDATE course_progress cp SET success_status = v.s, updated_at = date_trunc('milliseconds', now())
           FROM unnest($1::uuid[], $2::text[]) AS v(id, s)
          WHERE cp.id = v.id AND cp.organization_id = $org AND cp.success_status IS DISTINCT FROM v.s`,
        [[...statuses.keys()], [...statuses.values()]],
      );
    }
    const events = await setCourseCompletion(
      m,
      organizationId,
      known.filter((i) => i.completedAt !== undefined).map((i) => ({ courseProgressId: cpOf.get(i.enrollmentId) as string, completedAt: i.completedAt as Date | null })),
    );
    await recordEvents(m, events);
    return new Set(cpOf.keys());
  }

  /**
   * The course progress of a user in a published course: the shared one, or the one of the user's
   * latest enrollment when progress is kept per enrollment. 404 when the user is not enrolled or is
   * no /v1 user (registered on no domain of the organization).
   */
  async courseProgressOf(m: EntityManager, p: Principal, userPublicId: string, publishedCoursePublicId: string): Promise<{ id: string; user_id: string; course_id: string }> {
    const userId = decodeId('student', userPublicId);
    const pcId = decodeId('publishedCourse', publishedCoursePublicId);
    const [row] =
      userId && pcId
        ? await scoped(m, p.organizationId).query<CourseProgressRefRow[]>(
            `SELECT cp.id, cp.user_id, cp.course_id FROM course_progress cp
               LEFT JOIN enrollments e ON e.id = cp.enrollment_id AND e.organization_id = $org
              WHERE cp.organization_id = $org AND cp.user_id = $1 AND cp.published_course_id = $2 AND ${REGISTERED_USER}
              ORDER BY COALESCE(e.enrolled_at, cp.created_at) DESC, cp.id LIMIT 1`,
            [userId, pcId],
          )
        : [];
    if (!row) throw notFound();
    return row;
  }

  /**
   * The lesson progress rows of a course progress, made for every live lesson that has none yet
   * (docs/decisions/progress.md: made when first needed; one statement). `lessonId` narrows to one.
   */
  async materializeLessons(m: EntityManager, organizationId: string, cp: { id: string; user_id: string; course_id: string }, lessonId?: string): Promise<void> {
    await scoped(m, organizationId).query(
      `INSERT INTO lesson_progress (organization_id, course_progress_id, user_id, lesson_id)
       SELECT $org, $1, $2, l.id FROM lessons l
        WHERE l.organization_id = $org AND l.course_id = $3 AND ${liveLesson('l')} AND ($4::uuid IS NULL OR l.id = $4)
       ON CONFLICT DO NOTHING`,
      [cp.id, cp.user_id, cp.course_id, lessonId ?? null],
    );
  }

  /** The lesson progress a target addresses: its id and user, or 404. */
  private async resolve(p: Principal, t: LessonTarget): Promise<{ id: string; user_id: string }> {
    const org = p.organizationId;
    let rows: { id: string; user_id: string }[] = [];
    if ('id' in t) {
      const id = decodeId('lessonProgress', t.id);
      if (id) rows = await scoped(this.ds, org).query(`SELECT id, user_id FROM lesson_progress WHERE id = $1 AND organization_id = $org`, [id]);
    } else if ('token' in t) {
      const token = decodeId('progressToken', t.token);
      if (token) rows = await scoped(this.ds, org).query(`SELECT id, user_id FROM lesson_progress WHERE progress_token = $1 AND organization_id = $org`, [token]);
    } else {
      const lessonId = decodeId('lesson', t.lessonId);
      if (!lessonId) throw notFound();
      const cp = await this.courseProgressOf(this.ds.manager, p, t.userId, t.publishedCourseId);
      await this.materializeLessons(this.ds.manager, org, cp, lessonId);
      rows = await scoped(this.ds, org).query(`SELECT id, user_id FROM lesson_progress WHERE organization_id = $org AND course_progress_id = $1 AND lesson_id = $2`, [cp.id, lessonId]);
    }
    if (!rows.length) throw notFound();
    return rows[0];
  }

  async readLesson(p: Principal, t: LessonTarget): Promise<LessonProgressRow> {
    const { id } = await this.resolve(p, t);
    const [row] = await scoped(this.ds, p.organizationId).query<LessonProgressRow[]>(`SELECT * FROM lesson_progress WHERE id = $1 AND organization_id = $org`, [id]);
    return row;
  }

  /**
   * A lesson-progress write: the state table (lesson-rules.ts), the course's first activity, and on
   * a move into completion LESSON_COMPLETION and, when every required lesson is then complete, the
   * course completion. `view`: the write is a report from the content (a progress token), which
   * counts as a view.
   */
  async writeLesson(p: Principal, t: LessonTarget, patch: LessonPatch, view: boolean): Promise<LessonProgressRow> {
    const target = await this.resolve(p, t);
    return this.ds.transaction(async (m) => {
      const row = await this.writeLessonIn(m, p.organizationId, target, patch, view);
      if (!view && patch.completed_at && row.completed_at) for (const h of this.completionHooks) await h(m, p.organizationId, target.id);
      return row;
    });
  }

  /**
   * Hooks run when the API (an administrator, not the content) completes a lesson, in its
   * transaction: modules/content-runs waives the cmi5 AUs not yet satisfied
   * (docs/decisions/content-runs.md "waived").
   */
  private readonly completionHooks: ((m: EntityManager, org: string, lessonProgressId: string) => Promise<void>)[] = [];
  onAdministrativeCompletion(hook: (m: EntityManager, org: string, lessonProgressId: string) => Promise<void>): void {
    this.completionHooks.push(hook);
  }

  /**
   * writeLesson inside the caller's transaction, on a lesson progress the caller found (id and
   * user): for a module whose own rows must commit with the progress they change (a graded quiz
   * attempt records its score: modules/quizzes/attempts.service.ts). Takes the user's progress lock
   * (re-entrant: the caller may hold it already) and records the events with the same manager.
   */
  async writeLessonIn(m: EntityManager, org: string, target: { id: string; user_id: string }, patch: LessonPatch, view: boolean): Promise<LessonProgressRow> {
    const { id, user_id } = target;
    await lockUsers(m, [user_id]);
    const [cur] = await scoped(m, org).query<LessonProgressForWrite[]>(
      `SELECT lp.*, l.type AS lesson_type, l.optional, l.title AS lesson_title, l.deleted_at AS lesson_deleted_at,
              cp.completed_at AS course_completed_at, cp.latest_activity, cp.published_course_id, cp.course_id, cp.enrollment_id,
              u.email, u.first_name, u.last_name, c.title AS course_title, pc.slug, d.id AS domain_id, d.name AS domain_name
         FROM lesson_progress lp
         JOIN lessons l ON l.id = lp.lesson_id AND l.organization_id = $org
         JOIN course_progress cp ON cp.id = lp.course_progress_id AND cp.organization_id = $org
         JOIN users u ON u.id = lp.user_id AND u.organization_id = $org
         JOIN courses c ON c.id = cp.course_id AND c.organization_id = $org
         JOIN published_courses pc ON pc.id = cp.published_course_id AND pc.organization_id = $org
         JOIN domains d ON d.id = pc.domain_id AND d.organization_id = $org
        WHERE lp.id = $1 AND lp.organization_id = $org FOR UPDATE OF lp, cp`,
      [id],
    );
    const next = nextLessonState(cur, patch, cur.lesson_type, new Date());
    const [row] = rowsOf<LessonProgressRow>(
      await scoped(m, org).query<unknown>(
        `UPDATE lesson_progress SET finished_at = $2, completed_at = $3, success_status = $4, score = $5, max_score = $6, custom_data = $7,
              validation_status = $8, validation_data = $9::jsonb,
              view_count = view_count + $10, last_viewed_on = CASE WHEN $10 > 0 THEN date_trunc('milliseconds', now()) ELSE last_viewed_on END,
              updated_at = date_trunc('milliseconds', now())
        WHERE id = $1 AND organization_id = $org RETURNING *`,
        [
          id,
          next.finished_at,
          next.completed_at,
          next.success_status,
          next.score,
          next.max_score,
          next.custom_data,
          next.validation_status,
          next.validation_data === undefined || next.validation_data === null ? null : JSON.stringify(next.validation_data),
          view ? 1 : 0,
        ],
      ),
    );
    await scoped(m, org).query(
      `UPDATE course_progress SET latest_activity = date_trunc('milliseconds', now()), updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`,
      [cur.course_progress_id],
    );
    if (!cur.latest_activity) await markEnrollmentsStarted(m, org, cur.user_id, cur.published_course_id, cur.enrollment_id);
    const events: PendingEvent[] = [];
    if (!cur.completed_at && next.completed_at && !cur.lesson_deleted_at) {
      events.push({
        organizationId: org,
        type: 'LESSON_COMPLETION',
        objects: {
          ...learnerCourseObjects(cur, cur.course_title),
          lesson: eventLesson({ id: cur.lesson_id, title: cur.lesson_title }),
          success_status: eventSuccessStatus(next.success_status),
          score: next.score,
          completed_at: new Date(next.completed_at).toISOString(),
        },
      });
      if (!cur.course_completed_at && !cur.optional) events.push(...(await this.completeCourseIfDone(m, org, cur.course_progress_id, cur.course_id)));
    }
    await recordEvents(m, events);
    return row;
  }

  /** After a required lesson completed: when every required lesson of the course is complete, the course completes (at the latest of them). */
  private async completeCourseIfDone(m: EntityManager, org: string, courseProgressId: string, courseId: string): Promise<PendingEvent[]> {
    const [agg] = await scoped(m, org).query<{ required: number; done: number; at: Date | null }[]>(
      `SELECT count(*)::int AS required, count(lp.completed_at)::int AS done, max(lp.completed_at) AS at
         FROM lessons l
         LEFT JOIN lesson_progress lp ON lp.lesson_id = l.id AND lp.course_progress_id = $1 AND lp.organization_id = $org
        WHERE l.organization_id = $org AND l.course_id = $2 AND ${liveLesson('l')} AND NOT l.optional`,
      [courseProgressId, courseId],
    );
    if (agg.required === 0 || agg.done < agg.required) return [];
    return setCourseCompletion(m, org, [{ courseProgressId, completedAt: agg.at }]);
  }

  /** PUT/PATCH of a user's course progress: the direct members, then completion set or removed. */
  async writeCourse(p: Principal, userPublicId: string, publishedCoursePublicId: string, body: Record<string, unknown>): Promise<void> {
    const org = p.organizationId;
    const completedAt = parseTimestamp('completed_at', body.completed_at, true);
    const cp = await this.courseProgressOf(this.ds.manager, p, userPublicId, publishedCoursePublicId);
    await this.ds.transaction(async (m) => {
      await lockUsers(m, [cp.user_id]);
      const sets: string[] = [];
      const params: unknown[] = [cp.id];
      for (const k of ['score', 'max_score', 'credits_earned', 'credit_unit_plural', 'success_status'] as const) {
        if (body[k] === undefined) continue;
        params.push(body[k]);
        sets.push(`${k} = $${params.length}`);
      }
      if (sets.length) {
        await scoped(m, org).query(`UPDATE course_progress SET ${sets.join(', ')}, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`, params);
      }
      if (completedAt !== undefined) await recordEvents(m, await setCourseCompletion(m, org, [{ courseProgressId: cp.id, completedAt }]));
    });
  }
}
