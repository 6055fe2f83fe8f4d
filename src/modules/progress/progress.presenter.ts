import { Type, type Static } from '@sinclair/typebox';
import { compileSerializer, DateTime, declaredV1, ext, nullable, PublicId, StringEnum } from '../../core/openapi/declared-shape';
import { isoOf, type Timestamp } from '../../core/database/pool-reads';
import { cachedPublicId, encodeId } from '../../core/ids/ids';
import { iso } from '../../core/http/v1-rules';
import type { LessonProgressRow } from './progress.service';
import type { UserCourseListRow, UserCourseRow, UserLessonRow } from './progress-reads';

/** SuccessStatusEnum / ValidationStatusEnum of the published document (the columns' CHECK allows these two). */
const PASSED_FAILED = ['PASSED', 'FAILED'] as const;
type PassedFailed = (typeof PASSED_FAILED)[number];
/** A success or validation status column (CHECK: PASSED, FAILED or null) as its declared type. */
const status = (s: string | null): PassedFailed | null => s as PassedFailed | null;

/** LessonProgress (/v1/lesson-progress/{id}), declared once (core/openapi/declared-shape.ts). */
export const LessonProgressSchema = declaredV1(
  'LessonProgress',
  Type.Object({
    id: PublicId(),
    view_count: Type.Integer(),
    last_viewed_on: nullable(DateTime()),
    finished_at: nullable(DateTime()),
    completed_at: nullable(DateTime()),
    success_status: nullable(StringEnum(PASSED_FAILED)),
    score: nullable(Type.Integer()),
    max_score: nullable(Type.Integer()),
    custom_data: nullable(Type.String()),
    validation_status: nullable(StringEnum(PASSED_FAILED)),
    validation_data: Type.Unknown({ description: 'The validation result the content reported (any JSON), or null.' }),
    progress_token_id: PublicId(ext({ description: 'The token to hand to external content (docs/decisions/progress.md).' })),
  }),
);

export const presentLessonProgress = (r: LessonProgressRow): Static<typeof LessonProgressSchema> => ({
  id: encodeId('lessonProgress', r.id),
  view_count: r.view_count,
  last_viewed_on: iso(r.last_viewed_on),
  finished_at: iso(r.finished_at),
  completed_at: iso(r.completed_at),
  success_status: status(r.success_status),
  score: r.score,
  max_score: r.max_score,
  custom_data: r.custom_data,
  validation_status: status(r.validation_status),
  validation_data: r.validation_data ?? null,
  progress_token_id: encodeId('progressToken', r.progress_token),
});

/** ProgressToken, declared once; `success_status` left out until one is set (optional, not nullable in the published ProgressToken). */
export const ProgressTokenSchema = declaredV1(
  'ProgressToken',
  Type.Object({
    id: PublicId(),
    completed_at: nullable(DateTime()),
    success_status: Type.Optional(StringEnum(PASSED_FAILED)),
    score: nullable(Type.Integer()),
    max_score: nullable(Type.Integer()),
  }),
);

export const presentProgressToken = (r: {
  progress_token: string;
  completed_at: Date | null;
  success_status: string | null;
  score: number | null;
  max_score: number | null;
}): Static<typeof ProgressTokenSchema> => {
  const out: Static<typeof ProgressTokenSchema> = { id: encodeId('progressToken', r.progress_token), completed_at: iso(r.completed_at), score: r.score, max_score: r.max_score };
  const s = status(r.success_status);
  if (s) out.success_status = s;
  return out;
};

/**
 * UserPublishedCourseProgress of the published /v1 document, declared once
 * (core/openapi/declared-shape.ts). `latest_activity` is left out before the first visit (optional,
 * not nullable in the published CourseProgress); `certificate` is left out without one (optional, not
 * nullable in the published UserPublishedCourseProgress), as are a certificate's `issued_at` when unset.
 */
export const UserCourseSchema = declaredV1(
  'UserPublishedCourseProgress',
  Type.Object({
    published_course_id: PublicId(),
    domain_name: Type.String(),
    enrolled_at: DateTime(),
    enrollment_id: PublicId(),
    course: Type.Object({ id: PublicId(), title: Type.String(ext()), lesson_count: Type.Integer(), required_lesson_count: Type.Integer() }),
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
      success_status: nullable(StringEnum(PASSED_FAILED)),
    }),
    certificate: Type.Optional(Type.Object({ code: Type.String(), validate_url: Type.String({ format: 'uri' }), issued_at: Type.Optional(DateTime()), expires_at: nullable(DateTime()) })),
    all_enrollments: Type.Array(Type.Object({ course_progress_id: PublicId(), active: Type.Boolean(), expires_at: nullable(DateTime()), enrollment_id: PublicId() })),
  }),
);
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
    success_status: status(r.success_status),
  };
  if (r.latest_activity) progress.latest_activity = isoOf(r.latest_activity);
  const out: UserCourse = {
    published_course_id: cachedPublicId('publishedCourse', r.published_course_id),
    domain_name: r.domain_name,
    enrolled_at: isoOf(r.enrolled_at),
    enrollment_id: enrollmentId,
    course: { id: cachedPublicId('course', r.course_id), title: r.title, lesson_count: r.lesson_count, required_lesson_count: r.required_lesson_count },
    course_progress: progress,
    all_enrollments: (r.all_enrollments ?? []).map((e) => ({
      course_progress_id: e.course_progress_id === r.cp_id ? progressId : cachedPublicId('courseProgress', e.course_progress_id),
      active: e.active,
      expires_at: iso(e.expires_at),
      enrollment_id: e.enrollment_id === r.enrollment_id ? enrollmentId : cachedPublicId('enrollment', e.enrollment_id),
    })),
  };
  if (r.cert_code) {
    out.certificate = { code: r.cert_code, validate_url: `https://${r.domain_name}/certificates/${r.cert_code}`, expires_at: isoOrNull(r.cert_expires_at) };
    if (r.cert_issued_at) out.certificate.issued_at = isoOf(r.cert_issued_at);
  }
  return out;
};

/** A list row's JSON text: its presented progress through the compiled serializer. */
export const userCourseJson = (r: UserCourseListRow): string => userCourseSerializer(presentUserCourse(r));

/** UserLessonProgress, declared once. */
export const UserLessonSchema = declaredV1(
  'UserLessonProgress',
  Type.Object({
    lesson: Type.Object({ id: PublicId(), title: Type.String(ext()) }),
    lesson_progress: Type.Object({
      view_count: Type.Integer(),
      last_viewed_on: nullable(DateTime()),
      completed_at: nullable(DateTime()),
      success_status: nullable(StringEnum(PASSED_FAILED)),
      score: nullable(Type.Integer()),
      max_score: nullable(Type.Integer()),
      custom_data: nullable(Type.String()),
      lesson_progress_id: PublicId(),
    }),
  }),
);

export const presentUserLesson = (r: UserLessonRow): Static<typeof UserLessonSchema> => ({
  lesson: { id: encodeId('lesson', r.lesson_id), title: r.lesson_title },
  lesson_progress: {
    view_count: r.view_count,
    last_viewed_on: iso(r.last_viewed_on),
    completed_at: iso(r.completed_at),
    success_status: status(r.success_status),
    score: r.score,
    max_score: r.max_score,
    custom_data: r.custom_data,
    lesson_progress_id: encodeId('lessonProgress', r.id),
  },
});
