import { Type, type Static } from '@sinclair/typebox';
import { encodeId } from '../../core/ids/ids';
import { declaredV1, nullable, PublicId } from '../../core/openapi/declared-shape';
import { Lesson } from './lesson.entity';

/**
 * The published /v1 Lesson (and LessonUpdate), declared once (core/openapi/declared-shape.ts).
 * `type` is the stored lesson type (the published Type8b7Enum, and the /v2 kinds: LESSON_TYPES).
 */
export const LessonSchema = declaredV1(
  ['Lesson', 'LessonUpdate'],
  Type.Object({
    id: PublicId(),
    course_id: PublicId(),
    title: Type.String(),
    type: Type.String(),
    order: Type.Integer(),
    content_asset_id: nullable(PublicId()),
    content_html: Type.String(),
    content_quiz_id: nullable(PublicId()),
    content_web_package_id: nullable(PublicId()),
    description_html: Type.String(),
    display_fullscreen: Type.Boolean(),
    optional: Type.Boolean(),
    search_keywords: Type.String(),
    time_seconds: nullable(Type.Integer()),
    tooltip_html: Type.String(),
  }),
);
export type LessonV1 = Static<typeof LessonSchema>;

/** Lesson -> the v1 Lesson (and LessonUpdate) object. Pure. */
export function presentLesson(l: Lesson): LessonV1 {
  return {
    id: encodeId('lesson', l.id),
    course_id: encodeId('course', l.courseId),
    title: l.title,
    type: l.type,
    order: l.order,
    content_asset_id: l.contentAssetId ? encodeId('asset', l.contentAssetId) : null,
    content_html: l.contentHtml ?? '',
    content_quiz_id: l.quizId ? encodeId('quiz', l.quizId) : null,
    content_web_package_id: l.contentWebPackageId ? encodeId('webPackage', l.contentWebPackageId) : null,
    description_html: l.descriptionHtml,
    display_fullscreen: l.displayFullscreen,
    optional: l.optional,
    search_keywords: l.searchKeywords,
    time_seconds: l.timeSeconds,
    tooltip_html: l.tooltipHtml,
  };
}
