import { EntityManager } from 'typeorm';
import { eventCourse, eventDomain, eventUser, UserCols } from '../../core/events/bodies';
import { recordEvents } from '../../core/events/outbox';
import type { EventPurchase } from '../../core/events/event-payloads';
import { rowsOf } from '../../core/database/sql';
import type { CourseProgressWrites } from './course-progress-writes';
import { scoped } from '../../core/database/scoped';

/**
 * Course enrollments asked for by another module inside ITS transaction (commerce fulfilment: a
 * purchase grants its published courses). The rules are those of /v1 enrollment create: the same
 * per (published course, user) advisory lock (taken in one sorted order), an active unexpired
 * enrollment is kept as it is (not created again), otherwise a new one is made with its course
 * progress and a COURSE_ENROLLMENT event carrying the purchase. The caller has made the user a
 * member of the domain. Returns the ids of the enrollments this call created.
 */
export async function enrollInCoursesFor(
  m: EntityManager,
  progress: CourseProgressWrites,
  o: {
    organizationId: string;
    user: UserCols;
    domain: { id: string; name: string };
    courses: { publishedCourseId: string; courseId: string; slug: string; title: string }[];
    /** the `purchase` member of the events (the purchase that grants them) */
    purchase: EventPurchase | null;
  },
): Promise<string[]> {
  if (!o.courses.length) return [];
  const keys = [...new Set(o.courses.map((c) => `${c.publishedCourseId}:${o.user.id}`))].sort();
  await m.query(`SELECT count(pg_advisory_xact_lock(hashtextextended(k, 7))) FROM unnest($1::text[]) AS t(k)`, [keys]);
  const live: { published_course_id: string }[] = await scoped(m, o.organizationId).query(
    `SELECT DISTINCT e.published_course_id FROM enrollments e
      WHERE e.organization_id = $org AND e.user_id = $1 AND e.published_course_id = ANY($2::uuid[])
        AND e.active AND (e.expires_at IS NULL OR e.expires_at > now())`,
    [o.user.id, o.courses.map((c) => c.publishedCourseId)],
  );
  const have = new Set(live.map((r) => r.published_course_id));
  const todo = o.courses.filter((c, i) => !have.has(c.publishedCourseId) && o.courses.findIndex((x) => x.publishedCourseId === c.publishedCourseId) === i);
  if (!todo.length) return [];
  const created: { id: string; published_course_id: string }[] = await scoped(m, o.organizationId).query(
    `INSERT INTO enrollments (organization_id, user_id, published_course_id, course_id)
     SELECT $org, $1, v.pc, v.course FROM unnest($2::uuid[], $3::uuid[]) AS v(pc, course)
     RETURNING id, published_course_id`,
    [o.user.id, todo.map((c) => c.publishedCourseId), todo.map((c) => c.courseId)],
  );
  const byPc = new Map(todo.map((c) => [c.publishedCourseId, c]));
  await progress.ensureCourseProgress(
    m,
    o.organizationId,
    created.map((r) => ({ enrollmentId: r.id, userId: o.user.id, publishedCourseId: r.published_course_id, courseId: byPc.get(r.published_course_id)!.courseId })),
  );
  await recordEvents(
    m,
    created.map((r) => {
      const c = byPc.get(r.published_course_id)!;
      return {
        organizationId: o.organizationId,
        type: 'COURSE_ENROLLMENT' as const,
        objects: {
          user: eventUser(o.user),
          course: eventCourse({ course_id: c.courseId, published_course_id: c.publishedCourseId, title: c.title, domain_name: o.domain.name, slug: c.slug }),
          purchase: o.purchase,
          domain: eventDomain(o.domain),
        },
      };
    }),
  );
  return created.map((r) => r.id);
}

/** Deactivate (or reactivate) the given enrollments of the organization, in the caller's transaction (a refunded purchase). */
export async function setEnrollmentsActive(m: EntityManager, organizationId: string, ids: string[], active: boolean): Promise<number> {
  if (!ids.length) return 0;
  return rowsOf(
    await scoped(m, organizationId).query<{ id: string }[]>(
      `UPDATE enrollments SET active = $2, updated_at = date_trunc('milliseconds', now()) WHERE organization_id = $org AND id = ANY($1::uuid[]) AND active <> $2 RETURNING id`,
      [ids, active],
    ),
  ).length;
}
