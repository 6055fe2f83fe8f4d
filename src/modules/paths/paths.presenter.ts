import { Type, type Static } from '@sinclair/typebox';
import { encodeId } from '../../core/ids/ids';
import { DateTime, declaredV1, ext, PublicId } from '../../core/openapi/declared-shape';
import { presentLabelAssociation } from '../labels-tags/labels.service';
import type { LearningPath } from './path.entity';
import type { EnrollmentView } from './path-enrollments.service';
import type { PathItemView } from './path-items.service';
import { pathUrl } from './path-lookups.service';
import type { OverrideRow } from './published-path-links.service';
import type { PublishedPathView, TagRow } from './published-paths.service';
import { OfferSchema, presentOffer } from '../commerce/offers.presenter';
import { presentEnrollment } from '../enrollments/program-enrollments.presenter';

/** The published /v1 Path (/v1/paths and the `path` member of a published path), declared once (core/openapi/declared-shape.ts). */
export const PathSchema = declaredV1(
  ['Path', 'CreatePath'],
  Type.Object({
    id: PublicId(),
    title: Type.String(),
    promo_image_url: Type.String(),
    short_description: Type.String(),
    long_description_html: Type.String(),
    header_html: Type.String(),
    course_name_singular: Type.String(),
    course_name_plural: Type.String(),
    path_item_count: Type.Integer(),
  }),
);
export type PathV1 = Static<typeof PathSchema>;

export function presentPath(path: LearningPath, itemCount: number): PathV1 {
  return {
    id: encodeId('path', path.id),
    title: path.title,
    promo_image_url: path.promoImageUrl,
    short_description: path.shortDescription,
    long_description_html: path.longDescriptionHtml,
    header_html: path.headerHtml,
    course_name_singular: path.courseNameSingular,
    course_name_plural: path.courseNamePlural,
    path_item_count: itemCount,
  };
}

const TagRefSchema = Type.Object({ id: PublicId(), name: Type.String(), slug: Type.String() });

/**
 * The published /v1 PublishedPath (and UpdatePublishedPath), declared once
 * (core/openapi/declared-shape.ts); with include_searchable_content the searchable members (extensions) are added.
 */
export const PublishedPathSchema = declaredV1(
  ['PublishedPath', 'UpdatePublishedPath'],
  Type.Object({
    id: PublicId(),
    slug: Type.String(),
    path: PathSchema,
    path_url: Type.String(),
    hidden: Type.Boolean(),
    strict_enforce_group_visibility: Type.Boolean(),
    offer: Type.Optional(OfferSchema),
    unique_progress_per_enrollment: Type.Boolean(),
    created_at: DateTime(),
    modified_at: DateTime(),
    path_item_list: Type.Optional(Type.Array(Type.Object({ id: Type.String(), title: Type.String() }), ext({ description: 'include_searchable_content' }))),
    title: Type.Optional(Type.String(ext({ description: 'include_searchable_content' }))),
    short_description: Type.Optional(Type.String(ext({ description: 'include_searchable_content' }))),
    long_description_html: Type.Optional(Type.String(ext({ description: 'include_searchable_content' }))),
    search_keywords: Type.Optional(Type.String(ext({ description: 'include_searchable_content' }))),
    tags: Type.Optional(Type.Array(TagRefSchema, ext({ description: 'include_searchable_content' }))),
  }),
);
export type PublishedPathV1 = Static<typeof PublishedPathSchema>;

export function presentPublishedPath(v: PublishedPathView): PublishedPathV1 {
  const out: PublishedPathV1 = {
    id: encodeId('publishedPath', v.pp.id),
    slug: v.pp.slug,
    path: presentPath(v.path, v.itemCount),
    path_url: pathUrl(v.domainName, v.pp.slug),
    hidden: v.pp.hidden,
    strict_enforce_group_visibility: v.pp.strictEnforceGroupVisibility,
    offer: presentOffer(v.offer, v.domainName) ?? undefined,
    unique_progress_per_enrollment: v.pp.uniqueProgressPerEnrollment,
    created_at: v.pp.createdAt.toISOString(),
    modified_at: (v.path.updatedAt > v.pp.updatedAt ? v.path.updatedAt : v.pp.updatedAt).toISOString(),
  };
  if (v.items) {
    out.path_item_list = v.items.map((i) => ({ id: i.id, title: i.title }));
    out.title = v.path.title;
    out.short_description = v.path.shortDescription;
    out.long_description_html = v.path.longDescriptionHtml;
    out.search_keywords = v.path.searchKeywords;
    out.tags = (v.tags ?? []).map(presentTagRef);
  }
  return out;
}

/** The published PublishedPathPathItem: `{id, order, published_course {id, course_id, slug}}`. */
export const PublishedPathItemSchema = declaredV1(
  ['PublishedPathPathItem', 'PublishedPathPathItemUpdate'],
  Type.Object({ id: PublicId(), order: Type.Integer(), published_course: Type.Object({ id: PublicId(), course_id: PublicId(), slug: Type.String() }) }),
);

export function presentPublishedPathItem(v: PathItemView): Static<typeof PublishedPathItemSchema> {
  return {
    id: encodeId('pathItem', v.item.id),
    order: v.item.order,
    published_course: { id: encodeId('publishedCourse', v.item.publishedCourseId), course_id: encodeId('course', v.courseId), slug: v.slug },
  };
}

/** The published PathItem of /v1/paths: `{id, slug, course {id, title, lesson_count, required_lesson_count}}`. */
export const PathItemSchema = declaredV1(
  'PathItem',
  Type.Object({
    id: PublicId(),
    slug: Type.String(),
    course: Type.Object({ id: PublicId(), title: Type.String(), lesson_count: Type.Integer(), required_lesson_count: Type.Integer() }),
  }),
);

export function presentPathItem(v: PathItemView): Static<typeof PathItemSchema> {
  return {
    id: encodeId('pathItem', v.item.id),
    slug: v.slug,
    course: { id: encodeId('course', v.courseId), title: v.courseTitle, lesson_count: v.lessonCount, required_lesson_count: v.requiredLessonCount },
  };
}

const presentTagRef = (t: TagRow): Static<typeof TagRefSchema> => ({ id: encodeId('tag', t.id), name: t.name, slug: t.slug });

/** The published PublishedPathTag: `{tag: {id, name, slug}}`. */
export const PublishedPathTagSchema = declaredV1('PublishedPathTag', Type.Object({ tag: TagRefSchema }));
export const presentTag = (t: TagRow): Static<typeof PublishedPathTagSchema> => ({ tag: presentTagRef(t) });

/** The published PublishedPathGroupVisibility: `{student_group: {id, name}, is_visible}`. */
export const PublishedPathGroupVisibilitySchema = declaredV1(
  'PublishedPathGroupVisibility',
  Type.Object({ student_group: Type.Object({ id: PublicId(), name: Type.String() }), is_visible: Type.Boolean() }),
);
export const presentOverride = (o: OverrideRow): Static<typeof PublishedPathGroupVisibilitySchema> => ({ student_group: { id: encodeId('group', o.id), name: o.name }, is_visible: o.is_visible });

/** NestedLabelAssociation: the one presenter of labels-tags. */
export const presentLabel = presentLabelAssociation;

export const presentPathEnrollment = (v: EnrollmentView) => presentEnrollment('publishedPathEnrollment', v.e, v.users, v.offer);
