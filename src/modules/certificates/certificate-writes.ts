import { randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';

/** Certificate codes: 16 characters of A-Z and 2-9 without the look-alikes (I, O, 0, 1). */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export function certificateCode(): string {
  let out = '';
  for (let i = 0; i < 16; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export interface CompletedCourseProgress {
  courseProgressId: string;
  userId: string;
  courseId: string;
  publishedCourseId: string;
  enrollmentId: string | null;
  completedAt: Date;
  /** round(100 * score / max_score) when both are known */
  scoreAsPercent: number | null;
}

/**
 * Issues the certificates of newly completed course progresses (docs/decisions/progress.md,
 * "Certificates"): only for courses whose `issues_certificate` is on; `issued_at` is the completion,
 * `expires_at` issued_at + the course's validity in days (null when unset); the enrollment is the
 * progress's own or, for a shared progress, the user's latest enrollment in that published course.
 * One statement for the whole set. Returns the ids issued, by course progress.
 */
export async function issueCertificates(
  m: EntityManager,
  organizationId: string,
  done: CompletedCourseProgress[],
): Promise<Map<string, { id: string; code: string; issued_at: Date; expires_at: Date | null }>> {
  const out = new Map<string, { id: string; code: string; issued_at: Date; expires_at: Date | null }>();
  if (!done.length) return out;
  const rows = await scoped(m, organizationId).query<{ course_progress_id: string; id: string; code: string; issued_at: Date; expires_at: Date | null }[]>(
    `INSERT INTO certificates (organization_id, user_id, course_id, published_course_id, domain_id, enrollment_id, course_progress_id, code, issued_at, expires_at, score_as_percent)
     SELECT $org, v.user_id, v.course_id, v.pc_id, pc.domain_id,
            COALESCE(v.enrollment_id, (SELECT e.id FROM enrollments e WHERE e.organization_id = $org AND e.user_id = v.user_id AND e.published_course_id = v.pc_id
                                        ORDER BY e.enrolled_at DESC, e.id LIMIT 1)),
            v.cp_id, v.code, v.at,
            CASE WHEN c.certificate_validity_days IS NULL THEN NULL ELSE v.at + make_interval(days => c.certificate_validity_days) END,
            v.pct
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::timestamptz[], $8::int[])
              AS v(cp_id, user_id, course_id, pc_id, enrollment_id, code, at, pct)
       JOIN courses c ON c.id = v.course_id AND c.organization_id = $org
       JOIN published_courses pc ON pc.id = v.pc_id AND pc.organization_id = $org
      WHERE c.issues_certificate
     RETURNING course_progress_id, id, code, issued_at, expires_at`,
    [
      done.map((d) => d.courseProgressId),
      done.map((d) => d.userId),
      done.map((d) => d.courseId),
      done.map((d) => d.publishedCourseId),
      done.map((d) => d.enrollmentId),
      done.map(() => certificateCode()),
      done.map((d) => d.completedAt),
      done.map((d) => d.scoreAsPercent),
    ],
  );
  for (const r of rows) out.set(r.course_progress_id, r);
  return out;
}

/**
 * A removed completion expires the live certificates of those course progresses (now) and marks them
 * revoked (`revoked_at`: the verification page says "revoked", the status list sets their bit;
 * CONVENTIONS §22). One statement.
 */
export async function expireCertificates(m: EntityManager, organizationId: string, courseProgressIds: string[]): Promise<void> {
  if (!courseProgressIds.length) return;
  await scoped(m, organizationId).query(
    `UPDATE certificates SET expires_at = date_trunc('milliseconds', now()), revoked_at = date_trunc('milliseconds', now())
      WHERE organization_id = $org AND course_progress_id = ANY($1::uuid[]) AND (expires_at IS NULL OR expires_at > now())`,
    [courseProgressIds],
  );
}

/**
 * A new re-enrollment cycle (modules/reenrollment through progress/cycles.ts): the certificates of
 * those course progresses stay as they are (their own expiry, readable through their id, the
 * enrollment and the progress history) but no longer belong to the live progress, so the next
 * completion issues its own and a later removed completion never expires the old one. One statement.
 */
export async function detachCertificates(m: EntityManager, organizationId: string, courseProgressIds: string[]): Promise<void> {
  if (!courseProgressIds.length) return;
  await scoped(m, organizationId).query(`UPDATE certificates SET course_progress_id = NULL WHERE organization_id = $org AND course_progress_id = ANY($1::uuid[])`, [courseProgressIds]);
}
