import { isoOf, type Timestamp } from '../../core/database/pool-reads';
import { cachedPublicId, encodeId } from '../../core/ids/ids';
import type { Group } from './group.entity';
import type { VisibilityOverride } from './visibility-override.entity';

export interface GroupResource {
  type: 'groups';
  id: string;
  attributes: {
    name: string;
    rule_email_domains: string[];
    send_course_enrollment_email: boolean | null;
    category_id: string | null;
    created_at: string;
    updated_at: string;
  };
}

/** What a group resource shows: a Group entity, or a row read with these members as pg answers it. */
export type GroupView = Pick<Group, 'id' | 'name' | 'ruleEmailDomains' | 'sendCourseEnrollmentEmail' | 'categoryId'> & { createdAt: Timestamp; updatedAt: Timestamp };

export function presentGroup(g: GroupView): GroupResource {
  return {
    type: 'groups',
    id: cachedPublicId('group', g.id),
    attributes: {
      name: g.name,
      rule_email_domains: g.ruleEmailDomains ?? [],
      send_course_enrollment_email: g.sendCourseEnrollmentEmail ?? null,
      category_id: g.categoryId ? cachedPublicId('groupCategory', g.categoryId) : null,
      created_at: isoOf(g.createdAt),
      updated_at: isoOf(g.updatedAt),
    },
  };
}

/**
 * The public id of a visibility override (core/ids, type `visibilityOverride`). No endpoint takes
 * it as input: overrides are addressed by their (published_course_id, is_visible) tuple.
 */
export function overrideId(uuid: string): string {
  return encodeId('visibilityOverride', uuid);
}

export interface VisibilityOverrideResource {
  type: 'visibility-overrides';
  id: string;
  attributes: { published_course_id: string; is_visible: boolean; created_at: string; updated_at: string };
}

export function presentOverride(o: VisibilityOverride): VisibilityOverrideResource {
  return {
    type: 'visibility-overrides',
    id: overrideId(o.id),
    attributes: {
      published_course_id: encodeId('publishedCourse', o.publishedCourseId),
      is_visible: o.isVisible,
      created_at: o.createdAt.toISOString(),
      updated_at: o.updatedAt.toISOString(),
    },
  };
}
