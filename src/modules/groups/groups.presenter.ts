import { Type, type Static } from '@sinclair/typebox';
import { isoOf } from '../../core/database/pool-reads';
import { DateTime, declaredV2, nullable, PublicId, V2UnlinkedResourceSchema } from '../../core/openapi/declared-shape';
import { cachedPublicId, encodeId } from '../../core/ids/ids';
import type { VisibilityOverride } from './visibility-override.entity';
import type { GroupView } from './groups.shape';
export type { GroupView } from './groups.shape';

/** GroupResource of the published /v2 document, declared once (core/openapi/declared-shape.ts): the type of presentGroup's result. */
export const GroupResourceSchema = declaredV2(
  'GroupResource',
  V2UnlinkedResourceSchema(
    'groups',
    Type.Object({
      name: Type.String({ description: 'Group name.' }),
      rule_email_domains: Type.Array(Type.String(), { description: 'Email domains whose students join the group automatically.' }),
      send_course_enrollment_email: nullable(Type.Boolean({ description: 'Whether members get the course enrollment email; null: the default.' })),
      category_id: nullable(PublicId({ description: 'Opaque id of the group category; null without one.' })),
      created_at: DateTime(),
      updated_at: DateTime(),
    }),
    { description: 'A group (GroupResource).' },
  ),
);
export type GroupResource = Static<typeof GroupResourceSchema>;

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

/** VisibilityOverrideResource of the published /v2 document, declared once: the type of presentOverride's result. */
export const VisibilityOverrideResourceSchema = declaredV2(
  'VisibilityOverrideResource',
  V2UnlinkedResourceSchema(
    'visibility-overrides',
    Type.Object({
      published_course_id: PublicId({ description: 'Opaque id of the published course.' }),
      is_visible: Type.Boolean({ description: 'Whether the group sees the published course.' }),
      created_at: DateTime(),
      updated_at: DateTime(),
    }),
    { description: "A group's visibility override of a published course (VisibilityOverrideResource)." },
  ),
);
export type VisibilityOverrideResource = Static<typeof VisibilityOverrideResourceSchema>;

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
