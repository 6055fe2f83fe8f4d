import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Type, type Static } from '@sinclair/typebox';
import { Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import { v2SinceKeyset } from '../../core/pagination/v2-updated-since';
import { applyKeyset, PageRequest } from '../../core/pagination/cursor-page';
import { DateTime, declaredV2, nullable, ToOne, V2UnlinkedRelatedResourceSchema } from '../../core/openapi/declared-shape';
import { CoursesService } from '../courses/courses.service';
import { EnrollmentsService } from '../enrollments/enrollments.service';
import { CourseRating } from './course-rating.entity';

/**
 * CourseAnalyticsResource and CourseRatingResource of the published /v2 document, declared once
 * (core/openapi/declared-shape.ts): the types of courseAnalytics' and presentRating's results.
 * `in_progress` is an extension member (x-extension).
 */
export const CourseAnalyticsSchema = declaredV2(
  'CourseAnalyticsResource',
  V2UnlinkedRelatedResourceSchema(
    'course-analytics',
    Type.Object({
      enrollments: Type.Integer(),
      in_progress: Type.Integer({ 'x-extension': true, description: 'Enrollments started and not completed.' }),
      completions: Type.Integer(),
      completion_rate: nullable(Type.Number({ description: 'completions / enrollments, 4 decimals; null without enrollments.' })),
      average_rating: nullable(Type.Number()),
      rating_scale: Type.Integer(),
      rating_count: Type.Integer(),
      certificates_issued: Type.Integer(),
    }),
    Type.Object({ course: ToOne('courses') }),
    { description: "A course's analytics (CourseAnalyticsResource)." },
  ),
);
export type CourseAnalyticsResource = Static<typeof CourseAnalyticsSchema>;

export const CourseRatingSchema = declaredV2(
  'CourseRatingResource',
  V2UnlinkedRelatedResourceSchema(
    'course-ratings',
    Type.Object({ rating: Type.Integer(), scale_max: Type.Integer(), feedback: nullable(Type.String()), created_at: DateTime() }),
    Type.Object({ student: ToOne('students'), course: ToOne('courses') }),
    { description: 'A rating of a course (CourseRatingResource).' },
  ),
);
export type CourseRatingResource = Static<typeof CourseRatingSchema>;

/**
 * Course analytics (a read model over enrollments, ratings and certificates) and a course's
 * ratings. A course that is not a live course of the caller's organization is a 404.
 */
@Injectable()
export class AnalyticsService {
  constructor(
    @InjectRepository(CourseRating) private readonly ratings: Repository<CourseRating>,
    private readonly enrollments: EnrollmentsService,
    private readonly courses: CoursesService,
  ) {}

  /** One SQL statement (course check included). */
  async courseAnalytics(p: Principal, publicCourseId: string, domainNames: string[] | null): Promise<CourseAnalyticsResource> {
    const courseUuid = decodeId('course', publicCourseId);
    if (!courseUuid) throw notFound('Course not found.');
    const s = await this.enrollments.courseSummary(p.organizationId, courseUuid, domainNames);
    if (!s.found) throw notFound('Course not found.');
    const id = encodeId('course', courseUuid);
    return {
      type: 'course-analytics' as const,
      id,
      attributes: {
        enrollments: s.enrollments,
        in_progress: s.inProgress,
        completions: s.completions,
        completion_rate: s.enrollments ? Math.round((s.completions / s.enrollments) * 10000) / 10000 : null,
        average_rating: s.averageRating,
        rating_scale: s.ratingScale,
        rating_count: s.ratingCount,
        certificates_issued: s.certificatesIssued,
      },
      relationships: { course: { data: { type: 'courses' as const, id } } },
    };
  }

  /** The course's uuid, or 404 (one statement). */
  async liveCourse(p: Principal, publicCourseId: string): Promise<string> {
    const courseUuid = decodeId('course', publicCourseId);
    const live = courseUuid ? await this.courses.liveIds(p.organizationId, [courseUuid]) : new Set<string>();
    if (!courseUuid || !live.has(courseUuid)) throw notFound('Course not found.');
    return courseUuid;
  }

  /**
   * Ratings of a live course, most recent first (keyset DESC on created_at, id); with `since`
   * (filter[updated_since]) the ratings changed at or after it, by last change (course_ratings_course_updated_idx).
   */
  async listRatings(p: Principal, courseUuid: string, page: PageRequest, studentUuid?: string, since?: Date): Promise<CourseRating[]> {
    const qb = this.ratings.createQueryBuilder('r').where('r.course_id = :course', { course: courseUuid }).andWhere('r.organization_id = :org', { org: p.organizationId });
    if (studentUuid) qb.andWhere('r.user_id = :student', { student: studentUuid });
    return since ? v2SinceKeyset(qb, 'r', page, since).getMany() : applyKeyset(qb, 'r', page, 'DESC').getMany();
  }

  presentRating(r: CourseRating): CourseRatingResource {
    return {
      type: 'course-ratings' as const,
      id: encodeId('rating', r.id),
      attributes: { rating: r.rating, scale_max: r.scaleMax, feedback: r.feedback, created_at: r.createdAt.toISOString() },
      relationships: {
        student: { data: { type: 'students' as const, id: encodeId('student', r.userId) } },
        course: { data: { type: 'courses' as const, id: encodeId('course', r.courseId) } },
      },
    };
  }
}
