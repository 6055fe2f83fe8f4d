import { encodeId } from '../../core/ids/ids';
import type { ContentItemView } from './content-items.v1.service';

/** A stored block -> the v1 LessonContentItem object. Pure. */
export function presentContentItem(v: ContentItemView) {
  const x = v.item;
  return {
    id: encodeId('contentItem', x.id),
    lesson_id: encodeId('lesson', v.lessonId),
    type: x.type,
    header: x.header,
    order: x.order,
    content_html: x.content_html ?? '',
    content_asset_id: x.asset_id ? encodeId('asset', x.asset_id) : null,
    content_quiz_id: x.quiz_id ? encodeId('quiz', x.quiz_id) : null,
    // Rating content blocks are not built yet: a RATING block has no rating block id.
    ...(x.type === 'RATING' && { content_rating_id: null }),
  };
}
