import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DateTime, declaredV1, ext, PublicId } from '../../core/openapi/declared-shape';
import { encodeId } from '../../core/ids/ids';
import { iso } from '../../core/http/v1-rules';
import { publicIdsOf } from '../../core/ids/public-ids';
import type { OfferRow } from '../commerce/offers';
import { OfferSchema, presentOffer } from '../commerce/offers.presenter';
import type { LessonStats, PublishedCourseRow, PublishedCourseSettingsRow, SearchableLesson } from './published-courses.store';

// the row types moved to the store (issue 27); re-exported for the importers of this path
export type { LessonStats, PublishedCourseRow, PublishedCourseSettingsRow, SearchableLesson } from './published-courses.store';

/** `iso` of a timestamp column: pg gives a Date, formatted without the copy `iso` makes of it (same text). */
const isoOf = (d: Date | string | null | undefined): string | null => (d instanceof Date ? d.toISOString() : iso(d));

/**
 * The published fields of those settings (PublishedCourse and a series' courses), declared once
 * (core/openapi/declared-shape.ts): `timezone` always null; the registration window's ends are left
 * out when not set (optional, not nullable in the published PublishedCourse).
 */
export const PublishedCourseSettingsSchema = Type.Object({
  hidden: Type.Boolean(),
  strict_enforce_group_visibility: Type.Boolean(),
  registration_required: Type.Boolean(),
  registration_starts_at: Type.Optional(DateTime()),
  registration_ends_at: Type.Optional(DateTime()),
  restrict_access_start_end_dates: Type.Boolean(),
  allow_self_service_reenroll: Type.Boolean(),
  unique_progress_per_enrollment: Type.Boolean(),
  require_all_prerequisites: Type.Boolean(),
  timezone: Type.Null(),
});
export type PublishedCourseSettings = Static<typeof PublishedCourseSettingsSchema>;

/** The settings of a published course row (the one presenter: presentPublishedCourse and the series' courses spread it). */
export function presentPublishedCourseSettings(r: PublishedCourseSettingsRow): PublishedCourseSettings {
  return {
    hidden: r.is_hidden,
    strict_enforce_group_visibility: r.strict_enforce_group_visibility,
    registration_required: r.registration_required,
    ...(r.registration_starts_at ? { registration_starts_at: isoOf(r.registration_starts_at)! } : {}),
    ...(r.registration_ends_at ? { registration_ends_at: isoOf(r.registration_ends_at)! } : {}),
    restrict_access_start_end_dates: r.restrict_access_start_end_dates,
    allow_self_service_reenroll: r.allow_self_service_reenroll,
    unique_progress_per_enrollment: r.unique_progress_per_enrollment,
    require_all_prerequisites: r.require_all_prerequisites,
    timezone: null,
  };
}

export interface PresentOptions {
  domainName: string;
  stats: Map<string, LessonStats>;
  /** the read (PublishedCourseDetail): course also carries its descriptions */
  detail?: boolean;
  /** include_searchable_content: lessons of each course */
  searchable?: Map<string, SearchableLesson[]>;
  /** include_searchable_content: tags of each published course */
  tags?: Map<string, { id: string; name: string; slug: string }[]>;
  /** the offer of each published course (commerce loadOffers) */
  offers?: Map<string, OfferRow>;
}

/** encodeId('publishedCourse', uuid), remembered per uuid (a catalog page encodes 100 per request). */
const publishedIds = new Map<string, string>();
const PUBLISHED_IDS_LIMIT = 20_000;
function publishedCourseId(uuid: string): string {
  let id = publishedIds.get(uuid);
  if (id === undefined) {
    id = encodeId('publishedCourse', uuid);
    if (publishedIds.size >= PUBLISHED_IDS_LIMIT) publishedIds.clear();
    publishedIds.set(uuid, id);
  }
  return id;
}

/** The course of a published course (the published CourseSummary, and its title). */
const CourseSummaryV1 = Type.Object({ id: PublicId(), title: Type.String(ext()), lesson_count: Type.Integer(), required_lesson_count: Type.Integer() });
/** The course of a published course's read (the published CourseDetail: the summary and the descriptions). */
const CourseDetailV1 = Type.Object({ ...CourseSummaryV1.properties, short_description: Type.String(), long_description_html: Type.String() });

/** The members of a /v1 published course around its `course`: the published ones, then the include_searchable_content extensions. */
const publishedCourseMembers = <C extends TSchema>(course: C) => ({
  id: PublicId(),
  course,
  slug: Type.String(),
  course_url: Type.String(),
  ...PublishedCourseSettingsSchema.properties,
  offer: Type.Optional(OfferSchema),
  lesson_list: Type.Optional(
    Type.Array(Type.Object({ id: PublicId(), title: Type.String(), type: Type.String(), order: Type.Integer() }), ext({ description: 'include_searchable_content: the lessons of the course.' })),
  ),
  tags: Type.Optional(Type.Array(Type.Object({ id: PublicId(), name: Type.String(), slug: Type.String() }), ext({ description: 'include_searchable_content: the tags of the published course.' }))),
  short_description: Type.Optional(Type.String(ext({ description: "include_searchable_content: the course's short description." }))),
  long_description_html: Type.Optional(Type.String(ext({ description: "include_searchable_content: the course's long description." }))),
  search_keywords: Type.Optional(Type.String(ext({ description: "include_searchable_content: the lessons' search keywords, space-separated." }))),
});

/**
 * The v1 PublishedCourse (list, update) and PublishedCourseCreate, declared once
 * (core/openapi/declared-shape.ts). `timezone` is null (no per-course time zone is kept); `offer` is
 * the published course's offer (commerce, docs/decisions/commerce.md), left out when there is none
 * (optional, not nullable in the published PublishedCourse).
 */
export const PublishedCourseSchema = declaredV1(['PublishedCourse', 'PublishedCourseCreate'], Type.Object(publishedCourseMembers(CourseSummaryV1)));
export type PublishedCourseV1 = Static<typeof PublishedCourseSchema>;

/** The v1 PublishedCourseDetail (the read): the same, its course with the descriptions. */
export const PublishedCourseDetailSchema = declaredV1('PublishedCourseDetail', Type.Object(publishedCourseMembers(CourseDetailV1)));
export type PublishedCourseDetailV1 = Static<typeof PublishedCourseDetailSchema>;

/** A /v1 published course: the detail with `detail` (the read), else the PublishedCourse. */
export function presentPublishedCourse(r: PublishedCourseRow, o: PresentOptions & { detail: true }): PublishedCourseDetailV1;
export function presentPublishedCourse(r: PublishedCourseRow, o: PresentOptions): PublishedCourseV1 | PublishedCourseDetailV1;
export function presentPublishedCourse(r: PublishedCourseRow, o: PresentOptions): PublishedCourseV1 | PublishedCourseDetailV1 {
  const stats = o.stats.get(r.course_id) ?? { lessonCount: 0, requiredLessonCount: 0 };
  const course: Static<typeof CourseSummaryV1> = {
    id: publicIdsOf('course', r.course_id).id,
    title: r.course_title,
    lesson_count: stats.lessonCount,
    required_lesson_count: stats.requiredLessonCount,
  };
  const rest: Omit<PublishedCourseV1, 'id' | 'course'> = {
    slug: r.slug,
    course_url: `https://${o.domainName}/${r.slug}`,
    ...presentPublishedCourseSettings(r),
  };
  const offer = presentOffer(o.offers?.get(r.id), o.domainName);
  if (offer) rest.offer = offer;
  if (o.searchable) {
    const lessons = o.searchable.get(r.course_id) ?? [];
    rest.lesson_list = lessons.map((l) => ({ id: encodeId('lesson', l.id), title: l.title, type: l.type, order: l.order }));
    rest.tags = (o.tags?.get(r.id) ?? []).map((t) => ({ id: encodeId('tag', t.id), name: t.name, slug: t.slug }));
    rest.short_description = r.course_short_description;
    rest.long_description_html = r.course_long_description_html;
    rest.search_keywords = lessons
      .map((l) => l.search_keywords)
      .filter((k) => k)
      .join(' ');
  }
  const id = publishedCourseId(r.id);
  if (o.detail) return { id, course: { ...course, short_description: r.course_short_description, long_description_html: r.course_long_description_html }, ...rest };
  return { id, course, ...rest };
}
