import { Type, type Static } from '@sinclair/typebox';
import { omitEmpty } from '../../core/http/optional-members';
import { encodeId } from '../../core/ids/ids';
import { declaredV1, PublicId } from '../../core/openapi/declared-shape';
import type { ContentItemView } from './content-items.v1.service';

/**
 * The published /v1 LessonContentItem (and LessonContentItemUpdate), declared once
 * (core/openapi/declared-shape.ts): the content ids left out without a value (optional, not nullable).
 */
export const ContentItemSchema = declaredV1(
  ['LessonContentItem', 'LessonContentItemUpdate'],
  Type.Object({
    id: PublicId(),
    lesson_id: PublicId(),
    type: Type.String(),
    header: Type.String(),
    order: Type.Integer(),
    content_html: Type.String(),
    content_asset_id: Type.Optional(PublicId()),
    content_quiz_id: Type.Optional(PublicId()),
    content_rating_id: Type.Optional(PublicId()),
  }),
);
export type ContentItemV1 = Static<typeof ContentItemSchema>;

/** A stored block -> the v1 LessonContentItem object. Pure. */
export function presentContentItem(v: ContentItemView): ContentItemV1 {
  const x = v.item;
  // the content ids are left out without a value (optional, not nullable in the published LessonContentItem)
  return omitEmpty(
    {
      id: encodeId('contentItem', x.id),
      lesson_id: encodeId('lesson', v.lessonId),
      type: x.type,
      header: x.header,
      order: x.order,
      content_html: x.content_html ?? '',
      content_asset_id: x.asset_id ? encodeId('asset', x.asset_id) : null,
      content_quiz_id: x.quiz_id ? encodeId('quiz', x.quiz_id) : null,
      // a RATING item is its rating content block (rating-content-blocks.v1.service.ts): the block's id
      content_rating_id: x.type === 'RATING' ? encodeId('ratingContentBlock', x.id) : null,
    },
    ['content_asset_id', 'content_quiz_id', 'content_rating_id'],
  );
}
