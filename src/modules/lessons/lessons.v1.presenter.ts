import { encodeId } from '../../core/ids/ids';
import { Lesson } from './lesson.entity';

/** Lesson -> the v1 Lesson (and LessonUpdate) object. Pure. */
export function presentLesson(l: Lesson) {
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
