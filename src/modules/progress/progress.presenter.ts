import { Type, type Static } from '@sinclair/typebox';
import { compileSerializer, DateTime, nullable, PublicId } from '../../core/openapi/declared-shape';
import { isoOf, type Timestamp } from '../../core/database/pool-reads';
import { cachedPublicId, encodeId } from '../../core/ids/ids';
import { iso } from '../../core/http/v1-rules';
import type { LessonProgressRow } from './progress.service';
import type { UserCourseListRow, UserCourseRow, UserLessonRow } from './progress-reads';

/** LessonProgress (/v1/lesson-progress/{id}). */
export const presentLessonProgress = (r: LessonProgressRow) => ({
  id: encodeId('lessonProgress', r.id),
  view_count: r.view_count,
  last_viewed_on: iso(r.last_viewed_on),
  finished_at: iso(r.finished_at),
  completed_at: iso(r.completed_at),
  success_status: r.success_status,
  score: r.score,
  max_score: r.max_score,
  custom_data: r.custom_data,
  validation_status: r.validation_status,
  validation_data: r.validation_data ?? null,
  /** extension: the token to hand to external content (docs/decisions/progress.md) */
  progress_token_id: encodeId('progressToken', r.progress_token),
});

/** ProgressToken; `success_status` left out until one is set (optional, not nullable in the published ProgressToken). */
export const presentProgressToken = (r: { progress_token: string; completed_at: Date | null; success_status: string | null; score: number | null; max_score: number | null }) => ({
  id: encodeId('progressToken', r.progress_token),
  completed_at: iso(r.completed_at),
  ...(r.success_status ? { success_status: r.success_status } : {}),
  score: r.score,
  max_score: r.max_score,
});

/**
 * UserPublishedCourseProgress of the published /v1 document, declared once
 * (core/openapi/declared-shape.ts). `latest_activity` is left out before the first visit (optional,
 * not nullable in the published CourseProgress); `certificate` is null without one.
 */
export const UserCourseSchema = Type.Object({
  published_course_id: PublicId(),
  domain_name: Type.String(),
  enrolled_at: DateTime(),
  enrollment_id: PublicId(),
  course: Type.Object({ id: PublicId(), title: Type.String(), lesson_count: Type.Integer(), required_lesson_count: Type.Integer() }),
  course_progress: Type.Object({
    course_progress_id: PublicId(),
    completed_lesson_count: Type.Integer(),
    completed_required_lesson_count: Type.Integer(),
    completed_at: nullable(DateTime()),
    latest_activity: Type.Optional(DateTime()),
    score: nullable(Type.Integer()),
    max_score: nullable(Type.Integer()),
    credits_earned: Type.String(),
    credit_unit_plural: Type.String(),
    success_status: nullable(Type.String()),
  }),
  certificate: nullable(Type.Object({ code: Type.String(), validate_url: Type.String({ format: 'uri' }), issued_at: nullable(DateTime()), expires_at: nullable(DateTime()) })),
  all_enrollments: Type.Array(Type.Object({ course_progress_id: PublicId(), active: Type.Boolean(), expires_at: nullable(DateTime()), enrollment_id: PublicId() })),
});
export type UserCourse = Static<typeof UserCourseSchema>;

/** The JSON text of a UserPublishedCourseProgress (compiled from UserCourseSchema): a page writes up to 1,000. */
export const userCourseSerializer = compileSerializer(UserCourseSchema);

const isoOrNull = (t: Timestamp | null): string | null => (t ? isoOf(t) : null);

/**
 * UserPublishedCourseProgress from its row (timestamps Dates, or pg's text in a list row). A page
 * presents 100 of them: the latest enrollment and the course progress usually come back in
 * all_enrollments, so their public ids are encoded once (and remembered per uuid: cachedPublicId).
 */
export const presentUserCourse = (r: UserCourseRow | UserCourseListRow): UserCourse => {
  const enrollmentId = cachedPublicId('enrollment', r.enrollment_id);
  const progressId = cachedPublicId('courseProgress', r.cp_id);
  const progress: UserCourse['course_progress'] = {
    course_progress_id: progressId,
    completed_lesson_count: r.completed_lesson_count,
    completed_required_lesson_count: r.completed_required_lesson_count,
    completed_at: isoOrNull(r.completed_at),
    score: r.score,
    max_score: r.max_score,
    credits_earned: r.credits_earned,
    credit_unit_plural: r.credit_unit_plural,
    success_status: r.success_status,
  };
  if (r.latest_activity) progress.latest_activity = isoOf(r.latest_activity);
  return {
    published_course_id: cachedPublicId('publishedCourse', r.published_course_id),
    domain_name: r.domain_name,
    enrolled_at: isoOf(r.enrolled_at),
    enrollment_id: enrollmentId,
    course: { id: cachedPublicId('course', r.course_id), title: r.title, lesson_count: r.lesson_count, required_lesson_count: r.required_lesson_count },
    course_progress: progress,
    certificate: r.cert_code
      ? { code: r.cert_code, validate_url: `https://${r.domain_name}/certificates/${r.cert_code}`, issued_at: isoOrNull(r.cert_issued_at), expires_at: isoOrNull(r.cert_expires_at) }
      : null,
    all_enrollments: (r.all_enrollments ?? []).map((e) => ({
      course_progress_id: e.course_progress_id === r.cp_id ? progressId : cachedPublicId('courseProgress', e.course_progress_id),
      active: e.active,
      expires_at: iso(e.expires_at),
      enrollment_id: e.enrollment_id === r.enrollment_id ? enrollmentId : cachedPublicId('enrollment', e.enrollment_id),
    })),
  };
};

/** A list row's JSON text: its presented progress through the compiled serializer. */
export const userCourseJson = (r: UserCourseListRow): string => userCourseSerializer(presentUserCourse(r));

/** UserLessonProgress. */
export const presentUserLesson = (r: UserLessonRow) => ({
  lesson: { id: encodeId('lesson', r.lesson_id), title: r.lesson_title },
  lesson_progress: {
    view_count: r.view_count,
    last_viewed_on: iso(r.last_viewed_on),
    completed_at: iso(r.completed_at),
    success_status: r.success_status,
    score: r.score,
    max_score: r.max_score,
    custom_data: r.custom_data,
    lesson_progress_id: encodeId('lessonProgress', r.id),
  },
});
