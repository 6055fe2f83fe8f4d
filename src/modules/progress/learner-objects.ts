import { eventCourse, eventDomain, eventUser } from '../../core/events/bodies';

/** The columns a learner's progress row carries about the learner, the published course and its domain. */
export interface LearnerCourseCols {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  course_id: string;
  published_course_id: string;
  domain_id: string;
  domain_name: string;
  slug: string;
}

/**
 * The `user`, `course` and `domain` objects of an event about a learner in a published course
 * (LESSON_COMPLETION, COURSE_COMPLETION), in that order; `title` is the course's.
 */
export const learnerCourseObjects = (r: LearnerCourseCols, title: string) => ({
  user: eventUser({ id: r.user_id, email: r.email, first_name: r.first_name, last_name: r.last_name }),
  course: eventCourse({ course_id: r.course_id, published_course_id: r.published_course_id, title, domain_name: r.domain_name, slug: r.slug }),
  domain: eventDomain({ id: r.domain_id, name: r.domain_name }),
});
