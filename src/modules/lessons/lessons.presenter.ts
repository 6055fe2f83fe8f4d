import { Type, type Static } from '@sinclair/typebox';
import { encodeId } from '../../core/ids/ids';
import { DateTime, declaredV2, nullable, PublicId, V2ResourceSchema } from '../../core/openapi/declared-shape';
import { PublicIds, publicIdsOf, trimBase } from '../../core/ids/public-ids';
import { contentItemsOf, StoredContentItem } from './lesson.entity';
import type { LessonFields, WrittenLesson } from './lessons.shape';
export { type LessonFields, hasRatingItem } from './lessons.shape';

/**
 * LessonAttributes / LessonDetailAttributes of the published /v2 document, declared once
 * (core/openapi/declared-shape.ts): the types of presentLesson's and presentLessonDetail's results.
 */
const LESSON_ATTRIBUTES = {
  title: Type.String({ description: 'Lesson title.' }),
  type: Type.String({ description: 'Lesson type code (e.g. HTML).' }),
  order: Type.Integer({ description: 'Ordering value within the parent course.' }),
  course_id: PublicId({ description: 'Opaque id of the parent course.' }),
  description_html: Type.String({ description: 'HTML description shown above the lesson body.' }),
  content_html: nullable(Type.String({ description: 'HTML body of the lesson (when type="HTML").' })),
  quiz_id: nullable(PublicId({ description: 'Opaque id of the referenced quiz (when type="QUIZ").' })),
  external_id: Type.String({ description: 'Stable id for cross-system correlation.' }),
  created_at: DateTime({ description: 'Timestamp when the lesson was created.' }),
  modified_at: DateTime({ description: 'Timestamp when the lesson was last modified.' }),
};
export const LessonResourceSchema = declaredV2('LessonResource', V2ResourceSchema('lessons', Type.Object(LESSON_ATTRIBUTES), { description: 'A lesson (LessonResource).' }));
export type LessonResource = Static<typeof LessonResourceSchema>;

/**
 * RatingConfig of a RATING item: the stored members as the writer validated them (passed through),
 * the labels on a 10-point scale only, and the course's `rating_scale`.
 */
const RatingConfigSchema = Type.Unsafe<Record<string, unknown> & { rating_scale: number }>(
  Type.Object({
    rating_question: Type.Optional(nullable(Type.String())),
    additional_feedback_question: Type.Optional(nullable(Type.String())),
    include_additional_feedback: Type.Optional(nullable(Type.Boolean())),
    rating_scale_low_label: Type.Optional(nullable(Type.String({ description: 'Low-end label (10-point scale only).' }))),
    rating_scale_high_label: Type.Optional(nullable(Type.String({ description: 'High-end label (10-point scale only).' }))),
    rating_scale: Type.Integer({ enum: [5, 10], description: "The course's rating scale (5 or 10)." }),
  }),
);

/** ContentItemResource: the members of other block types are left out. */
export const ContentItemSchema = Type.Object({
  id: PublicId({ description: 'Opaque content-item id.' }),
  type: Type.String({ description: 'Content item type code.' }),
  header: Type.String({ description: 'Header shown above the block.' }),
  content_html: Type.Optional(Type.String({ description: 'HTML body (when type is "HTML").' })),
  asset_id: Type.Optional(PublicId({ description: 'Opaque asset id (when type is "VIDEO"/"AUDIO"/"ASSET").' })),
  quiz_id: Type.Optional(PublicId({ description: 'Opaque quiz id (when type is "QUIZ").' })),
  rating: Type.Optional(RatingConfigSchema),
});
export type ContentItemResource = Static<typeof ContentItemSchema>;

export const LessonDetailResourceSchema = declaredV2(
  'LessonDetailResource',
  V2ResourceSchema('lessons', Type.Object({ ...LESSON_ATTRIBUTES, content_items: Type.Optional(Type.Array(ContentItemSchema, { description: 'Ordered content blocks; only on MODULAR lessons.' })) }), {
    description: 'A lesson with its content items (LessonDetailResource).',
  }),
);
export type LessonDetailResource = Static<typeof LessonDetailResourceSchema>;

function base(l: LessonFields, ids: PublicIds): LessonResource['attributes'] {
  return {
    title: l.title,
    type: l.type,
    order: l.order,
    course_id: publicIdsOf('course', l.courseId).id,
    description_html: l.descriptionHtml,
    content_html: l.contentHtml,
    quiz_id: l.quizId ? encodeId('quiz', l.quizId) : null,
    external_id: l.externalId ? l.externalId : ids.derivedExternalId,
    created_at: l.createdIso ?? l.createdAt.toISOString(),
    modified_at: l.updatedIso ?? l.updatedAt.toISOString(),
  };
}

function links(id: string, baseUrl: string) {
  return { self: `${trimBase(baseUrl)}/v2/lessons/${id}` };
}

/** LessonResource (list): never carries content_items. */
export function presentLesson(l: LessonFields, baseUrl: string): LessonResource {
  const ids = publicIdsOf('lesson', l.id);
  return { type: 'lessons', id: ids.id, attributes: base(l, ids), links: links(ids.id, baseUrl) };
}

/**
 * A RATING item's RatingConfig: `rating_scale` is the course's effective scale (stored on the course,
 * never the block's own copy); the low/high labels are 10-point only, left out on a 5-point scale
 * (docs/decisions/conformance.md).
 */
function presentRating(stored: Record<string, unknown> | undefined, scale: number) {
  const { rating_scale: _own, rating_scale_low_label, rating_scale_high_label, ...rest } = stored ?? {};
  const labels = scale === 10 ? Object.fromEntries(Object.entries({ rating_scale_low_label, rating_scale_high_label }).filter(([, v]) => v !== undefined)) : {};
  return { ...rest, ...labels, rating_scale: scale };
}

/** ContentItemResource: members of other block types are omitted. `ratingScale`: the lesson's course's (5 when unknown). */
export function presentContentItem(c: StoredContentItem, ratingScale = 5): ContentItemResource {
  return {
    id: encodeId('contentItem', c.id),
    type: c.type,
    header: c.header ?? '',
    ...(c.type === 'HTML' ? { content_html: c.content_html ?? '' } : {}),
    ...((c.type === 'VIDEO' || c.type === 'AUDIO' || c.type === 'ASSET') && c.asset_id ? { asset_id: encodeId('asset', c.asset_id) } : {}),
    ...(c.type === 'QUIZ' && c.quiz_id ? { quiz_id: encodeId('quiz', c.quiz_id) } : {}),
    ...(c.type === 'RATING' ? { rating: presentRating(c.rating, ratingScale) } : {}),
  };
}

/** LessonDetailResource (detail, create, update): content_items only on MODULAR lessons; `ratingScale`: the course's, for a RATING item. */
export function presentLessonDetail(l: LessonFields, baseUrl: string, ratingScale?: number): LessonDetailResource {
  const ids = publicIdsOf('lesson', l.id);
  const id = ids.id;
  return {
    type: 'lessons',
    id,
    attributes: { ...base(l, ids), ...(l.type === 'MODULAR' ? { content_items: contentItemsOf(l).map((c) => presentContentItem(c, ratingScale)) } : {}) },
    links: links(id, baseUrl),
  };
}

/** A lesson a /v2 batch wrote (LessonsService.createMany / updateMany), as LessonDetailResource. */
export const presentWrittenLesson = (w: WrittenLesson, baseUrl: string): LessonDetailResource => presentLessonDetail(w.lesson, baseUrl, w.ratingScale);
