import type { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import type { PendingEvent } from '../../core/events/outbox';
import { eventDomain, eventPath, eventUser } from '../../core/events/bodies';

/**
 * Path completion (CONVENTIONS §10, docs/decisions/progress.md "Paths"): after courses complete, the
 * active, not yet completed published-path enrollments of those users in a path that holds one of
 * those published courses, whose every path item's published course the user has completed, get
 * `completed_at`. One statement finds and completes them (the caller holds the per-user progress
 * lock, so two courses of one path completing at once cannot both miss the other); one
 * PATH_COMPLETION per user and published path that moved, returned for the caller's outbox write.
 */
export async function completePaths(m: EntityManager, organizationId: string, completed: { userId: string; publishedCourseId: string }[]): Promise<PendingEvent[]> {
  if (!completed.length) return [];
  const rows: {
    user_id: string;
    published_path_id: string;
    path_id: string;
    title: string;
    slug: string;
    domain_id: string;
    domain_name: string;
    email: string;
    first_name: string;
    last_name: string;
  }[] = await scoped(m, organizationId).query(
    `WITH done AS (SELECT DISTINCT * FROM unnest($1::uuid[], $2::uuid[]) AS d(user_id, pc_id)),
     cand AS (
       SELECT ppe.id FROM published_path_enrollments ppe
        WHERE ppe.organization_id = $org AND ppe.completed_at IS NULL AND ppe.active
          AND (ppe.expires_at IS NULL OR ppe.expires_at > now())
          AND EXISTS (SELECT 1 FROM done JOIN path_items pi ON pi.published_course_id = done.pc_id
                       WHERE done.user_id = ppe.user_id AND pi.path_id = ppe.path_id AND pi.organization_id = $org)
          AND NOT EXISTS (
                SELECT 1 FROM path_items pi
                 WHERE pi.organization_id = $org AND pi.path_id = ppe.path_id
                   AND NOT EXISTS (SELECT 1 FROM course_progress cp
                                    WHERE cp.organization_id = $org AND cp.user_id = ppe.user_id
                                      AND cp.published_course_id = pi.published_course_id AND cp.completed_at IS NOT NULL))
        FOR UPDATE OF ppe),
     moved AS (
       UPDATE published_path_enrollments p SET completed_at = date_trunc('milliseconds', now()), updated_at = date_trunc('milliseconds', now())
         FROM cand WHERE p.id = cand.id AND p.organization_id = $org
       RETURNING p.user_id, p.published_path_id, p.path_id)
     SELECT DISTINCT ON (moved.user_id, moved.published_path_id)
            moved.user_id, moved.published_path_id, moved.path_id, pa.title, pp.slug, d.id AS domain_id, d.name AS domain_name,
            u.email, u.first_name, u.last_name
       FROM moved
       JOIN paths pa ON pa.id = moved.path_id AND pa.organization_id = $org
       JOIN published_paths pp ON pp.id = moved.published_path_id AND pp.organization_id = $org
       JOIN domains d ON d.id = pp.domain_id AND d.organization_id = $org
       JOIN users u ON u.id = moved.user_id AND u.organization_id = $org`,
    [completed.map((c) => c.userId), completed.map((c) => c.publishedCourseId)],
  );
  return rows.map((r) => ({
    organizationId,
    type: 'PATH_COMPLETION' as const,
    objects: {
      user: eventUser({ id: r.user_id, email: r.email, first_name: r.first_name, last_name: r.last_name }),
      path: eventPath({ path_id: r.path_id, published_path_id: r.published_path_id, title: r.title, domain_name: r.domain_name, slug: r.slug }),
      domain: eventDomain({ id: r.domain_id, name: r.domain_name }),
      // a path has no grade of its own (docs/decisions/webhooks.md, "Event bodies")
      success_status: null,
      score: null,
    },
  }));
}
