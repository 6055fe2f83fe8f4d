import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Enrollment } from './enrollment.entity';
import { averageRating, liveCourse } from '../../core/database/fragments';
import { scoped } from '../../core/database/scoped';

export interface CourseEnrollmentSummary {
  /** false when the course is not a live course of the organization */
  found: boolean;
  ratingScale: number;
  enrollments: number;
  completions: number;
  inProgress: number;
  ratingCount: number;
  averageRating: number | null;
  certificatesIssued: number;
}

/**
 * Enrollments. The /v1 and resource-reference work adds enrolment writes here; for now it serves
 * the course analytics aggregate.
 */
@Injectable()
export class EnrollmentsService {
  constructor(@InjectRepository(Enrollment) private readonly enrollments: Repository<Enrollment>) {}

  /**
   * The enrollment summary of one course in ONE statement. `domainNames` (lowercase) narrows the
   * enrollments to those whose published course is on one of those domains of the organization
   * (unknown names match nothing); ratings and certificates then count only when tied to one of
   * those enrollments (by enrollment_id, or for rows without one, by the same student). Without
   * the filter every rating of the course counts. Ratings count only on the organization's active
   * scale. A certificate counts once per enrollment that has one.
   */
  async courseSummary(organizationId: string, courseUuid: string, domainNames: string[] | null): Promise<CourseEnrollmentSummary> {
    const [row] = await scoped(this.enrollments, organizationId).query<
      {
        found: number;
        rating_scale: number | null;
        enrollments: number;
        completions: number;
        in_progress: number;
        rating_count: number;
        average_rating: number | null;
        certificates_issued: number;
      }[]
    >(
      `WITH course AS (
         SELECT id FROM courses WHERE id = $1 AND organization_id = $org AND ${liveCourse()}),
       scale AS (SELECT rating_scale AS s FROM organizations WHERE id = $org),
       e AS (
         SELECT e.id, e.user_id, e.course_id, e.published_course_id, e.started_at, e.completed_at
           FROM enrollments e JOIN course ON e.course_id = course.id
          WHERE e.organization_id = $org
            -- a per-enrollment lookup of its published course's domain (one index probe each), not an
            -- EXISTS the planner hashes from every published course of those domains (docs/performance.md, scale)
            AND ($2::text[] IS NULL OR (SELECT pc.domain_id FROM published_courses pc
                                         WHERE pc.id = e.published_course_id AND pc.organization_id = $org)
                                       = ANY (ARRAY(SELECT d.id FROM domains d WHERE d.organization_id = $org AND lower(d.name) = ANY($2::text[]))))),
       r AS (
         SELECT r.rating FROM course_ratings r JOIN course ON r.course_id = course.id
          WHERE r.organization_id = $org AND r.scale_max = (SELECT s FROM scale)
            AND ($2::text[] IS NULL OR EXISTS (
                  SELECT 1 FROM e WHERE e.id = r.enrollment_id OR (r.enrollment_id IS NULL AND e.user_id = r.user_id))))
       SELECT (SELECT count(*) FROM course)::int AS found,
              (SELECT s FROM scale) AS rating_scale,
              (SELECT count(*) FROM e)::int AS enrollments,
              (SELECT count(*) FROM e WHERE completed_at IS NOT NULL)::int AS completions,
              (SELECT count(*) FROM e WHERE started_at IS NOT NULL AND completed_at IS NULL)::int AS in_progress,
              (SELECT count(*) FROM r)::int AS rating_count,
              (SELECT ${averageRating('rating')} FROM r) AS average_rating,
              (SELECT count(*) FROM e WHERE EXISTS (
                  SELECT 1 FROM certificates c
                   WHERE c.organization_id = $org AND c.course_id = e.course_id
                     AND (c.enrollment_id = e.id
                          OR (c.enrollment_id IS NULL AND c.user_id = e.user_id
                              AND (c.published_course_id IS NULL OR c.published_course_id = e.published_course_id)))))::int AS certificates_issued`,
      [courseUuid, domainNames],
    );
    return {
      found: row.found > 0,
      ratingScale: Number(row.rating_scale ?? 5),
      enrollments: row.enrollments,
      completions: row.completions,
      inProgress: row.in_progress,
      ratingCount: row.rating_count,
      averageRating: row.average_rating === null ? null : Number(row.average_rating),
      certificatesIssued: row.certificates_issued,
    };
  }
}
