import { encodeId } from '../../core/ids/ids';
import { presentPublishedCourseSettings } from '../published-courses/published-courses.presenter';
import { presentOffer } from '../commerce/offers.presenter';
import { domainBase } from '../domains/domain-url';
import type { CourseSeriesView, SeriesCourseRow } from './course-series.service';

/** CourseSeries: id, title, visible_on_catalog, series_url, published_course_count, offer. */
export function presentCourseSeries(v: CourseSeriesView) {
  return {
    id: encodeId('courseSeries', v.series.id),
    title: v.series.title,
    visible_on_catalog: v.series.visibleOnCatalog,
    series_url: `${domainBase(v.domainName)}/series/${v.series.slug}`,
    published_course_count: v.courseCount,
    offer: presentOffer(v.offer, v.domainName),
  };
}

/** A published course of a series (the published PublishedCourse schema). */
export function presentSeriesCourse(r: SeriesCourseRow, domainName: string) {
  return {
    id: encodeId('publishedCourse', r.id),
    course: { id: encodeId('course', r.course_id), title: r.title, lesson_count: r.lesson_count, required_lesson_count: r.required_count },
    slug: r.slug,
    course_url: `${domainBase(domainName)}/${r.slug}`,
    ...presentPublishedCourseSettings(r),
    offer: presentOffer(r.offer, domainName),
  };
}
