/** The /v2 enrollment writes' row type (the batch service builds it, the presenter shows it); not presentation, so a service imports it (docs/decisions/module-graph.md). */

/** What a bulk-enroll or update answers per item. */
export interface EnrollmentWriteRow {
  id: string;
  userId: string;
  publishedCourseId: string;
  enrolledAt: Date;
  expiresAt: Date | null;
  dueAt: Date | null;
  isActive: boolean;
}
