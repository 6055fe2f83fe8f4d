import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { rowsOf } from '../../core/database/sql';
import { scoped } from '../../core/database/scoped';
import { eventCourse, eventDomain, eventUser } from '../../core/events/bodies';
import { recordEvents } from '../../core/events/outbox';
import { notFound } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import { recordEnrollmentPurchases } from '../commerce/free-purchases';
import { CourseProgressWrites } from './course-progress-writes';
import type { EnrollmentCreateItem, EnrollmentUpdateItem } from './dto/enrollment.v2.dto';
import type { EnrollmentWriteRow } from './enrollments.v2.shape';
import { itemDateTime } from '../../core/http/v2-dates';
import { ENROLLMENT_NOT_FOUND, enrollmentItems } from './v2-items';
import type { EnrollmentReturningRow } from './enrollments.store';

type Outcome = ItemOutcome<EnrollmentWriteRow>;
const fail = (code: 'not_found' | 'validation_error' | 'not_in_domain' | 'already_enrolled', detail: string, pointer: string): Outcome => ({ ok: false, code, detail, pointer });

/** The published course a bulk-enroll targets (the request's top-level published_course_id). */
export interface EnrollTarget {
  id: string;
  courseId: string;
  slug: string;
  title: string;
  domainId: string;
  domainName: string;
}

/** What an INSERT / UPDATE ... RETURNING gives back for the write resource. */
const returning = (a: string) =>
  `${a}.id, ${a}.user_id, ${a}.published_course_id, ${a}.enrolled_at, ${a}.expires_at, ${a}.due_at, (${a}.active AND (${a}.expires_at IS NULL OR ${a}.expires_at > now())) AS is_active`;
const writeRow = (r: EnrollmentReturningRow): EnrollmentWriteRow => ({
  id: r.id,
  userId: r.user_id,
  publishedCourseId: r.published_course_id,
  enrolledAt: new Date(r.enrolled_at),
  expiresAt: r.expires_at ? new Date(r.expires_at) : null,
  dueAt: r.due_at ? new Date(r.due_at) : null,
  isActive: r.is_active,
});
const ok = (r: EnrollmentWriteRow): Outcome => ({ ok: true, id: encodeId('enrollment', r.id), result: r });
const NOW = `date_trunc('milliseconds', now())`;

/**
 * The /v2 enrollment batch writes (POST and PATCH /v2/enrollments/; docs/decisions/v2-enrollments.md).
 * Set-wise: a fixed number of statements whatever the batch size, every one bound to the caller's
 * organization.
 */
@Injectable()
export class EnrollmentsBatchService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly progress: CourseProgressWrites,
  ) {}

  /** The live published course of the organization named by the request, or 404. */
  async target(p: Principal, publicId: string): Promise<EnrollTarget> {
    const uuid = decodeId('publishedCourse', publicId);
    const [row] = uuid
      ? await scoped(this.ds, p.organizationId).query<{ id: string; course_id: string; slug: string; title: string; domain_id: string; domain_name: string }[]>(
          `SELECT pc.id, pc.course_id, pc.slug, c.title, d.id AS domain_id, d.name AS domain_name
             FROM published_courses pc
             JOIN courses c ON c.id = pc.course_id AND c.organization_id = pc.organization_id AND c.deleted_at IS NULL
             JOIN domains d ON d.id = pc.domain_id AND d.organization_id = pc.organization_id
            WHERE pc.id = $1 AND pc.organization_id = $org AND pc.unpublished_at IS NULL`,
          [uuid],
        )
      : [];
    if (!row) throw notFound('Published course not found.', { source: { pointer: '/published_course_id' } });
    return { id: row.id, courseId: row.course_id, slug: row.slug, title: row.title, domainId: row.domain_id, domainName: row.domain_name };
  }

  /**
   * Bulk-enroll, in one transaction: the students by email (one statement); the per (published
   * course, student) advisory locks that /v1 enrollment create also takes, in one sorted order so two
   * batches cannot deadlock; their current enrollments, read under the locks; then one INSERT for
   * the new enrollments, one UPDATE for the reactivated ones, their course progress, the new ones'
   * $0 purchases (commerce recordEnrollmentPurchases, two statements) and one COURSE_ENROLLMENT per
   * new enrollment, carrying its purchase, in the outbox (a reactivation is no new registration:
   * no purchase, no event). Per student: unknown in the organization
   * `not_found`, anonymized `validation_error`, not a member of the course's domain `not_in_domain`,
   * an active unexpired enrollment `already_enrolled`, an inactive or expired one is reactivated
   * (active, with the request's expires_at).
   */
  async enrollMany(p: Principal, target: EnrollTarget, expiresAt: Date | null, items: ValidItem<EnrollmentCreateItem>[]): Promise<Map<number, Outcome>> {
    const out = new Map<number, Outcome>();
    const emails = [...new Set(items.map((v) => v.item.attributes.email.toLowerCase()))];
    return this.ds.transaction(async (m) => {
      const db = scoped(m, p.organizationId);
      const users: { id: string; key: string; email: string; first_name: string; last_name: string; is_anonymized: boolean }[] = await db.query(
        `SELECT id, lower(email) AS key, email, first_name, last_name, is_anonymized FROM users WHERE organization_id = $org AND lower(email) = ANY($1::text[])`,
        [emails],
      );
      const byEmail = new Map(users.map((u) => [u.key, u]));
      const wanted = users.filter((u) => !u.is_anonymized);
      const state = new Map<string, { member: boolean; enrollment_id: string | null; live: boolean | null }>();
      if (wanted.length) {
        const keys = wanted.map((u) => `${target.id}:${u.id}`).sort();
        await m.query(`SELECT count(pg_advisory_xact_lock(hashtextextended(k, 7))) FROM unnest($1::text[]) WITH ORDINALITY AS t(k, n)`, [keys]);
        const rows: { user_id: string; member: boolean; enrollment_id: string | null; live: boolean | null }[] = await db.query(
          `SELECT u.id AS user_id,
                  EXISTS (SELECT 1 FROM domain_users du WHERE du.organization_id = $org AND du.domain_id = $2 AND du.user_id = u.id) AS member,
                  le.id AS enrollment_id, le.live
             FROM unnest($1::uuid[]) AS u(id)
             LEFT JOIN LATERAL (
               SELECT e.id, (e.active AND (e.expires_at IS NULL OR e.expires_at > now())) AS live FROM enrollments e
                WHERE e.organization_id = $org AND e.published_course_id = $3 AND e.user_id = u.id
                ORDER BY 2 DESC, e.enrolled_at DESC, e.id DESC LIMIT 1) le ON true`,
          [wanted.map((u) => u.id), target.domainId, target.id],
        );
        for (const r of rows) state.set(r.user_id, r);
      }

      const create: { index: number; userId: string }[] = [];
      const reactivate: { index: number; enrollmentId: string }[] = [];
      for (const v of items) {
        const u = byEmail.get(v.item.attributes.email.toLowerCase());
        const s = u && state.get(u.id);
        if (!u) out.set(v.index, fail('not_found', 'No student with this email in the organization.', '/attributes/email'));
        else if (u.is_anonymized || !s) out.set(v.index, fail('validation_error', 'The student is anonymized and cannot be enrolled.', '/attributes/email'));
        else if (!s.member) out.set(v.index, fail('not_in_domain', `The student is not a member of the published course's domain (${target.domainName}).`, '/attributes/email'));
        else if (s.live)
          out.set(v.index, fail('already_enrolled', `The student already has an active enrollment in this published course (${encodeId('enrollment', s.enrollment_id!)}).`, '/attributes/email'));
        else if (s.enrollment_id) reactivate.push({ index: v.index, enrollmentId: s.enrollment_id });
        else create.push({ index: v.index, userId: u.id });
      }

      const created: EnrollmentWriteRow[] = create.length
        ? (
            await db.query<EnrollmentReturningRow[]>(
              `INSERT INTO enrollments (organization_id, user_id, published_course_id, course_id, expires_at)
               SELECT $org, v.user_id, $2, $3, $4 FROM unnest($1::uuid[]) AS v(user_id)
               RETURNING ${returning('enrollments')}`,
              [create.map((c) => c.userId), target.id, target.courseId, expiresAt],
            )
          ).map(writeRow)
        : [];
      const reactivated: EnrollmentWriteRow[] = reactivate.length
        ? rowsOf(
            await db.query<unknown>(
              `UPDATE enrollments SET active = true, expires_at = $2, updated_at = ${NOW}
                WHERE organization_id = $org AND id = ANY($1::uuid[]) RETURNING ${returning('enrollments')}`,
              [reactivate.map((r) => r.enrollmentId), expiresAt],
            ),
          ).map(writeRow)
        : [];
      const byUser = new Map(created.map((r) => [r.userId, r]));
      for (const c of create) out.set(c.index, ok(byUser.get(c.userId)!));
      const byId = new Map(reactivated.map((r) => [r.id, r]));
      for (const r of reactivate) out.set(r.index, ok(byId.get(r.enrollmentId)!));

      const all = [...created, ...reactivated];
      await this.progress.ensureCourseProgress(
        m,
        p.organizationId,
        all.map((r) => ({ enrollmentId: r.id, userId: r.userId, publishedCourseId: target.id, courseId: target.courseId })),
      );
      // the new registrations' $0 purchases (commerce; two statements for the batch), which their events carry
      const bought = await recordEnrollmentPurchases(
        m,
        p.organizationId,
        'published_course',
        created.map((r) => ({ enrollmentId: r.id, userId: r.userId, objectId: target.id })),
      );
      const usersById = new Map(users.map((u) => [u.id, u]));
      await recordEvents(
        m,
        created.map((r) => ({
          organizationId: p.organizationId,
          type: 'COURSE_ENROLLMENT' as const,
          objects: {
            user: eventUser(usersById.get(r.userId)!),
            course: eventCourse({ course_id: target.courseId, published_course_id: target.id, title: target.title, domain_name: target.domainName, slug: target.slug }),
            purchase: bought.get(r.id)?.event ?? null,
            domain: eventDomain({ id: target.domainId, name: target.domainName }),
          },
        })),
      );
      return out;
    });
  }

  /**
   * Batch update of `expires_at`, `due_at` (null clears either) and `active`: one UPDATE ... FROM
   * unnest(...) for the whole batch; an id that is not an enrollment of the organization is
   * `not_found`, an item that changes nothing or carries a bad date-time `validation_error`.
   */
  async updateMany(p: Principal, items: ValidItem<EnrollmentUpdateItem>[]): Promise<Map<number, Outcome>> {
    const out = new Map<number, Outcome>();
    const changes: { index: number; id: string; setExpires: boolean; expires: Date | null; setDue: boolean; due: Date | null; active: boolean | null }[] = [];
    for (const { v, id, sent } of enrollmentItems(items, out)) {
      const a = v.item.attributes;
      const setExpires = 'expires_at' in sent;
      const setDue = 'due_at' in sent;
      if (!setExpires && !setDue && a.active === undefined) {
        out.set(v.index, fail('validation_error', 'Nothing to update: give at least one of expires_at, due_at, active.', '/attributes'));
        continue;
      }
      const expires = setExpires ? itemDateTime(a.expires_at, '/attributes/expires_at') : null;
      const due = setDue ? itemDateTime(a.due_at, '/attributes/due_at') : null;
      const bad = [expires, due].find((d) => d && 'error' in d);
      if (bad && 'error' in bad) {
        out.set(v.index, fail('validation_error', bad.error, bad.pointer));
        continue;
      }
      const date = (d: typeof expires) => (d && 'value' in d ? d.value : null);
      changes.push({ index: v.index, id, setExpires, expires: date(expires), setDue, due: date(due), active: a.active ?? null });
    }
    if (!changes.length) return out;
    const updated: EnrollmentWriteRow[] = rowsOf(
      await scoped(this.ds, p.organizationId).query<unknown>(
        `UPDATE enrollments e SET
            expires_at = CASE WHEN v.set_expires THEN v.expires_at ELSE e.expires_at END,
            due_at = CASE WHEN v.set_due THEN v.due_at ELSE e.due_at END,
            active = COALESCE(v.active, e.active),
            updated_at = ${NOW}
           FROM unnest($1::uuid[], $2::boolean[], $3::timestamptz[], $4::boolean[], $5::timestamptz[], $6::boolean[])
                AS v(id, set_expires, expires_at, set_due, due_at, active)
          WHERE e.id = v.id AND e.organization_id = $org
        RETURNING ${returning('e')}`,
        [changes.map((c) => c.id), changes.map((c) => c.setExpires), changes.map((c) => c.expires), changes.map((c) => c.setDue), changes.map((c) => c.due), changes.map((c) => c.active)],
      ),
    ).map(writeRow);
    const byId = new Map(updated.map((r) => [r.id, r]));
    for (const c of changes) {
      const r = byId.get(c.id);
      out.set(c.index, r ? ok(r) : ENROLLMENT_NOT_FOUND);
    }
    return out;
  }
}
