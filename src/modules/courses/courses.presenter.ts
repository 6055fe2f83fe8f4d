import { Type, type Static } from '@sinclair/typebox';
import { DateTime, declaredV2, nullable, V2ResourceSchema } from '../../core/openapi/declared-shape';
import { publicIdsOf, trimBase } from '../../core/ids/public-ids';
import type { CourseView } from './courses.shape';
export type { CourseFields, CourseView } from './courses.shape';

/**
 * CourseResource of the published /v2 document, declared once (core/openapi/declared-shape.ts):
 * the type of presentCourse's result; the certificate settings are extension members (x-extension).
 */
export const CourseResourceSchema = declaredV2(
  'CourseResource',
  V2ResourceSchema(
    'courses',
    Type.Object({
      external_id: Type.String({ description: 'Stable id for cross-system correlation.' }),
      title: Type.String({ description: 'Course title.' }),
      short_description: Type.String({ description: 'Short description shown on course tiles.' }),
      long_description_html: Type.String({ description: 'Long description as HTML content.' }),
      enforce_sequential_navigation: Type.Boolean({ description: 'If true, students must complete the current lesson before accessing the next.' }),
      lesson_count: Type.Integer({ description: 'Total number of lessons in the course.' }),
      is_published: Type.Boolean({ description: 'True if the course is published on at least one live domain.' }),
      promo_image_url: Type.String({ description: 'Promo image URL, or "" if no image is set.' }),
      average_rating: nullable(Type.Number({ description: 'Average of all student ratings, or null when no ratings exist.' })),
      created_at: DateTime({ description: 'Course creation timestamp.' }),
      modified_at: DateTime({ description: "Latest update timestamp: the latest of the course's and its lessons' updated_at." }),
      issues_certificate: Type.Boolean({ 'x-extension': true, description: 'Whether completing the course issues a certificate.' }),
      certificate_validity_days: nullable(Type.Integer({ 'x-extension': true, description: 'Days a certificate stays valid; null: no expiry.' })),
    }),
    { description: 'A course (CourseResource).' },
  ),
);
export type CourseResource = Static<typeof CourseResourceSchema>;

/** CourseResource: the computed members come from CoursesService.withStats (one query per page). */
export function presentCourse({ course: c, stats }: CourseView, baseUrl: string): CourseResource {
  const ids = publicIdsOf('course', c.id);
  const id = ids.id;
  const modified = stats.lessonsUpdatedAt && stats.lessonsUpdatedAt > c.updatedAt ? stats.lessonsUpdatedAt : c.updatedAt;
  return {
    type: 'courses',
    id,
    attributes: {
      external_id: c.externalId ? c.externalId : ids.derivedExternalId,
      title: c.title,
      short_description: c.shortDescription,
      long_description_html: c.longDescriptionHtml,
      enforce_sequential_navigation: c.enforceSequentialNavigation,
      lesson_count: stats.lessonCount,
      is_published: stats.isPublished,
      promo_image_url: c.promoImageUrl,
      average_rating: stats.averageRating,
      created_at: c.createdAt.toISOString(),
      modified_at: modified.toISOString(),
      // extensions (CONVENTIONS §15): the certificate settings, as on /v1
      issues_certificate: c.issuesCertificate,
      certificate_validity_days: c.certificateValidityDays,
    },
    links: { self: `${trimBase(baseUrl)}/v2/courses/${id}` },
  };
}
