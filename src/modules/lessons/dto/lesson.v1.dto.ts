import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { Bool, Choice, Filter, Int, PageParam, Str, requireMembers } from '../../../core/http/v1-rules';

/** Type8b7Enum of the published v1 document. */
export const LESSON_TYPES = ['ASSET', 'HTML', 'WEB_PACKAGE', 'QUIZ', 'VILT', 'MODULAR', 'SECTION'] as const;

/** LessonUpdateRequest / PatchedLessonUpdateRequest: nothing required (PUT and PATCH). */
export class LessonUpdateRequest {
  @Str({ min: 1, max: 64 }) course_id?: string;
  @Int(0) order?: number;
  @Str({ min: 1, max: 500 }) title?: string;
  @Choice(LESSON_TYPES) type?: string;
  @Str({ min: 1, max: 64, nullable: true }) content_asset_id?: string | null;
  @Str({ max: 1_000_000 }) content_html?: string;
  @Str({ min: 1, max: 64, nullable: true }) content_quiz_id?: string | null;
  @Str({ min: 1, max: 64, nullable: true }) content_web_package_id?: string | null;
  @Str({ max: 1_000_000 }) description_html?: string;
  @Bool() display_fullscreen?: boolean;
  @Bool() optional?: boolean;
  @Str({ max: 5000 }) search_keywords?: string;
  @Int(0, 2147483647, { nullable: true }) time_seconds?: number | null;
  @Str({ max: 1_000_000 }) tooltip_html?: string;
}

/** LessonRequest (POST): course_id, order, title and type required. */
export class LessonRequest extends LessonUpdateRequest {}
requireMembers(LessonRequest, ['course_id', 'order', 'title', 'type']);

export class LessonListQuery {
  @Filter() course_id?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'extension: changed at or after (RFC 3339 with an offset); the list is then ordered by last change' })
  @Allow()
  updated_since?: unknown;
  @PageParam() page?: unknown;
  @PageParam() page_size?: unknown;
}

/** `?course_id=` on update: the lesson must belong to that course. */
export class LessonUpdateQuery {
  @Str() course_id?: string;
}
