import type { EntityManager } from 'typeorm';

/**
 * What enrollments asks of the course progress (`course_progress`, owned by modules/progress), in
 * the caller's transaction: ProgressService's writes, declared here and provided by modules/progress
 * (`CourseProgressWritesModule`, global), so enrollments, below progress in the module graph,
 * imports nothing of it (docs/decisions/module-graph.md).
 */
export abstract class CourseProgressWrites {
  /** The course progress of new enrollments (a shared one joined), one statement for the rows. */
  abstract ensureCourseProgress(m: EntityManager, organizationId: string, rows: { enrollmentId: string; userId: string; publishedCourseId: string; courseId: string }[]): Promise<void>;
  /** Completion set on the enrollments' course progress: the enrollment ids that have one. */
  abstract setCourseCompletions(
    m: EntityManager,
    organizationId: string,
    items: { enrollmentId: string; completedAt?: Date | null; successStatus?: 'PASSED' | 'FAILED' | null }[],
  ): Promise<Set<string>>;
}
