import { Choice, Int, Str, requireMembers } from '../../../core/http/v1-rules';

/** Type1d9Enum of the published v1 document. */
export const CONTENT_ITEM_TYPES = ['ASSET', 'HTML', 'QUIZ', 'RATING'] as const;

/** LessonContentItemUpdateRequest / Patched...: nothing required (PUT and PATCH). */
export class ContentItemUpdateRequest {
  @Str({ min: 1, max: 500 }) header?: string;
  @Int(0) order?: number;
  @Choice(CONTENT_ITEM_TYPES) type?: string;
  @Str({ min: 1, max: 64 }) content_asset_id?: string;
  @Str({ max: 1_000_000 }) content_html?: string;
  @Str({ min: 1, max: 64 }) content_quiz_id?: string;
  @Str({ min: 1, max: 64 }) lesson_id?: string;
}

/** LessonContentItemRequest (POST): header, order and type required. */
export class ContentItemRequest extends ContentItemUpdateRequest {}
requireMembers(ContentItemRequest, ['header', 'order', 'type']);
