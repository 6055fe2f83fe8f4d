import { omitEmpty } from '../../core/http/optional-members';
import { encodeId } from '../../core/ids/ids';
import type { ContentItemView } from './content-items.v1.service';

/** A stored block -> the v1 LessonContentItem object. Pure. */
export function presentContentItem(v: ContentItemView) {
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
