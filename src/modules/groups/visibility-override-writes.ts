import { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';

/**
 * Writes of visibility_overrides (owned by this module) that the /v1 published-course
 * sub-resource asks for, as functions over the caller's EntityManager.
 */

/**
 * The /v1 model: one override per (group, published course). Setting one replaces an opposite one
 * (the /v2 model allows an allow and a block row for the same group); run it in a transaction.
 */
export async function setSingleOverride(m: EntityManager, organizationId: string, groupId: string, publishedCourseId: string, isVisible: boolean): Promise<void> {
  await scoped(m, organizationId).query(`DELETE FROM visibility_overrides WHERE group_id = $1 AND published_course_id = $2 AND organization_id = $org AND is_visible <> $3`, [
    groupId,
    publishedCourseId,
    isVisible,
  ]);
  await scoped(m, organizationId).query(
    `INSERT INTO visibility_overrides (organization_id, group_id, published_course_id, is_visible) VALUES ($org, $1, $2, $3)
     ON CONFLICT (group_id, published_course_id, is_visible) DO UPDATE SET updated_at = date_trunc('milliseconds', now())`,
    [groupId, publishedCourseId, isVisible],
  );
}

/** Every override of this group on this published course. */
export async function deleteOverrides(m: EntityManager, organizationId: string, groupId: string, publishedCourseId: string): Promise<void> {
  await scoped(m, organizationId).query(`DELETE FROM visibility_overrides WHERE published_course_id = $1 AND group_id = $2 AND organization_id = $org`, [publishedCourseId, groupId]);
}
