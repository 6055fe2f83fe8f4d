import { encodeId } from '../../core/ids/ids';
import { PublicIds, publicIdsOf, trimBase } from '../../core/ids/public-ids';
import { contentItemsOf, Lesson, StoredContentItem } from './lesson.entity';

/** What the presenters read of a lesson: an entity, or a row of the /v2 reads mapped by hand (contentItems: the detail's). */
export type LessonFields = Pick<Lesson, 'id' | 'createdAt' | 'updatedAt' | 'courseId' | 'title' | 'type' | 'order' | 'descriptionHtml' | 'contentHtml' | 'quizId' | 'externalId'> & {
  contentItems: unknown;
  /** created_at / updated_at as toISOString() gives them, when the row carries them so (LessonRow) */
  createdIso?: string;
  updatedIso?: string;
};

function base(l: LessonFields, ids: PublicIds) {
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
export function presentLesson(l: LessonFields, baseUrl: string) {
  const ids = publicIdsOf('lesson', l.id);
  return { type: 'lessons' as const, id: ids.id, attributes: base(l, ids), links: links(ids.id, baseUrl) };
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
export function presentContentItem(c: StoredContentItem, ratingScale = 5) {
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

/** Whether the lesson holds a RATING item (its answer then needs the course's rating scale). */
export const hasRatingItem = (l: LessonFields) => l.type === 'MODULAR' && contentItemsOf(l).some((c) => c.type === 'RATING');

/** LessonDetailResource (detail, create, update): content_items only on MODULAR lessons; `ratingScale`: the course's, for a RATING item. */
export function presentLessonDetail(l: LessonFields, baseUrl: string, ratingScale?: number) {
  const ids = publicIdsOf('lesson', l.id);
  const id = ids.id;
  return {
    type: 'lessons' as const,
    id,
    attributes: { ...base(l, ids), ...(l.type === 'MODULAR' ? { content_items: contentItemsOf(l).map((c) => presentContentItem(c, ratingScale)) } : {}) },
    links: links(id, baseUrl),
  };
}
export type LessonDetailResource = ReturnType<typeof presentLessonDetail>;
