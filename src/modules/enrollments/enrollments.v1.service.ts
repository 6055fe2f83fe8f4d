import { DRF } from '../../core/http/drf-messages';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { recordEvents } from '../../core/events/outbox';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { parseTimestamp } from '../../core/http/v1-rules';
import type { PublishedCourseRow } from '../published-courses/published-courses.store';
import { ANONYMIZED_USER } from '../students/user-refs';
import { CourseProgressWrites } from './course-progress-writes';
import { EnrollmentRatingWrites } from './enrollment-ratings';
import { enrollmentPurchaseBlocks, recordEnrollmentPurchases } from '../commerce/free-purchases';
import { parsePurchase } from '../commerce/purchases';
import { EnrollmentCreateDto, EnrollmentUpdateDto } from './dto/enrollment.v1.dto';
import { scoped } from '../../core/database/scoped';
import { EnrollmentRow, V1_FROM, V1_SELECT } from './enrollments.store';

const fieldError = (field: string, message: string) => new ValidationFailed([{ field, message }], 400);

const SELECT = V1_SELECT;
const FROM = V1_FROM;

export type { EnrollmentRow } from './enrollments.store';

/**
 * Enrollments of a published course (/v1), in the `enrollments` table this module owns (the /v2
 * EnrollmentsService serves the course analytics aggregate over the same rows).
 * Creating one records its $0 purchase (commerce recordEnrollmentPurchases) and COURSE_ENROLLMENT
 * carrying it in the outbox, in the same transaction.
 */
@Injectable()
export class EnrollmentsV1Service {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly progress: CourseProgressWrites,
    private readonly ratings: EnrollmentRatingWrites,
  ) {}

  /**
   * A page of the published course's enrollments, oldest enrollment first; with `updatedSince`
   * (updated_since) only those changed at or after it, ordered by last change (updated_at, id) on
   * the index (organization_id, published_course_id, updated_at, id).
   */
  async list(p: Principal, pc: PublishedCourseRow, page: V1PageRequest, updatedSince?: Date): Promise<{ rows: EnrollmentRow[]; count: number }> {
    const db = scoped(this.ds, p.organizationId);
    const params: unknown[] = [pc.id];
    const where = `e.published_course_id = $1 AND e.organization_id = $org${updatedSince ? ` AND e.updated_at >= $${params.push(updatedSince)}` : ''}`;
    const order = updatedSince ? 'e.updated_at, e.id' : 'e.enrolled_at, e.id';
    const [c] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM enrollments e WHERE ${where}`, params);
    const rows = await db.query<EnrollmentRow[]>(`SELECT ${SELECT} FROM ${FROM} WHERE ${where} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
    await this.withPurchases(this.ds.manager, p, rows);
    return { rows, count: c.n };
  }

  async get(p: Principal, pc: PublishedCourseRow, publicId: string, m: EntityManager = this.ds.manager): Promise<EnrollmentRow> {
    const uuid = decodeId('enrollment', publicId);
    if (!uuid) throw notFound();
    const [row] = await scoped(m, p.organizationId).query<EnrollmentRow[]>(`SELECT ${SELECT} FROM ${FROM} WHERE e.id = $1 AND e.published_course_id = $2 AND e.organization_id = $org`, [uuid, pc.id]);
    if (!row) throw notFound();
    await this.withPurchases(m, p, [row]);
    return row;
  }

  /** Each row's Purchase block (commerce: the purchase whose grants created it), one query for the page. */
  private async withPurchases(m: EntityManager, p: Principal, rows: EnrollmentRow[]): Promise<void> {
    const blocks = await enrollmentPurchaseBlocks(
      m,
      p.organizationId,
      rows.map((r) => r.id),
    );
    for (const r of rows) r.purchase = blocks.get(r.id) ?? null;
  }

  /**
   * POST. The user must already be a member of the domain. Idempotent: with `enrolled_at`, an
   * existing enrollment of the user with that same enrolled_at is returned; without it, an
   * existing active, unexpired enrollment is returned. `created` tells the controller 201 vs 200.
   */
  async create(p: Principal, domain: Domain, pc: PublishedCourseRow, dto: EnrollmentCreateDto): Promise<{ row: EnrollmentRow; created: boolean }> {
    const ref = dto.user;
    if (ref === undefined || ref === null) throw fieldError('user', ref === null ? DRF.null : DRF.required);
    if (typeof ref !== 'object' || Array.isArray(ref)) throw fieldError('user', DRF.dict(ref));
    const rawId = (ref as Record<string, unknown>).id;
    if (typeof rawId !== 'string' || !rawId) throw fieldError('user', 'The user id is required.');
    const enrolledAt = parseTimestamp('enrolled_at', dto.enrolled_at, false);
    const expiresAt = parseTimestamp('expires_at', dto.expires_at, true);
    const declared = parsePurchase(dto.purchase, enrolledAt ?? null);
    const userId = decodeId('student', rawId);
    const [user] = userId
      ? await scoped(this.ds, p.organizationId).query<{ id: string; email: string; first_name: string; last_name: string; is_anonymized: boolean }[]>(
          `SELECT id, email, first_name, last_name, is_anonymized FROM users WHERE id = $1 AND organization_id = $org`,
          [userId],
        )
      : [];
    if (!user) throw fieldError('user', `Invalid id "${rawId}" - object does not exist.`);
    if (user.is_anonymized) throw fieldError('user', ANONYMIZED_USER);

    return this.ds.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 7))`, [`${pc.id}:${user.id}`]);
      const [member] = await scoped(m, p.organizationId).query<unknown[]>(`SELECT 1 FROM domain_users WHERE domain_id = $1 AND user_id = $2 AND organization_id = $org`, [domain.id, user.id]);
      if (!member) throw fieldError('user', 'The user is not a member of this domain: add them to the domain first.');
      const [existing] = enrolledAt
        ? await scoped(m, p.organizationId).query<{ id: string }[]>(
            `SELECT e.id FROM enrollments e WHERE e.published_course_id = $1 AND e.user_id = $2 AND e.enrolled_at = $3 AND e.organization_id = $org ORDER BY e.created_at LIMIT 1`,
            [pc.id, user.id, enrolledAt],
          )
        : await scoped(m, p.organizationId).query<{ id: string }[]>(
            `SELECT e.id FROM enrollments e WHERE e.published_course_id = $1 AND e.user_id = $2 AND e.organization_id = $org AND e.active AND (e.expires_at IS NULL OR e.expires_at > now())
             ORDER BY e.enrolled_at DESC, e.id LIMIT 1`,
            [pc.id, user.id],
          );
      if (existing) return { row: await this.get(p, pc, encodeId('enrollment', existing.id), m), created: false };
      const [row] = await scoped(m, p.organizationId).query<{ id: string }[]>(
        `INSERT INTO enrollments (organization_id, user_id, published_course_id, course_id, enrolled_at, expires_at, active)
         VALUES ($org, $1, $2, $3, COALESCE($4, date_trunc('milliseconds', now())), $5, $6) RETURNING id`,
        [user.id, pc.id, pc.course_id, enrolledAt ?? null, expiresAt ?? null, dto.active ?? true],
      );
      await this.progress.ensureCourseProgress(m, p.organizationId, [{ enrollmentId: row.id, userId: user.id, publishedCourseId: pc.id, courseId: pc.course_id }]);
      // the registration's purchase (commerce: $0 NONE, or what the body declared), which the event carries
      const bought = await recordEnrollmentPurchases(m, p.organizationId, 'published_course', [{ enrollmentId: row.id, userId: user.id, objectId: pc.id, at: enrolledAt ?? null, declared }]);
      await recordEvents(m, [
        {
          organizationId: p.organizationId,
          type: 'COURSE_ENROLLMENT',
          objects: {
            user: { id: encodeId('student', user.id), email: user.email, first_name: user.first_name, last_name: user.last_name },
            course: { id: encodeId('course', pc.course_id), published_course_id: encodeId('publishedCourse', pc.id), title: pc.course_title, url: `https://${domain.name}/${pc.slug}` },
            purchase: bought.get(row.id)?.event ?? null,
            domain: { id: encodeId('domain', domain.id), name: domain.name },
          },
        },
      ]);
      return { row: await this.get(p, pc, encodeId('enrollment', row.id), m), created: true };
    });
  }

  /**
   * PUT / PATCH: `active` and `expires_at` (null clears it), and the extension members `rating`
   * and `feedback` (CONVENTIONS §15): the learner's rating of the course on this enrollment, which
   * the enrollment reads and /v2/analytics/courses/{course_id}/ratings/ list. Everything is checked
   * before anything is written; one transaction.
   */
  async update(p: Principal, pc: PublishedCourseRow, publicId: string, dto: EnrollmentUpdateDto): Promise<EnrollmentRow> {
    const current = await this.get(p, pc, publicId);
    const expiresAt = parseTimestamp('expires_at', dto.expires_at, true);
    const rating = dto.rating;
    const feedback = dto.feedback;
    if (rating !== undefined || feedback !== undefined) {
      const [org] = await this.ds.query<{ rating_scale: number }[]>(`SELECT rating_scale FROM organizations WHERE id = $1`, [p.organizationId]);
      const scale = Number(org?.rating_scale ?? 5);
      if (rating !== undefined && rating !== null && (typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > scale)) {
        throw fieldError('rating', `A rating is an integer from 1 to ${scale} (the organization's rating scale), or null to remove it.`);
      }
      if (feedback !== undefined && feedback !== null && (typeof feedback !== 'string' || feedback.length > 10000 || feedback.includes('\u0000'))) {
        throw fieldError('feedback', typeof feedback !== 'string' ? DRF.string : feedback.length > 10000 ? 'Ensure this field has no more than 10000 characters.' : 'Null characters are not allowed.');
      }
      if (rating === null && typeof feedback === 'string') throw fieldError('feedback', 'Feedback goes with a rating: it cannot be set while removing the rating.');
      if (rating === undefined && typeof feedback === 'string' && current.rating === null) throw fieldError('feedback', 'Feedback goes with a rating: rate the course first (send rating).');
      const [user] = await scoped(this.ds, p.organizationId).query<{ is_anonymized: boolean }[]>(`SELECT is_anonymized FROM users WHERE id = $1 AND organization_id = $org`, [current.user_id]);
      if (user?.is_anonymized && (typeof rating === 'number' || typeof feedback === 'string')) throw fieldError('user', ANONYMIZED_USER);
    }
    const sets: string[] = [];
    const params: unknown[] = [current.id];
    if (dto.active !== undefined && dto.active !== null) {
      params.push(dto.active);
      sets.push(`active = $${params.length}`);
    }
    if (expiresAt !== undefined) {
      params.push(expiresAt);
      sets.push(`expires_at = $${params.length}`);
    }
    await this.ds.transaction(async (m) => {
      if (sets.length) {
        await scoped(m, p.organizationId).query(`UPDATE enrollments SET ${sets.join(', ')}, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`, params);
      }
      if (rating === null) await this.ratings.removeEnrollmentRating(m, p.organizationId, current.id);
      else if (rating !== undefined || feedback !== undefined) {
        const ok = await this.ratings.upsertEnrollmentRating(
          m,
          p.organizationId,
          { enrollmentId: current.id, courseId: pc.course_id, userId: current.user_id },
          rating as number | undefined,
          feedback as string | null | undefined,
        );
        // the rating went away since it was read (a concurrent rating: null): nothing to attach feedback to
        if (!ok) throw fieldError('feedback', 'Feedback goes with a rating: rate the course first (send rating).');
      }
    });
    return this.get(p, pc, publicId);
  }
}
