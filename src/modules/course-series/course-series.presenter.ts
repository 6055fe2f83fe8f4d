import { Type, type Static } from '@sinclair/typebox';
import { encodeId } from '../../core/ids/ids';
import { declaredV1, PublicId } from '../../core/openapi/declared-shape';
import { presentPublishedCourseSettings, PublishedCourseSettingsSchema } from '../published-courses/published-courses.presenter';
import { OfferSchema, presentOffer } from '../commerce/offers.presenter';
import { domainBase } from '../domains/domain-url';
import type { CourseSeriesView, SeriesCourseRow } from './course-series.service';

/** The published /v1 CourseSeries, declared once (core/openapi/declared-shape.ts). */
export const CourseSeriesSchema = declaredV1(
  'CourseSeries',
  Type.Object({
    id: PublicId(),
    title: Type.String(),
    visible_on_catalog: Type.Boolean(),
    series_url: Type.String(),
    published_course_count: Type.Integer(),
    offer: Type.Optional(OfferSchema),
  }),
);

/** A published course of a series: the published PublishedCourse. */
export const SeriesCourseSchema = declaredV1(
  'PublishedCourse',
  Type.Object({
    id: PublicId(),
    course: Type.Object({ id: PublicId(), title: Type.String(), lesson_count: Type.Integer(), required_lesson_count: Type.Integer() }),
    slug: Type.String(),
    course_url: Type.String(),
    ...PublishedCourseSettingsSchema.properties,
    offer: Type.Optional(OfferSchema),
  }),
);

export function presentCourseSeries(v: CourseSeriesView): Static<typeof CourseSeriesSchema> {
  return {
    id: encodeId('courseSeries', v.series.id),
    title: v.series.title,
    visible_on_catalog: v.series.visibleOnCatalog,
    series_url: `${domainBase(v.domainName)}/series/${v.series.slug}`,
    published_course_count: v.courseCount,
    offer: presentOffer(v.offer, v.domainName) ?? undefined,
  };
}

export function presentSeriesCourse(r: SeriesCourseRow, domainName: string): Static<typeof SeriesCourseSchema> {
  return {
    id: encodeId('publishedCourse', r.id),
    course: { id: encodeId('course', r.course_id), title: r.title, lesson_count: r.lesson_count, required_lesson_count: r.required_count },
    slug: r.slug,
    course_url: `${domainBase(domainName)}/${r.slug}`,
    ...presentPublishedCourseSettings(r),
    offer: presentOffer(r.offer, domainName) ?? undefined,
  };
}
