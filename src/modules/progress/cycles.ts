import type { EntityManager } from 'typeorm';
import { detachCertificates } from '../certificates/certificate-writes';
import { syncEnrollmentCompletion } from '../enrollments/enrollment-progress';
import { scoped } from '../../core/database/scoped';

/**
 * A new cycle (re-enrollment, CONVENTIONS §17; called by modules/reenrollment in its run's
 * transaction): every course progress of the published course whose completion is older than
 * `before` is reset, and what the ended cycle held is kept in course_progress_cycles (this module's
 * table): the completion, success status, score and certificate, and each lesson's progress. The
 * certificate keeps its own expiry (it is detached from the live progress, never expired here); the
 * enrollments' copy of the completion is cleared. A fixed number of statements for any number of
 * learners. Returns how many progresses started a new cycle.
 */
export async function startNewCycles(m: EntityManager, organizationId: string, publishedCourseId: string, before: Date, endedAt: Date): Promise<number> {
  const rows: { id: string; user_id: string; enrollment_id: string | null }[] = await scoped(m, organizationId).query(
    `SELECT id, user_id, enrollment_id FROM course_progress
      WHERE organization_id = $org AND published_course_id = $1 AND completed_at IS NOT NULL AND completed_at < $2
      ORDER BY id FOR UPDATE`,
    [publishedCourseId, before],
  );
  if (!rows.length) return 0;
  const ids = rows.map((r) => r.id);
  await scoped(m, organizationId).query(
    `INSERT INTO course_progress_cycles (organization_id, course_progress_id, user_id, published_course_id, completed_at, success_status, score, max_score, certificate_id, lessons, ended_at)
     SELECT cp.organization_id, cp.id, cp.user_id, cp.published_course_id, cp.completed_at, cp.success_status, cp.score, cp.max_score,
            (SELECT c.id FROM certificates c WHERE c.organization_id = $org AND c.course_progress_id = cp.id ORDER BY c.issued_at DESC, c.id LIMIT 1),
            COALESCE((SELECT jsonb_agg(jsonb_build_object(
                        'lesson_id', lp.lesson_id, 'view_count', lp.view_count, 'last_viewed_on', lp.last_viewed_on, 'finished_at', lp.finished_at,
                        'completed_at', lp.completed_at, 'success_status', lp.success_status, 'score', lp.score, 'max_score', lp.max_score) ORDER BY lp.created_at, lp.id)
                        FROM lesson_progress lp WHERE lp.organization_id = $org AND lp.course_progress_id = cp.id), '[]'::jsonb),
            $2
       FROM course_progress cp WHERE cp.organization_id = $org AND cp.id = ANY($1::uuid[])`,
    [ids, endedAt],
  );
  await detachCertificates(m, organizationId, ids);
  await scoped(m, organizationId).query(
    `UPDATE lesson_progress SET view_count = 0, last_viewed_on = NULL, finished_at = NULL, completed_at = NULL, success_status = NULL, score = NULL, max_score = NULL,
            custom_data = NULL, validation_status = NULL, validation_data = NULL, updated_at = date_trunc('milliseconds', now())
      WHERE organization_id = $org AND course_progress_id = ANY($1::uuid[])`,
    [ids],
  );
  await scoped(m, organizationId).query(
    `UPDATE course_progress SET completed_at = NULL, success_status = NULL, score = NULL, max_score = NULL, credits_earned = '', updated_at = date_trunc('milliseconds', now())
      WHERE organization_id = $org AND id = ANY($1::uuid[])`,
    [ids],
  );
  await syncEnrollmentCompletion(
    m,
    organizationId,
    rows.map((r) => ({ userId: r.user_id, publishedCourseId, enrollmentId: r.enrollment_id, completedAt: null })),
  );
  return rows.length;
}
