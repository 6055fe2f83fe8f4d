import type { EntityManager } from 'typeorm';

/**
 * The writes of a group's visibility override of a published course (`visibility_overrides`, owned
 * by modules/groups) the /v1 published-course sub-resource asks for, over the caller's
 * EntityManager. Declared here and provided by modules/groups (`GroupVisibilityWritesModule`,
 * global), so published-courses, below groups in the module graph, imports nothing of it
 * (docs/decisions/module-graph.md).
 */
export abstract class GroupVisibilityWrites {
  /** The /v1 model: one override per (group, published course), replacing an opposite one; run it in a transaction. */
  abstract setSingleOverride(m: EntityManager, organizationId: string, groupId: string, publishedCourseId: string, isVisible: boolean): Promise<void>;
  /** Every override of this group on this published course. */
  abstract deleteOverrides(m: EntityManager, organizationId: string, groupId: string, publishedCourseId: string): Promise<void>;
}
