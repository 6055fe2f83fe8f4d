import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { poolRead, PoolRead, TEXT_TIMESTAMPS } from '../../core/database/pool-reads';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import { v1SinceSql } from '../../core/pagination/updated-since';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { DERIVED } from '../../core/database/fragments';
import { REGISTERED_USER } from './completion';
import { ProgressService } from './progress.service';
import { liveLesson } from '../../core/database/fragments';
import { scoped } from '../../core/database/scoped';
import type { ProgressTokenRow } from './lesson-progress.store';

/**
 * One row per published course a user is enrolled in (UserPublishedCourseProgress): the latest
 * enrollment, its course progress (the shared one or the enrollment's own), lesson counts, the
 * derived status and score, the latest certificate and every enrollment. One statement per page,
 * whatever the number of lessons or enrollments.
 */
/**
 * The published courses of learner $1 whose learner rows changed at or after $2 (`updated_since`),
 * with their last change: the latest `updated_at` of the learner's enrollments of the course and of
 * its course progress (a lesson's progress, a completion and a certificate move the course progress).
 * Read on enrollments_org_user_updated_idx and course_progress_org_user_updated_idx; only courses the
 * learner is enrolled in.
 */
const CHANGED_COURSES = `
  SELECT c.published_course_id, max(c.at) AS changed_at FROM (
      SELECT e.published_course_id, e.updated_at AS at FROM enrollments e WHERE e.organization_id = $org AND e.user_id = $1 AND e.updated_at >= $2
      UNION ALL
      SELECT cp.published_course_id, cp.updated_at FROM course_progress cp WHERE cp.organization_id = $org AND cp.user_id = $1 AND cp.updated_at >= $2) c
   WHERE EXISTS (SELECT 1 FROM enrollments e WHERE e.organization_id = $org AND e.user_id = $1 AND e.published_course_id = c.published_course_id)
   GROUP BY c.published_course_id`;

/** The list's courses in enrollment order (`x.pos`: the first enrollment), or, with `updated_since`, by last change. */
const BY_ENROLLMENT = (pcFilter: string, paging: string) => `
  (SELECT e.published_course_id, min(e.enrolled_at) AS pos FROM enrollments e
    WHERE e.organization_id = $org AND e.user_id = $1 ${pcFilter} AND ${REGISTERED_USER}
    GROUP BY e.published_course_id ORDER BY pos, e.published_course_id ${paging}) x`;
const BY_CHANGE = (paging: string) => `
  (SELECT k.published_course_id, k.changed_at AS pos FROM (${CHANGED_COURSES}) k
    WHERE ${REGISTERED_USER} ORDER BY k.changed_at, k.published_course_id ${paging}) x`;

const USER_COURSES = (pcFilter: string, paging: string, courses = BY_ENROLLMENT(pcFilter, paging)) => `
  SELECT pc.id AS published_course_id, d.name AS domain_name, c.id AS course_id, c.title,
         le.id AS enrollment_id, le.enrolled_at,
         cp.id AS cp_id, cp.completed_at, cp.latest_activity, cp.credits_earned, cp.credit_unit_plural,
         COALESCE(cp.score, der.score) AS score, COALESCE(cp.max_score, der.max_score) AS max_score,
         COALESCE(cp.success_status, der.success_status) AS success_status,
         lc.lesson_count, lc.required_lesson_count, lc.completed_lesson_count, lc.completed_required_lesson_count,
         cert.code AS cert_code, cert.issued_at AS cert_issued_at, cert.expires_at AS cert_expires_at,
         ae.all_enrollments
    FROM ${courses}
    JOIN published_courses pc ON pc.id = x.published_course_id AND pc.organization_id = $org
    JOIN courses c ON c.id = pc.course_id AND c.organization_id = $org
    JOIN domains d ON d.id = pc.domain_id AND d.organization_id = $org
    JOIN LATERAL (SELECT e.id, e.enrolled_at FROM enrollments e
                   WHERE e.organization_id = $org AND e.user_id = $1 AND e.published_course_id = x.published_course_id
                   ORDER BY e.enrolled_at DESC, e.id DESC LIMIT 1) le ON true
    JOIN LATERAL (SELECT cp.* FROM course_progress cp
                   WHERE cp.organization_id = $org AND cp.user_id = $1 AND cp.published_course_id = x.published_course_id
                     AND (cp.enrollment_id = le.id OR cp.enrollment_id IS NULL)
                   ORDER BY (cp.enrollment_id IS NULL) LIMIT 1) cp ON true
    LEFT JOIN LATERAL (
      SELECT count(*)::int AS lesson_count, count(*) FILTER (WHERE NOT l.optional)::int AS required_lesson_count,
             count(lp.completed_at)::int AS completed_lesson_count,
             count(lp.completed_at) FILTER (WHERE NOT l.optional)::int AS completed_required_lesson_count
        FROM lessons l
        LEFT JOIN lesson_progress lp ON lp.lesson_id = l.id AND lp.course_progress_id = cp.id AND lp.organization_id = $org
       WHERE l.organization_id = $org AND l.course_id = c.id AND ${liveLesson('l')}) lc ON true
    ${DERIVED}
    LEFT JOIN LATERAL (SELECT ce.code, ce.issued_at, ce.expires_at FROM certificates ce
                        WHERE ce.organization_id = $org AND ce.course_progress_id = cp.id ORDER BY ce.issued_at DESC, ce.id DESC LIMIT 1) cert ON true
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_object('enrollment_id', e.id, 'active', e.active, 'expires_at', e.expires_at,
                        'course_progress_id', COALESCE(ep.id, cp.id)) ORDER BY e.enrolled_at, e.id) AS all_enrollments
        FROM enrollments e
        LEFT JOIN course_progress ep ON ep.organization_id = $org AND ep.enrollment_id = e.id
       WHERE e.organization_id = $org AND e.user_id = $1 AND e.published_course_id = x.published_course_id) ae ON true
   ORDER BY x.pos, x.published_course_id`;

export interface UserCourseRow {
  published_course_id: string;
  domain_name: string;
  course_id: string;
  title: string;
  enrollment_id: string;
  enrolled_at: Date;
  cp_id: string;
  completed_at: Date | null;
  latest_activity: Date | null;
  credits_earned: string;
  credit_unit_plural: string;
  score: number | null;
  max_score: number | null;
  success_status: string | null;
  lesson_count: number;
  required_lesson_count: number;
  completed_lesson_count: number;
  completed_required_lesson_count: number;
  cert_code: string | null;
  cert_issued_at: Date | null;
  cert_expires_at: Date | null;
  all_enrollments: { enrollment_id: string; active: boolean; expires_at: string | null; course_progress_id: string }[];
}

/** A list row (USER_COURSES_PAGE): a UserCourseRow whose timestamps are pg's text (TEXT_TIMESTAMPS). */
export type UserCourseListRow = Omit<UserCourseRow, 'enrolled_at' | 'completed_at' | 'latest_activity' | 'cert_issued_at' | 'cert_expires_at'> & {
  enrolled_at: string;
  completed_at: string | null;
  latest_activity: string | null;
  cert_issued_at: string | null;
  cert_expires_at: string | null;
};

/**
 * The /v1 list of a user's published courses (issue 16): its two statements sent to the pg pool
 * (poolRead: no QueryRunner per statement), the page bounds as parameters, the timestamps kept as
 * pg's text. The count is named (planned once per pooled connection); the page is not: after a few
 * executions PostgreSQL may settle a prepared statement on a generic plan, and this one's, made
 * without the user, ran at a third of the per-user plan's speed once the organization had a
 * thousand other learners' progress (bench/progress.js after its completion scenario).
 */
const USER_COURSES_COUNT: PoolRead = {
  name: 'user_courses_v1_count',
  sql: `SELECT count(DISTINCT published_course_id)::int AS n, ${REGISTERED_USER} AS known
          FROM enrollments WHERE organization_id = $org AND user_id = $1`,
};
const USER_COURSES_PAGE: PoolRead = { sql: USER_COURSES('', 'LIMIT $2 OFFSET $3'), types: TEXT_TIMESTAMPS };
/** The same with `updated_since` ($2): the courses changed since, by last change (CHANGED_COURSES). */
const USER_COURSES_SINCE_COUNT: PoolRead = {
  name: 'user_courses_v1_since_count',
  sql: `SELECT (SELECT count(*)::int FROM (${CHANGED_COURSES}) k) AS n, ${REGISTERED_USER} AS known`,
};
const USER_COURSES_SINCE_PAGE: PoolRead = { sql: USER_COURSES('', '', BY_CHANGE('LIMIT $3 OFFSET $4')), types: TEXT_TIMESTAMPS };

export interface UserLessonRow {
  lesson_id: string;
  lesson_title: string;
  id: string;
  view_count: number;
  last_viewed_on: Date | null;
  completed_at: Date | null;
  success_status: string | null;
  score: number | null;
  max_score: number | null;
  custom_data: string | null;
}

/** The reads of a learner's progress (/v1 users' published courses and lessons, progress tokens). */
@Injectable()
export class ProgressReads {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly progress: ProgressService,
  ) {}

  private userOf(p: Principal, publicId: string): string {
    const id = decodeId('student', publicId);
    if (!id) throw notFound();
    return id;
  }

  /**
   * A window of the user's published courses (a bare array, CONVENTIONS §16): none past the end, and
   * then no page statement. With `updatedSince` the courses whose learner rows changed at or after it,
   * by last change (CHANGED_COURSES).
   */
  async userCourses(p: Principal, userPublicId: string, page: V1PageRequest, updatedSince?: Date): Promise<UserCourseListRow[]> {
    const userId = this.userOf(p, userPublicId);
    const since = updatedSince === undefined ? [] : [updatedSince];
    const [c] = await poolRead(this.ds, p.organizationId, since.length ? USER_COURSES_SINCE_COUNT : USER_COURSES_COUNT, [userId, ...since]);
    if (!c.known) throw notFound();
    if (page.offset >= c.n) return [];
    return poolRead(this.ds, p.organizationId, since.length ? USER_COURSES_SINCE_PAGE : USER_COURSES_PAGE, [userId, ...since, page.pageSize, page.offset]);
  }

  async userCourse(p: Principal, userPublicId: string, publishedCoursePublicId: string): Promise<UserCourseRow> {
    const userId = this.userOf(p, userPublicId);
    const pcId = decodeId('publishedCourse', publishedCoursePublicId);
    if (!pcId) throw notFound();
    const [row] = await scoped(this.ds, p.organizationId).query<UserCourseRow[]>(USER_COURSES('AND e.published_course_id = $2', ''), [userId, pcId]);
    if (!row) throw notFound();
    return row;
  }

  /**
   * A learner's lessons of a published course with their progress (made for lessons without one), in
   * course order. With `updatedSince` (/v1 `updated_since`) those whose lesson progress changed at or
   * after it, by last change (lp.updated_at, lp.id) on lesson_progress_cp_updated_idx.
   */
  async userLessons(
    p: Principal,
    userPublicId: string,
    publishedCoursePublicId: string,
    page: V1PageRequest,
    lessonPublicId?: string,
    updatedSince?: Date,
  ): Promise<{ rows: UserLessonRow[]; count: number }> {
    const lessonId = lessonPublicId === undefined ? null : decodeId('lesson', lessonPublicId);
    if (lessonPublicId !== undefined && !lessonId) throw notFound();
    const cp = await this.progress.courseProgressOf(this.ds.manager, p, userPublicId, publishedCoursePublicId);
    await this.progress.materializeLessons(this.ds.manager, p.organizationId, cp, lessonId ?? undefined);
    const params: unknown[] = [cp.id, lessonId];
    const since = updatedSince === undefined ? '' : ` AND lp.updated_at >= $${params.push(updatedSince)}`;
    const order = updatedSince === undefined ? 'l."order", l.id' : 'lp.updated_at, lp.id';
    const where = `lp.organization_id = $org AND lp.course_progress_id = $1 AND ($2::uuid IS NULL OR lp.lesson_id = $2)${since}`;
    const from = `lesson_progress lp JOIN lessons l ON l.id = lp.lesson_id AND l.organization_id = $org AND ${liveLesson('l')}`;
    const db = scoped(this.ds, p.organizationId);
    const [c] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${from} WHERE ${where}`, params);
    const rows = await db.query<UserLessonRow[]>(
      `SELECT l.id AS lesson_id, l.title AS lesson_title, lp.id, lp.view_count, lp.last_viewed_on, lp.completed_at, lp.success_status,
              lp.score, lp.max_score, lp.custom_data
         FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      params,
    );
    if (lessonPublicId !== undefined && !rows.length) throw notFound();
    return { rows, count: c.n };
  }

  async tokens(p: Principal, page: V1PageRequest): Promise<{ rows: ProgressTokenRow[]; count: number }> {
    const since = v1SinceSql(page, 'updated_at', 1, 'created_at, id');
    const [c] = await scoped(this.ds, p.organizationId).query<{ n: number }[]>(`SELECT count(*)::int AS n FROM lesson_progress WHERE organization_id = $org${since.and}`, since.params);
    const rows = await scoped(this.ds, p.organizationId).query<ProgressTokenRow[]>(
      `SELECT progress_token, completed_at, success_status, score, max_score FROM lesson_progress
        WHERE organization_id = $org${since.and} ORDER BY ${since.order} LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      since.params,
    );
    return { rows, count: c.n };
  }
}
