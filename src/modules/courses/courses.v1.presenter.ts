import { Type, type Static } from '@sinclair/typebox';
import { omitEmpty } from '../../core/http/optional-members';
import { DateTime, declaredV1, ext, nullable, PublicId } from '../../core/openapi/declared-shape';
import { encodeId } from '../../core/ids/ids';
import { Course } from './course.entity';
import { courseTime } from './course-time';
import type { CourseExtras } from './courses.v1.service';

export const COURSE_TIME_FORMATS = ['HOURS_MINUTES_SECONDS', 'HOURS_MINUTES', 'HOURS_MINUTES_VERBOSE', 'MINUTES_VERBOSE'] as const;

/**
 * The published /v1 Course, declared once (core/openapi/declared-shape.ts): `draft_origin_id` and
 * `average_rating` left out without a value (optional, not nullable); the certificate settings are
 * extensions (CONVENTIONS §15).
 */
export const CourseSchema = declaredV1(
  'Course',
  Type.Object({
    id: PublicId(),
    title: Type.String(),
    short_description: Type.String(),
    long_description_html: Type.String(),
    enforce_sequential_navigation: Type.Boolean(),
    labels: Type.Array(Type.String()),
    draft_origin_id: Type.Optional(PublicId()),
    promo_image_url: Type.String(),
    display_course_and_lesson_time: Type.Boolean(),
    manual_course_time: Type.String(),
    display_manual_course_time: Type.Boolean(),
    course_and_lesson_time_format: Type.String({ enum: [...COURSE_TIME_FORMATS] }),
    course_time: Type.String(),
    average_rating: Type.Optional(Type.Number()),
    created_at: DateTime(),
    modified_at: DateTime(),
    issues_certificate: Type.Boolean(ext({ description: 'whether a completion issues a certificate' })),
    certificate_validity_days: nullable(Type.Integer(ext({ description: 'validity of an issued certificate in days; null: never expires' }))),
  }),
);
export type CourseV1 = Static<typeof CourseSchema>;

/** Course -> the v1 Course object. Pure: the extras are loaded for the whole page beforehand. */
export function presentCourse(c: Course, x: CourseExtras): CourseV1 {
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
