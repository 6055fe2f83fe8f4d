import type { EnrollmentPurchaseBlock } from '../commerce/free-purchases';

/**
 * The `enrollments` table (the enrollments module owns it): one row per enrollment of a user in a
 * published course. The row types are checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md); statements name the organization as `$org` (scoped()).
 */

/** A row of `enrollments`, every column. @table enrollments */
export interface EnrollmentTableRow {
  id: string;
  organization_id: string;
  user_id: string;
  published_course_id: string;
  course_id: string;
  enrolled_at: Date;
  expires_at: Date | null;
  active: boolean;
  started_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  due_at: Date | null;
}

/** enrollments e JOIN users u, plus the enrollment's rating (course_ratings.enrollment_id). */
export const V1_SELECT = `e.id, e.enrolled_at, e.expires_at, e.active, e.user_id, e.updated_at, u.email, u.first_name, u.last_name,
  r.rating, r.feedback`;
export const V1_FROM = `enrollments e JOIN users u ON u.id = e.user_id
  LEFT JOIN LATERAL (SELECT cr.rating, cr.feedback FROM course_ratings cr WHERE cr.enrollment_id = e.id ORDER BY cr.created_at DESC LIMIT 1) r ON true`;

/** A /v1 enrollment (V1_SELECT): the enrollment, its learner and its rating. @table enrollments */
export interface EnrollmentRow {
  id: string;
  enrolled_at: Date;
  expires_at: Date | null;
  active: boolean;
  user_id: string;
  /** last change (the order of an `updated_since` list) */
  updated_at: Date;
  /** @column users.email */
  email: string;
  /** @column users.first_name */
  first_name: string;
  /** @column users.last_name */
  last_name: string;
  /** @computed the latest course_ratings.rating of the enrollment */
  rating: number | null;
  /** @computed the latest course_ratings.feedback of the enrollment */
  feedback: string | null;
  /** @computed the Purchase block of the purchase that created it (commerce), when one did */
  purchase?: EnrollmentPurchaseBlock | null;
}

/** What the /v2 batch writes answer (RETURNING of enrollments.batch.service.ts). @table enrollments */
export interface EnrollmentReturningRow {
  id: string;
  user_id: string;
  published_course_id: string;
  enrolled_at: Date;
  expires_at: Date | null;
  due_at: Date | null;
  /** @computed active and not expired */
  is_active: boolean;
}
