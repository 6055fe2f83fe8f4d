import { isoOf, type Timestamp } from '../../core/database/pool-reads';
import { v2Resource } from '../../core/http/v2-resource-kit';
import { encodeId } from '../../core/ids/ids';
import { trimBase } from '../../core/ids/public-ids';
import type { EnrollmentV2Row, ProgressStatus } from './enrollments.v2.service';

/**
 * The published /v2 enrollment resources (docs/decisions/v2-enrollments.md): EnrollmentResource
 * (list and read), EnrollmentWriteResource (bulk-enroll and update results) and
 * EnrollmentCompletionResource (completion results). Pure: no queries.
 */
const iso = (d: Timestamp | null) => (d ? isoOf(d) : null);

export function progressStatus(r: { completedAt: Timestamp | null; startedAt: Timestamp | null }): ProgressStatus {
  return r.completedAt ? 'completed' : r.startedAt ? 'in_progress' : 'not_started';
}

/** passed / failed from the course progress; otherwise pending when the course has graded content, else not_applicable. */
export function successStatus(r: { successStatus: string | null; graded: boolean }): 'passed' | 'failed' | 'pending' | 'not_applicable' {
  if (r.successStatus === 'PASSED') return 'passed';
  if (r.successStatus === 'FAILED') return 'failed';
  return r.graded ? 'pending' : 'not_applicable';
}

function relationships(r: { userId: string; publishedCourseId: string }) {
  return {
    student: { data: { type: 'students' as const, id: encodeId('student', r.userId) } },
    'published-course': { data: { type: 'published-courses' as const, id: encodeId('publishedCourse', r.publishedCourseId) } },
  };
}

/** EnrollmentResource: one literal, members in the order v2Resource answers them (type, id, attributes, relationships, links). */
export function presentEnrollment(r: EnrollmentV2Row, baseUrl: string) {
  const id = encodeId('enrollment', r.id);
  return {
    type: 'enrollments' as const,
    id,
    attributes: {
      enrolled_at: isoOf(r.enrolledAt),
      expires_at: iso(r.expiresAt),
      due_at: iso(r.dueAt),
      active: r.isActive,
      // every enrollment of this platform is made through its API, by an administrator (no storefront, no self-enrollment yet)
      channel: 'api',
      source: 'assigned',
      progress_status: progressStatus(r),
      completed_at: iso(r.completedAt),
      score: r.score,
      max_score: r.maxScore,
      success_status: successStatus(r),
      domain_name: r.domainName,
      has_certificate: r.certificateId !== null,
      rating: r.rating,
      rating_scale: r.rating === null ? null : r.ratingScale,
      feedback: r.feedback,
    },
    relationships: {
      student: { data: { type: 'students' as const, id: encodeId('student', r.userId) } },
      'published-course': { data: { type: 'published-courses' as const, id: encodeId('publishedCourse', r.publishedCourseId) } },
      purchase: { data: null },
      certificate: { data: r.certificateId ? { type: 'certificates' as const, id: encodeId('certificate', r.certificateId) } : null },
    },
    links: { self: `${trimBase(baseUrl)}/v2/enrollments/${id}` },
  };
}

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

export function presentEnrollmentWrite(r: EnrollmentWriteRow, baseUrl: string) {
  const attributes = { enrolled_at: r.enrolledAt.toISOString(), expires_at: iso(r.expiresAt), due_at: iso(r.dueAt), active: r.isActive };
  return v2Resource('enrollments', 'enrollment', r.id, baseUrl, attributes, relationships(r));
}

export function presentEnrollmentCompletion(r: EnrollmentV2Row) {
  return {
    type: 'enrollments' as const,
    id: encodeId('enrollment', r.id),
    attributes: { completed_at: iso(r.completedAt), success_status: successStatus(r) },
  };
}
