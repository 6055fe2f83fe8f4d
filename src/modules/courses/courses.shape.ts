import type { Course } from './course.entity';
import type { CourseStats } from './courses.service';

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
