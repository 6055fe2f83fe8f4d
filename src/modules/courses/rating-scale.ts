import type { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';

/**
 * The course's rating scale (courses.rating_scale, 5 or 10; null: the organization's), owned here
 * and written for the lessons module's rating content blocks (CONVENTIONS §17: `rating_scale` is
 * stored on the course, as published). Functions over the caller's EntityManager so they join its
 * transaction.
 */
export async function courseRatingScale(m: EntityManager, organizationId: string, courseId: string): Promise<number> {
  const [row] = await scoped(m, organizationId).query<{ scale: number | null }[]>(
    `SELECT COALESCE(c.rating_scale, o.rating_scale, 5) AS scale FROM courses c JOIN organizations o ON o.id = c.organization_id WHERE c.id = $1 AND c.organization_id = $org`,
    [courseId],
  );
  return Number(row?.scale ?? 5);
}

export async function setCourseRatingScale(m: EntityManager, organizationId: string, courseId: string, scale: 5 | 10): Promise<void> {
  await scoped(m, organizationId).query(`UPDATE courses SET rating_scale = $2, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`, [courseId, scale]);
}

/** The effective rating scales (5 or 10) of several courses, in one statement: course id -> scale. */
export async function courseRatingScales(m: EntityManager, organizationId: string, courseIds: string[]): Promise<Map<string, number>> {
  if (!courseIds.length) return new Map();
  const rows: { id: string; scale: number | string }[] = await scoped(m, organizationId).query(
    `SELECT c.id, COALESCE(c.rating_scale, o.rating_scale, 5) AS scale FROM courses c JOIN organizations o ON o.id = c.organization_id WHERE c.id = ANY($1::uuid[]) AND c.organization_id = $org`,
    [[...new Set(courseIds)]],
  );
  return new Map(rows.map((r) => [r.id, Number(r.scale)]));
}
