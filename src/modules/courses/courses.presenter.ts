import { encodeId } from '../../core/ids/ids';
import type { Course } from './course.entity';
import type { CourseStats } from './courses.service';
import { externalIdOf } from './external-id';

/** What presentCourse reads of a course: an entity, or a row of the /v2 reads mapped by hand. */
export type CourseFields = Pick<
  Course,
  | 'id'
  | 'createdAt'
  | 'updatedAt'
  | 'externalId'
  | 'title'
  | 'shortDescription'
  | 'longDescriptionHtml'
  | 'enforceSequentialNavigation'
  | 'promoImageUrl'
  | 'issuesCertificate'
  | 'certificateValidityDays'
>;

export interface CourseView {
  course: CourseFields;
  stats: CourseStats;
}

/** CourseResource: the computed members come from CoursesService.withStats (one query per page). */
export function presentCourse({ course: c, stats }: CourseView, baseUrl: string) {
  const id = encodeId('course', c.id);
  const modified = stats.lessonsUpdatedAt && stats.lessonsUpdatedAt > c.updatedAt ? stats.lessonsUpdatedAt : c.updatedAt;
  return {
    type: 'courses' as const,
    id,
    attributes: {
      external_id: externalIdOf('course', c.id, c.externalId),
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
    links: { self: `${baseUrl.replace(/\/$/, '')}/v2/courses/${id}` },
  };
}
