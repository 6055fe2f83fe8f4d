/**
 * Shared SQL fragments (docs/decisions/data-access.md): one spelling of a rule, so it cannot drift
 * between modules. "Is live": Each takes the table's alias ('' for an unaliased table)
 * and is meant for a template literal: `WHERE ${liveCourse('c')} AND ...`.
 *
 * - A course is live when it is not soft-deleted and not a draft.
 * - A lesson is live when it is not soft-deleted and not a draft (whether its course is live is
 *   a separate condition, stated where a statement needs it: see `liveLessonOfLiveCourse`).
 */

const col = (alias: string, name: string) => (alias ? `${alias}.${name}` : name);

/** `<alias>.deleted_at IS NULL AND NOT <alias>.is_draft` for a row of `courses`. */
export function liveCourse(alias = ''): string {
  return `${col(alias, 'deleted_at')} IS NULL AND NOT ${col(alias, 'is_draft')}`;
}

/** `<alias>.deleted_at IS NULL AND NOT <alias>.is_draft` for a row of `lessons`. */
export function liveLesson(alias = ''): string {
  return `${col(alias, 'deleted_at')} IS NULL AND NOT ${col(alias, 'is_draft')}`;
}

/**
 * A live lesson (alias `lesson`) of a live course (looked up as `c`): the /v1 lessons' rule.
 * The caller still compares the lesson's organization.
 */
export function liveLessonOfLiveCourse(lesson: string): string {
  return `${liveLesson(lesson)}
  AND EXISTS (SELECT 1 FROM courses c WHERE c.id = ${lesson}.course_id AND ${liveCourse('c')})`;
}

/**
 * The average of a rating column as every interface answers it: PostgreSQL's numeric average,
 * rounded once to 2 decimals (half away from zero, exact), as a float8. An aggregate: use it in
 * a SELECT list over the ratings that count (the organization's active scale).
 */
export function averageRating(column: string): string {
  return `round(avg(${column})::numeric, 2)::float8`;
}

/**
 * The course's derived success status and score (graded required lessons), for events and certificates:
 * a LEFT JOIN LATERAL `der` over the lesson progress of the course progress aliased `cp`.
 */
export const DERIVED = `
  LEFT JOIN LATERAL (
    SELECT CASE WHEN bool_or(lp.success_status = 'FAILED') THEN 'FAILED'
                WHEN count(lp.success_status) > 0 THEN 'PASSED' END AS success_status,
           sum(lp.score)::int AS score, sum(lp.max_score)::int AS max_score
      FROM lesson_progress lp JOIN lessons l ON l.id = lp.lesson_id AND l.organization_id = cp.organization_id
     WHERE lp.organization_id = cp.organization_id AND lp.course_progress_id = cp.id
       AND l.deleted_at IS NULL AND NOT l.optional) der ON true`;
