import { Type, type Static } from '@sinclair/typebox';
import { declaredV1, PublicId } from '../../core/openapi/declared-shape';

/**
 * The /v1 shapes of a published course's links (tags, group visibility overrides, prerequisites),
 * declared once (core/openapi/declared-shape.ts) where the extras service, which presents them, may
 * import them (docs/decisions/module-graph.md: a service never imports a presenter).
 */

const StudentGroupSummary = Type.Object({ id: PublicId(), name: Type.String() });

/** PublishedCourseTag: `{tag: {id, name, slug}}`. */
export const PublishedCourseTagSchema = declaredV1('PublishedCourseTag', Type.Object({ tag: Type.Object({ id: PublicId(), name: Type.String(), slug: Type.String() }) }));
export type PublishedCourseTagV1 = Static<typeof PublishedCourseTagSchema>;

/** PublishedCourseGroupVisibility: `{student_group: {id, name}, is_visible}`. */
export const PublishedCourseGroupVisibilitySchema = declaredV1('PublishedCourseGroupVisibility', Type.Object({ student_group: StudentGroupSummary, is_visible: Type.Boolean() }));
export type PublishedCourseGroupVisibilityV1 = Static<typeof PublishedCourseGroupVisibilitySchema>;

/** PublishedCoursePrerequisite: `{published_course: {id}}`. */
export const PublishedCoursePrerequisiteSchema = declaredV1('PublishedCoursePrerequisite', Type.Object({ published_course: Type.Object({ id: PublicId() }) }));
export type PublishedCoursePrerequisiteV1 = Static<typeof PublishedCoursePrerequisiteSchema>;

/** PublishedCourseStudentGroupPrerequisite: `{student_group: {id, name}}`. */
export const PublishedCourseStudentGroupPrerequisiteSchema = declaredV1('PublishedCourseStudentGroupPrerequisite', Type.Object({ student_group: StudentGroupSummary }));
export type PublishedCourseStudentGroupPrerequisiteV1 = Static<typeof PublishedCourseStudentGroupPrerequisiteSchema>;
