import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { scoped } from '../../core/database/scoped';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { V1UserUpdateDto } from './dto/user.v1.dto';
import type { Student } from './student.entity';
import { StudentsService } from './students.service';

/** The list filters of users_list: exact and case-sensitive, as published. */
export interface UserFilters {
  email?: string;
  firstName?: string;
  lastName?: string;
  isInactive?: boolean;
  /** updated_since (extension, CONVENTIONS §20) */
  updatedSince?: Date;
}

/** One user with what the published `UserOverview` shows of them. */
export interface UserOverviewRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  is_inactive: boolean;
  deactivated_at: Date | null;
  created_at: Date;
  registrations: number;
  completions: number;
  latest_activity: Date | null;
}

/**
 * A user of `u` is a /v1 user when they are registered on at least one domain of the organization
 * (CONVENTIONS §10); any other id is 404 on every /v1 users operation. Served by domain_users_user_idx.
 */
export const REGISTERED = (u: string) => `EXISTS (SELECT 1 FROM domain_users du WHERE du.user_id = ${u}.id AND du.organization_id = $org)`;

/**
 * The overview of each user row `u` (whatever FROM gives it): the course enrollments and how many
 * of them are complete (enrollments_user_idx), and the latest activity: the latest start or
 * completion of an enrollment or the latest activity recorded on a course progress
 * (course_progress_user_idx). Aggregates per user through laterals, so a page of users is one
 * statement whatever its size.
 */
const OVERVIEW = (from: string) => `
  SELECT u.id, u.email, u.first_name, u.last_name, u.is_inactive, u.deactivated_at, u.created_at,
         e.registrations, e.completions, GREATEST(e.latest, cp.latest) AS latest_activity
    FROM ${from} u
    LEFT JOIN LATERAL (
      SELECT count(*)::int AS registrations, count(en.completed_at)::int AS completions, max(GREATEST(en.started_at, en.completed_at)) AS latest
        FROM enrollments en WHERE en.organization_id = $org AND en.user_id = u.id) e ON true
    LEFT JOIN LATERAL (
      SELECT max(c.latest_activity) AS latest FROM course_progress c WHERE c.organization_id = $org AND c.user_id = u.id) cp ON true`;

/**
 * /v1 users (users_list, users_retrieve, users_update, users_partial_update; the anonymize answer):
 * the organization's users registered on a domain, read with their course overview. The `users`
 * table is this module's; its writes are StudentsService's (a /v1 user is the /v2 student: same
 * row, same id). The sub-lists are UserEnrollmentsV1Service (user-enrollments.v1.service.ts).
 */
@Injectable()
export class UsersV1Service {
  constructor(
    private readonly ds: DataSource,
    private readonly students: StudentsService,
  ) {}

  /**
   * A page of the organization's registered users, oldest first (created_at, id): one count and one
   * page statement whatever the page size. Each filter has its index: email through the
   * (organization_id, lower(email)) unique index and then compared exactly (case-sensitive, as
   * published), first_name and last_name through theirs, is_inactive through
   * users_org_inactive_created_idx.
   */
  async list(p: Principal, f: UserFilters, page: V1PageRequest): Promise<{ rows: UserOverviewRow[]; count: number }> {
    const params: unknown[] = [];
    const where = [`u.organization_id = $org`, REGISTERED('u')];
    if (f.email !== undefined) {
      const n = params.push(f.email);
      where.push(`lower(u.email) = lower($${n}) AND u.email = $${n}`);
    }
    if (f.firstName !== undefined) where.push(`u.first_name = $${params.push(f.firstName)}`);
    if (f.lastName !== undefined) where.push(`u.last_name = $${params.push(f.lastName)}`);
    if (f.isInactive !== undefined) where.push(`u.is_inactive = $${params.push(f.isInactive)}`);
    if (f.updatedSince) where.push(`u.updated_at >= $${params.push(f.updatedSince)}`);
    const w = where.join(' AND ');
    // updated_since orders by last change (CONVENTIONS §20), on the index (organization_id, updated_at, id)
    const order = f.updatedSince ? 'u.updated_at, u.id' : 'u.created_at, u.id';
    const db = scoped(this.ds, p.organizationId);
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM users u WHERE ${w}`, params);
    if (!n) return { rows: [], count: 0 };
    const rows: UserOverviewRow[] = await db.query(
      `${OVERVIEW(`(SELECT * FROM users u WHERE ${w} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset})`)}
       ORDER BY ${order}`,
      params,
    );
    return { rows, count: n };
  }

  /**
   * One user's overview: 404 alike for a malformed id, another organization's user and a user on no
   * domain of the organization. `anyUser` (the anonymize answer) drops the domain condition.
   */
  async overview(p: Principal, publicId: string, opts: { anyUser?: boolean } = {}): Promise<UserOverviewRow> {
    const id = decodeId('student', publicId);
    const rows: UserOverviewRow[] = id
      ? await scoped(this.ds, p.organizationId).query(`${OVERVIEW(`(SELECT * FROM users u WHERE u.id = $1 AND u.organization_id = $org${opts.anyUser ? '' : ` AND ${REGISTERED('u')}`})`)}`, [id])
      : [];
    if (!rows.length) throw notFound();
    return rows[0];
  }

  /** The uuid of a registered user of the organization, or the 404 every other id gets. */
  async registeredUser(p: Principal, publicId: string): Promise<string> {
    const id = decodeId('student', publicId);
    const rows = id ? await scoped(this.ds, p.organizationId).query<unknown[]>(`SELECT 1 FROM users u WHERE u.id = $1 AND u.organization_id = $org AND ${REGISTERED('u')}`, [id]) : [];
    if (!rows.length) throw notFound();
    return id!;
  }

  /**
   * PUT and PATCH (both partial): the members given among `email`, `first_name`, `last_name`
   * change through StudentsService.updateProfile (unique email, anonymized users refused); an empty
   * body changes nothing and answers the user.
   */
  async update(p: Principal, publicId: string, dto: V1UserUpdateDto): Promise<Student> {
    const id = await this.registeredUser(p, publicId);
    return this.students.updateProfile(p, id, { email: dto.email, firstName: dto.first_name, lastName: dto.last_name });
  }
}
