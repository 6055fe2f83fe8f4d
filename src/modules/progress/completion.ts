import type { EntityManager } from 'typeorm';
import { eventSuccessStatus } from '../../core/events/bodies';
import { learnerCourseObjects } from './learner-objects';
import type { PendingEvent } from '../../core/events/outbox';
import { expireCertificates, issueCertificates } from '../certificates/certificate-writes';
import { syncEnrollmentCompletion } from '../enrollments/enrollment-progress';
import { completePaths } from '../paths/path-completion';
import { DERIVED } from '../../core/database/fragments';
import { REGISTERED } from '../students/users.v1.service';
import { scoped } from '../../core/database/scoped';

/**
 * Course completion, set-based (CONVENTIONS §10, docs/decisions/progress.md): any number of course
 * progresses complete or lose their completion in a fixed number of statements, whatever the batch
 * size. Callers hold the per-user progress lock (lockUsers) for the users concerned and write the
 * returned events with recordEvents in the same transaction.
 */

/**
 * Serializes the progress changes of these users (transaction-scoped advisory locks, taken in one
 * order so two batches cannot deadlock): a course or path completion reads the user's other
 * progress, which a concurrent transaction of the same user could be changing.
 */
export async function lockUsers(m: EntityManager, userIds: string[]): Promise<void> {
  const ids = [...new Set(userIds)].sort();
  if (!ids.length) return;
  await m.query(`SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT hashtextextended(u::text, 1010) AS k FROM unnest($1::uuid[]) AS u ORDER BY 1 OFFSET 0) s`, [ids]);
}

/**
 * The user `$1` is a /v1 user of the organization `$org` (a scoped() statement): registered on one
 * of its domains (REGISTERED of the users module, CONVENTIONS §10). Every /v1/users/{id}/...
 * progress route answers 404 otherwise.
 */
export const REGISTERED_USER = `EXISTS (SELECT 1 FROM users ru WHERE ru.id = $1 AND ru.organization_id = $org AND ${REGISTERED('ru')})`;

interface Changed {
  id: string;
  user_id: string;
  published_course_id: string;
  course_id: string;
  enrollment_id: string | null;
  completed_at: Date | null;
  was_completed: boolean;
  success_status: string | null;
  score: number | null;
  max_score: number | null;
  email: string;
  first_name: string;
  last_name: string;
  title: string;
  slug: string;
  domain_id: string;
  domain_name: string;
}

/**
 * Sets (a date) or removes (null) the completion of these course progresses. A progress moving into
 * completion gets its enrollments' completed_at, a certificate, COURSE_COMPLETION and, through it,
 * the path completions it finishes; one moving out of completion loses its enrollments' date and
 * its live certificate expires. A new date on an already completed progress only changes the date
 * (no event, no new certificate). Returns the events to record.
 */
export async function setCourseCompletion(m: EntityManager, organizationId: string, items: { courseProgressId: string; completedAt: Date | null }[]): Promise<PendingEvent[]> {
  if (!items.length) return [];
  const last = new Map(items.map((i) => [i.courseProgressId, i.completedAt])); // last write wins within one call
  const rows: Changed[] = await scoped(m, organizationId).query(
    `WITH v AS (SELECT * FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, at)),
     old AS (SELECT cp.id, cp.completed_at FROM course_progress cp JOIN v ON v.id = cp.id
              WHERE cp.organization_id = $org AND cp.completed_at IS DISTINCT FROM v.at FOR UPDATE OF cp),
     upd AS (UPDATE course_progress cp SET completed_at = v.at, updated_at = date_trunc('milliseconds', now())
               FROM v, old WHERE cp.id = v.id AND old.id = v.id AND cp.organization_id = $org
             RETURNING cp.*, old.completed_at IS NOT NULL AS was_completed)
     SELECT cp.id, cp.user_id, cp.published_course_id, cp.course_id, cp.enrollment_id, cp.completed_at, cp.was_completed,
            COALESCE(cp.success_status, der.success_status) AS success_status,
            COALESCE(cp.score, der.score) AS score, COALESCE(cp.max_score, der.max_score) AS max_score,
            u.email, u.first_name, u.last_name, c.title, pc.slug, d.id AS domain_id, d.name AS domain_name
       FROM upd cp
       JOIN users u ON u.id = cp.user_id AND u.organization_id = $org
       JOIN courses c ON c.id = cp.course_id AND c.organization_id = $org
       JOIN published_courses pc ON pc.id = cp.published_course_id AND pc.organization_id = $org
       JOIN domains d ON d.id = pc.domain_id AND d.organization_id = $org
       ${DERIVED}`,
    [[...last.keys()], [...last.values()]],
  );
  if (!rows.length) return [];
  await syncEnrollmentCompletion(
    m,
    organizationId,
    rows.map((r) => ({ userId: r.user_id, publishedCourseId: r.published_course_id, enrollmentId: r.enrollment_id, completedAt: r.completed_at })),
  );
  const completed = rows.filter((r) => r.completed_at && !r.was_completed);
  const removed = rows.filter((r) => !r.completed_at);
  await expireCertificates(
    m,
    organizationId,
    removed.map((r) => r.id),
  );
  await issueCertificates(
    m,
    organizationId,
    completed.map((r) => ({
      courseProgressId: r.id,
      userId: r.user_id,
      courseId: r.course_id,
      publishedCourseId: r.published_course_id,
      enrollmentId: r.enrollment_id,
      completedAt: r.completed_at as Date,
      scoreAsPercent: r.score !== null && r.max_score ? Math.round((100 * r.score) / r.max_score) : null,
    })),
  );
  const events: PendingEvent[] = completed.map((r) => ({
    organizationId,
    type: 'COURSE_COMPLETION',
    objects: {
      ...learnerCourseObjects(r, r.title),
      success_status: eventSuccessStatus(r.success_status),
      score: r.score,
      completed_at: new Date(r.completed_at as Date).toISOString(),
    },
  }));
  events.push(
    ...(await completePaths(
      m,
      organizationId,
      completed.map((r) => ({ userId: r.user_id, publishedCourseId: r.published_course_id })),
    )),
  );
  return events;
}
