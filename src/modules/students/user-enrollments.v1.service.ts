import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { scoped } from '../../core/database/scoped';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import { v1SinceSql } from '../../core/pagination/updated-since';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { REGISTERED } from './users.v1.service';

export interface UserPlanEnrollmentRow {
  id: string;
  plan_id: string;
  plan_title: string;
  domain_name: string;
  enrolled_at: Date;
  expires_at: Date | null;
  active: boolean;
}

export interface UserPathEnrollmentRow {
  id: string;
  published_path_id: string;
  title: string;
  domain_name: string;
  enrolled_at: Date;
  expires_at: Date | null;
  active: boolean;
  completed_at: Date | null;
  course_count: number;
  completed_count: number;
  latest_activity: Date | null;
}

/** A sub-list: which rows are the user's, and how a page of them is read. */
interface SubList {
  /** FROM ... JOIN ... of the rows */
  from: string;
  /** the rows that are the user's; `$1` is the user's uuid */
  where: string;
  /** the alias of the enrollment table in `from` */
  alias: string;
  /** the page's select list (may use laterals appended by `laterals`) */
  select: string;
  laterals?: string;
}

/**
 * A user's plan enrollments: plans not deleted, with their domain. Served by
 * plan_enrollments_org_user_created_idx (organization_id, user_id, created_at, id).
 */
const PLAN_ENROLLMENTS: SubList = {
  alias: 'pe',
  from: `plan_enrollments pe
    JOIN plans pl ON pl.id = pe.plan_id AND pl.organization_id = $org AND pl.deleted_at IS NULL
    JOIN domains d ON d.id = pl.domain_id AND d.organization_id = $org`,
  where: `pe.organization_id = $org AND pe.user_id = $1`,
  select: `pe.id, pe.plan_id, pl.name AS plan_title, d.name AS domain_name, pe.enrolled_at, pe.expires_at, pe.active`,
};

/**
 * A user's published-path enrollments: published paths still published, paths not deleted,
 * with their domain (published_path_enrollments_org_user_created_idx). The progress of each, by
 * join, in the same statement: the path's courses are its items whose published course is still
 * published (as the path's course count everywhere); a course is completed when the user's course
 * progress in that published course has `completed_at` (any of them, when the course keeps one per
 * enrollment); the latest activity is the latest `latest_activity` or update among those course
 * progresses (path_items_path_order_uq, course_progress_user_idx).
 */
const PATH_ENROLLMENTS: SubList = {
  alias: 'ppe',
  from: `published_path_enrollments ppe
    JOIN published_paths pp ON pp.id = ppe.published_path_id AND pp.organization_id = $org AND pp.unpublished_at IS NULL
    JOIN paths pa ON pa.id = ppe.path_id AND pa.organization_id = $org AND pa.deleted_at IS NULL
    JOIN domains d ON d.id = pp.domain_id AND d.organization_id = $org`,
  where: `ppe.organization_id = $org AND ppe.user_id = $1`,
  select: `ppe.id, ppe.published_path_id, pa.title, d.name AS domain_name, ppe.enrolled_at, ppe.expires_at, ppe.active, ppe.completed_at,
           prog.course_count, prog.completed_count, prog.latest_activity`,
  laterals: `
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS course_count, count(*) FILTER (WHERE c.completed)::int AS completed_count, max(c.latest) AS latest_activity
        FROM path_items pi
        JOIN published_courses pc ON pc.id = pi.published_course_id AND pc.organization_id = $org AND pc.unpublished_at IS NULL
        LEFT JOIN LATERAL (
          SELECT bool_or(cp.completed_at IS NOT NULL) AS completed, max(GREATEST(cp.latest_activity, cp.updated_at)) AS latest
            FROM course_progress cp
           WHERE cp.organization_id = $org AND cp.user_id = ppe.user_id AND cp.published_course_id = pi.published_course_id) c ON true
       WHERE pi.organization_id = $org AND pi.path_id = ppe.path_id) prog`,
};

/**
 * The sub-lists of a /v1 user: users_plan_enrollments_list and
 * users_published_path_enrollments_list (the groups are the groups module's
 * UserGroupsV1Controller; the published courses with progress, the progress module's). Each window
 * is two statements whatever its size: the user check, then the window. Reads only:
 * plan_enrollments is the plans module's, published_path_enrollments the paths module's.
 */
@Injectable()
export class UserEnrollmentsV1Service {
  constructor(private readonly ds: DataSource) {}

  planEnrollments(p: Principal, userPublicId: string, page: V1PageRequest) {
    return this.window<UserPlanEnrollmentRow>(PLAN_ENROLLMENTS, p, userPublicId, page);
  }

  pathEnrollments(p: Principal, userPublicId: string, page: V1PageRequest) {
    return this.window<UserPathEnrollmentRow>(PATH_ENROLLMENTS, p, userPublicId, page);
  }

  /**
   * The window's rows (a bare array, CONVENTIONS §16; past the end, none). 404 for any id that is not
   * a registered user of the organization (malformed, unknown, foreign, on no domain).
   */
  private async window<R>(list: SubList, p: Principal, userPublicId: string, page: V1PageRequest): Promise<R[]> {
    const id = decodeId('student', userPublicId);
    if (!id) throw notFound();
    const db = scoped(this.ds, p.organizationId);
    const [head] = await db.query<{ registered: boolean }[]>(`SELECT EXISTS (SELECT 1 FROM users u WHERE u.id = $1 AND u.organization_id = $org AND ${REGISTERED('u')}) AS registered`, [id]);
    if (!head.registered) throw notFound();
    // with updated_since: the enrollments changed since, by last change (<table>_org_user_updated_idx)
    const since = v1SinceSql(page, `${list.alias}.updated_at`, 2, `${list.alias}.created_at, ${list.alias}.id`);
    return db.query(
      `SELECT ${list.select} FROM ${list.from} ${list.laterals ?? ''}
        WHERE ${list.where}${since.and}
        ORDER BY ${since.order} LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      [id, ...since.params],
    );
  }
}
