import { omitEmpty } from '../../core/http/optional-members';
import { encodeId } from '../../core/ids/ids';
import { Course } from './course.entity';
import { courseTime } from './course-time';
import type { CourseExtras } from './courses.v1.service';

/** Course -> the v1 Course object. Pure: the extras are loaded for the whole page beforehand. */
export function presentCourse(c: Course, x: CourseExtras) {
  // left out without a value (optional, not nullable in the published Course)
  return omitEmpty(
    {
      id: encodeId('course', c.id),
      title: c.title,
      short_description: c.shortDescription,
      long_description_html: c.longDescriptionHtml,
      enforce_sequential_navigation: c.enforceSequentialNavigation,
      labels: x.labels.get(c.id) ?? [],
      draft_origin_id: c.draftOriginId ? encodeId('course', c.draftOriginId) : null,
      promo_image_url: c.promoImageUrl,
      display_course_and_lesson_time: c.displayCourseAndLessonTime,
      manual_course_time: c.manualCourseTime,
      display_manual_course_time: c.displayManualCourseTime,
      course_and_lesson_time_format: c.courseAndLessonTimeFormat,
      course_time: courseTime(c, x.seconds.get(c.id) ?? 0),
      average_rating: x.ratings.get(c.id) ?? null,
      created_at: c.createdAt.toISOString(),
      modified_at: c.updatedAt.toISOString(),
      // extensions (CONVENTIONS §15): the certificate settings
      issues_certificate: c.issuesCertificate,
      certificate_validity_days: c.certificateValidityDays,
    },
    ['draft_origin_id', 'average_rating'],
  );
}
