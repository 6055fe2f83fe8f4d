import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { poolRead, poolRowOr404, TEXT_TIMESTAMPS, type Timestamp } from '../../core/database/pool-reads';
import { scoped, SqlRunner } from '../../core/database/scoped';
import type { PageRequest } from '../../core/pagination/cursor-page';
import type { CertificateView } from '../certificates';
import { DERIVED } from '../../core/database/fragments';
import { Student, STUDENT_COLUMNS, studentFromRow } from '../students/student.entity';
import { liveLesson } from '../../core/database/fragments';

export type ProgressStatus = 'completed' | 'in_progress' | 'not_started';
export const PROGRESS_STATUSES: ProgressStatus[] = ['completed', 'in_progress', 'not_started'];

/** One enrollment as GET /v2/enrollments/ shows it (its progress and certificate read by join; the reads keep timestamps as pg's text). */
export interface EnrollmentV2Row {
  id: string;
  createdAt: Timestamp;
  /** last change of the enrollment row (the keyset of filter[updated_since]) */
  updatedAt?: Timestamp;
  userId: string;
  publishedCourseId: string;
  courseId: string;
  enrolledAt: Timestamp;
  expiresAt: Timestamp | null;
  dueAt: Timestamp | null;
  /** the stored flag and not expired (the published "currently active") */
  isActive: boolean;
  startedAt: Timestamp | null;
  completedAt: Timestamp | null;
  domainName: string;
  score: number | null;
  maxScore: number | null;
  /** the course progress's PASSED / FAILED, or null */
  successStatus: string | null;
  /** the course has graded content (a required quiz or exam lesson) */
  graded: boolean;
  certificateId: string | null;
  rating: number | null;
  ratingScale: number | null;
  feedback: string | null;
}

export interface EnrollmentFilters {
  /** filter[updated_since]: changed at or after, ordered by last change (index (organization_id, updated_at, id)) */
  updatedSince?: Date;
  studentUuid?: string;
  /** lowercase */
  studentEmail?: string;
  courseUuid?: string;
  enrolledGte?: Date;
  enrolledLte?: Date;
  completedGte?: Date;
  completedLte?: Date;
  progress?: ProgressStatus[];
  /** lowercase domain names */
  domains?: string[];
  active?: boolean;
}

/**
 * The read of an enrollment: its published course's domain, its course progress (the enrollment's
 * own when progress is kept per enrollment, else the user's shared one, as the progress module
 * finds it) with the score and success status derived from its graded lessons where none was set
 * directly (DERIVED, the progress rule in core/database/fragments.ts), the latest certificate linked to it
 * and its latest rating. Index probes per enrollment of the page, never a statement per row. The
 * columns are named as EnrollmentV2Row's members: the pg row is the EnrollmentV2Row (no copy).
 */
const ACTIVE = `(e.active AND (e.expires_at IS NULL OR e.expires_at > now()))`;
const SELECT = `SELECT e.id, e.created_at AS "createdAt", e.updated_at AS "updatedAt", e.user_id AS "userId", e.published_course_id AS "publishedCourseId", e.course_id AS "courseId",
       e.enrolled_at AS "enrolledAt", e.expires_at AS "expiresAt", e.due_at AS "dueAt",
       ${ACTIVE} AS "isActive", e.started_at AS "startedAt", e.completed_at AS "completedAt", d.name AS "domainName",
       COALESCE(cp.score, der.score) AS score, COALESCE(cp.max_score, der.max_score) AS "maxScore",
       COALESCE(cp.success_status, der.success_status) AS "successStatus",
       EXISTS (SELECT 1 FROM lessons l
                WHERE l.organization_id = e.organization_id AND l.course_id = e.course_id AND ${liveLesson('l')}
                  AND NOT l.optional AND l.type IN ('QUIZ', 'IE_EXAM')) AS graded,
       cert.id AS "certificateId", r.rating, r.scale_max AS "ratingScale", r.feedback
  FROM enrollments e
  JOIN published_courses pc ON pc.id = e.published_course_id AND pc.organization_id = e.organization_id
  JOIN domains d ON d.id = pc.domain_id AND d.organization_id = e.organization_id
  LEFT JOIN LATERAL (
    SELECT cp.id, cp.organization_id, cp.score, cp.max_score, cp.success_status FROM course_progress cp
     WHERE cp.organization_id = e.organization_id AND cp.user_id = e.user_id AND cp.published_course_id = e.published_course_id
       AND (cp.enrollment_id = e.id OR cp.enrollment_id IS NULL)
     ORDER BY (cp.enrollment_id IS NULL) LIMIT 1) cp ON true
  ${DERIVED}
  LEFT JOIN LATERAL (
    SELECT c.id FROM certificates c WHERE c.organization_id = e.organization_id AND c.enrollment_id = e.id
     ORDER BY c.issued_at DESC, c.id DESC LIMIT 1) cert ON true
  LEFT JOIN LATERAL (
    SELECT cr.rating, cr.scale_max, cr.feedback FROM course_ratings cr WHERE cr.organization_id = e.organization_id AND cr.enrollment_id = e.id
     ORDER BY cr.created_at DESC, cr.id DESC LIMIT 1) r ON true`;

/** One enrollment by uuid (a named statement). */
const GET = { name: 'enrollments_v2_get', sql: `${SELECT} WHERE e.organization_id = $org AND e.id = $1`, types: TEXT_TIMESTAMPS };

/** Where each progress state is, on the enrollment's own copy of its progress (kept by the progress module). */
const PROGRESS_SQL: Record<ProgressStatus, string> = {
  completed: `e.completed_at IS NOT NULL`,
  in_progress: `(e.completed_at IS NULL AND e.started_at IS NOT NULL)`,
  not_started: `(e.completed_at IS NULL AND e.started_at IS NULL)`,
};

/**
 * GET /v2/enrollments/ and GET /v2/enrollments/{id}: the organization's enrollments, active and
 * inactive, in keyset order (created_at, id). Every statement binds the organization through
 * scoped(); each filter has an index leading with organization_id (migration 1763700016200).
 */
@Injectable()
export class EnrollmentsV2Service {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async list(p: Principal, page: PageRequest, f: EnrollmentFilters): Promise<EnrollmentV2Row[]> {
    const where: string[] = ['e.organization_id = $org'];
    const params: unknown[] = [];
    const bind = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    if (f.studentUuid !== undefined) where.push(`e.user_id = ${bind(f.studentUuid)}`);
    if (f.studentEmail !== undefined) where.push(`e.user_id IN (SELECT u.id FROM users u WHERE u.organization_id = $org AND lower(u.email) = ${bind(f.studentEmail)})`);
    if (f.courseUuid !== undefined) where.push(`e.course_id = ${bind(f.courseUuid)}`);
    if (f.enrolledGte) where.push(`e.enrolled_at >= ${bind(f.enrolledGte)}`);
    if (f.enrolledLte) where.push(`e.enrolled_at <= ${bind(f.enrolledLte)}`);
    if (f.completedGte) where.push(`e.completed_at >= ${bind(f.completedGte)}`);
    if (f.completedLte) where.push(`e.completed_at <= ${bind(f.completedLte)}`);
    if (f.progress && f.progress.length < PROGRESS_STATUSES.length) where.push(`(${f.progress.map((s) => PROGRESS_SQL[s]).join(' OR ')})`);
    if (f.domains) {
      where.push(`e.published_course_id IN (
        SELECT pcd.id FROM published_courses pcd JOIN domains dd ON dd.id = pcd.domain_id AND dd.organization_id = pcd.organization_id
         WHERE pcd.organization_id = $org AND lower(dd.name) = ANY(${bind(f.domains)}::text[]))`);
    }
    if (f.active !== undefined) where.push(f.active ? ACTIVE : `NOT ${ACTIVE}`);
    if (f.updatedSince) {
      where.push(`e.updated_at >= ${bind(f.updatedSince)}`);
      if (page.after) where.push(`(e.updated_at, e.id) > (${bind(page.after.t)}::timestamptz, ${bind(page.after.id)}::uuid)`);
      const sql = `${SELECT} WHERE ${where.join(' AND ')} ORDER BY e.updated_at, e.id LIMIT ${bind(page.size + 1)}`;
      return poolRead(this.ds, p.organizationId, { sql, types: TEXT_TIMESTAMPS }, params);
    }
    // the unfiltered pages are two fixed texts: named statements
    const name = where.length === 1 ? (page.after ? 'enrollments_v2_list_after' : 'enrollments_v2_list') : undefined;
    if (page.after) where.push(`(e.created_at, e.id) > (${bind(page.after.t)}::timestamptz, ${bind(page.after.id)}::uuid)`);
    const sql = `${SELECT} WHERE ${where.join(' AND ')} ORDER BY e.created_at, e.id LIMIT ${bind(page.size + 1)}`;
    return poolRead(this.ds, p.organizationId, { sql, name, types: TEXT_TIMESTAMPS }, params);
  }

  /** One enrollment of the organization, or 404 (undecodable, unknown or another organization's id alike). */
  get(p: Principal, publicId: string): Promise<EnrollmentV2Row> {
    return poolRowOr404(this.ds, p.organizationId, 'enrollment', publicId, GET, 'Enrollment not found.');
  }

  /** Enrollments of the organization by uuid (any order). One statement. */
  async byIds(organizationId: string, ids: string[], m: SqlRunner = this.ds): Promise<EnrollmentV2Row[]> {
    if (!ids.length) return [];
    return scoped(m, organizationId).query(`${SELECT} WHERE e.organization_id = $org AND e.id = ANY($1::uuid[])`, [ids]);
  }

  /** The students of a page, for `include=student` (users is the students module's table: a read). One statement. */
  async students(organizationId: string, userIds: string[]): Promise<Student[]> {
    if (!userIds.length) return [];
    const rows = await scoped(this.ds, organizationId).query<Record<string, unknown>[]>(
      `SELECT ${STUDENT_COLUMNS} FROM users WHERE organization_id = $org AND id = ANY($1::uuid[]) ORDER BY created_at, id`,
      [[...new Set(userIds)]],
    );
    return rows.map(studentFromRow);
  }

  /** The certificates of a page, for `include=certificate` (the certificates module's table: a read). One statement, the rows as pg answers them. */
  certificates(organizationId: string, ids: string[]): Promise<CertificateView[]> {
    if (!ids.length) return Promise.resolve([]);
    return scoped(this.ds, organizationId).query(
      `SELECT id, user_id AS "userId", course_id AS "courseId", code, issued_at AS "issuedAt", expires_at AS "expiresAt", score_as_percent AS "scoreAsPercent"
         FROM certificates WHERE organization_id = $org AND id = ANY($1::uuid[]) ORDER BY created_at, id`,
      [[...new Set(ids)]],
    );
  }
}
