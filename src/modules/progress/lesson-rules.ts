import { parseTimestamp } from '../../core/http/v1-rules';

/** A lesson needs validation (a proctoring review) before `finished_at` completes it: proctored exams. */
export const needsValidation = (lessonType: string) => lessonType === 'IE_EXAM';

/** The stored members of a lesson progress that a write can change. */
export interface LessonState {
  finished_at: Date | null;
  completed_at: Date | null;
  success_status: string | null;
  score: number | null;
  max_score: number | null;
  custom_data: string | null;
  validation_status: string | null;
  validation_data: unknown;
}

/** A parsed write: absent members are undefined, null clears. */
export type LessonPatch = Partial<LessonState>;

/** The body's members, parsed (timestamps with the /v1 rules; the rest was validated by the DTO). */
export function lessonPatchOf(body: Record<string, unknown>): LessonPatch {
  const out: LessonPatch = {};
  const finished = parseTimestamp('finished_at', body.finished_at, true);
  const completed = parseTimestamp('completed_at', body.completed_at, true);
  if (finished !== undefined) out.finished_at = finished;
  if (completed !== undefined) out.completed_at = completed;
  for (const k of ['success_status', 'score', 'max_score', 'custom_data', 'validation_status', 'validation_data'] as const) {
    if (body[k] !== undefined) (out as Record<string, unknown>)[k] = body[k];
  }
  return out;
}

/**
 * The state table of resource-reference-api.md §3 and CONVENTIONS §10 (docs/decisions/progress.md,
 * "Lesson rules"): what a lesson progress becomes after a write.
 * - `completed_at` given: that value (null un-completes, whatever `finished_at` says);
 * - otherwise `finished_at` set on a lesson that needs no validation completes it at that instant;
 * - on a lesson that needs validation, `validation_status` PASSED completes it (at `finished_at`, or
 *   now), and the validation members are ignored on every other lesson.
 */
export function nextLessonState(before: LessonState, patch: LessonPatch, lessonType: string, now: Date): LessonState {
  const validating = needsValidation(lessonType);
  const next: LessonState = { ...before };
  for (const k of ['finished_at', 'success_status', 'score', 'max_score', 'custom_data'] as const) {
    if (patch[k] !== undefined) (next as unknown as Record<string, unknown>)[k] = patch[k];
  }
  if (validating) {
    if (patch.validation_status !== undefined) next.validation_status = patch.validation_status;
    if (patch.validation_data !== undefined) next.validation_data = patch.validation_data;
  }
  if (patch.completed_at !== undefined) {
    next.completed_at = patch.completed_at;
  } else if (!next.completed_at) {
    if (!validating && patch.finished_at) next.completed_at = patch.finished_at;
    if (validating && patch.validation_status === 'PASSED') next.completed_at = next.finished_at ?? now;
  }
  return next;
}
