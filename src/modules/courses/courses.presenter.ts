import type { Course } from './course.entity';
import type { CourseStats } from './courses.service';
import { publicIdsOf, trimBase } from '../../core/ids/public-ids';

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
  const ids = publicIdsOf('course', c.id);
  const id = ids.id;
  const modified = stats.lessonsUpdatedAt && stats.lessonsUpdatedAt > c.updatedAt ? stats.lessonsUpdatedAt : c.updatedAt;
  return {
    type: 'courses' as const,
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
