import { optionalJson } from '../../core/http/optional-members';
import { isoJson } from '../../core/database/pool-reads';
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

/** `iso` of a timestamp column: pg gives a Date, formatted without the copy `iso` makes of it (same text). */
const isoOf = (d: Date | string | null | undefined): string | null => (d instanceof Date ? d.toISOString() : iso(d));

/**
 * UserPublishedCourseProgress. A page presents 100 of them (issue 16): the latest enrollment and
 * the course progress usually come back in all_enrollments, so their public ids are encoded once.
 */
export const presentUserCourse = (r: UserCourseRow) => {
  const enrollmentId = encodeId('enrollment', r.enrollment_id);
  const progressId = encodeId('courseProgress', r.cp_id);
  return {
    published_course_id: encodeId('publishedCourse', r.published_course_id),
    domain_name: r.domain_name,
    enrolled_at: isoOf(r.enrolled_at),
    enrollment_id: enrollmentId,
    course: { id: encodeId('course', r.course_id), title: r.title, lesson_count: r.lesson_count, required_lesson_count: r.required_lesson_count },
    course_progress: {
      course_progress_id: progressId,
      completed_lesson_count: r.completed_lesson_count,
      completed_required_lesson_count: r.completed_required_lesson_count,
      completed_at: isoOf(r.completed_at),
      // left out before the first visit (optional, not nullable in the published CourseProgress)
      ...(r.latest_activity ? { latest_activity: isoOf(r.latest_activity) } : {}),
      score: r.score,
      max_score: r.max_score,
      credits_earned: r.credits_earned,
      credit_unit_plural: r.credit_unit_plural,
      success_status: r.success_status,
    },
    certificate: r.cert_code
      ? { code: r.cert_code, validate_url: `https://${r.domain_name}/certificates/${r.cert_code}`, issued_at: isoOf(r.cert_issued_at), expires_at: isoOf(r.cert_expires_at) }
      : null,
    all_enrollments: (r.all_enrollments ?? []).map((e) => ({
      course_progress_id: e.course_progress_id === r.cp_id ? progressId : encodeId('courseProgress', e.course_progress_id),
      active: e.active,
      expires_at: iso(e.expires_at),
      enrollment_id: e.enrollment_id === r.enrollment_id ? enrollmentId : encodeId('enrollment', e.enrollment_id),
    })),
  };
};

/**
 * `JSON.stringify(presentUserCourse(row))` of a list row written directly (the same bytes: the same
 * members in the same order, every string through JSON.stringify), without the objects in between
 * (issue 16: a page presents 100 of them). The timestamps are pg's text, shown as pg's Date would
 * be (isoOfTimestamptz); the public ids are remembered per uuid (cachedPublicId).
 */
export function userCourseJson(r: UserCourseListRow): string {
  const enrollmentId = cachedPublicId('enrollment', r.enrollment_id);
  const progressId = cachedPublicId('courseProgress', r.cp_id);
  let out =
    '{"published_course_id":"' +
    cachedPublicId('publishedCourse', r.published_course_id) +
    '","domain_name":' +
    JSON.stringify(r.domain_name) +
    ',"enrolled_at":' +
    isoJson(r.enrolled_at) +
    ',"enrollment_id":"' +
    enrollmentId +
    '","course":{"id":"' +
    cachedPublicId('course', r.course_id) +
    '","title":' +
    JSON.stringify(r.title) +
    ',"lesson_count":' +
    JSON.stringify(r.lesson_count) +
    ',"required_lesson_count":' +
    JSON.stringify(r.required_lesson_count) +
    '},"course_progress":{"course_progress_id":"' +
    progressId +
    '","completed_lesson_count":' +
    JSON.stringify(r.completed_lesson_count) +
    ',"completed_required_lesson_count":' +
    JSON.stringify(r.completed_required_lesson_count) +
    ',"completed_at":' +
    isoJson(r.completed_at) +
    optionalJson('latest_activity', isoJson(r.latest_activity)) +
    ',"score":' +
    JSON.stringify(r.score) +
    ',"max_score":' +
    JSON.stringify(r.max_score) +
    ',"credits_earned":' +
    JSON.stringify(r.credits_earned) +
    ',"credit_unit_plural":' +
    JSON.stringify(r.credit_unit_plural) +
    ',"success_status":' +
    JSON.stringify(r.success_status) +
    '},"certificate":' +
    (r.cert_code
      ? '{"code":' +
        JSON.stringify(r.cert_code) +
        ',"validate_url":' +
        JSON.stringify(`https://${r.domain_name}/certificates/${r.cert_code}`) +
        ',"issued_at":' +
        isoJson(r.cert_issued_at) +
        ',"expires_at":' +
        isoJson(r.cert_expires_at) +
        '}'
      : 'null') +
    ',"all_enrollments":[';
  const all = r.all_enrollments ?? [];
  for (let i = 0; i < all.length; i++) {
    const e = all[i];
    const expires = iso(e.expires_at);
    out +=
      (i ? ',{"course_progress_id":"' : '{"course_progress_id":"') +
      (e.course_progress_id === r.cp_id ? progressId : cachedPublicId('courseProgress', e.course_progress_id)) +
      '","active":' +
      JSON.stringify(e.active) +
      ',"expires_at":' +
      (expires === null ? 'null' : '"' + expires + '"') +
      ',"enrollment_id":"' +
      (e.enrollment_id === r.enrollment_id ? enrollmentId : cachedPublicId('enrollment', e.enrollment_id)) +
      '"}';
  }
  return out + ']}';
}

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
