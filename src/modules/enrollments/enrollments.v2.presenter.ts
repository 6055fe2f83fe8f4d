import { Type, type Static } from '@sinclair/typebox';
import { isoOf, type Timestamp } from '../../core/database/pool-reads';
import { DateTime, declaredV2, Identifier, nullable, StringEnum, ToOne, V2RelatedResourceSchema, V2UnlinkedResourceSchema } from '../../core/openapi/declared-shape';
import { v2Resource } from '../../core/http/v2-resource-kit';
import { encodeId } from '../../core/ids/ids';
import { trimBase } from '../../core/ids/public-ids';
import type { EnrollmentV2Row, ProgressStatus } from './enrollments.v2.service';
import { type EnrollmentWriteRow } from './enrollments.v2.shape';
export { type EnrollmentWriteRow } from './enrollments.v2.shape';

/**
 * The published /v2 enrollment resources (docs/decisions/v2-enrollments.md): EnrollmentResource
 * (list and read), EnrollmentWriteResource (bulk-enroll and update results) and
 * EnrollmentCompletionResource (completion results). Pure: no queries.
 */

/** The relationships of an enrollment to its student and published course. */
const ENROLLMENT_RELATIONSHIPS = { student: ToOne('students'), 'published-course': ToOne('published-courses') };
const SUCCESS_STATUSES = ['passed', 'failed', 'pending', 'not_applicable'] as const;

/** EnrollmentResource, declared once (core/openapi/declared-shape.ts): the type of presentEnrollment's result. */
export const EnrollmentResourceSchema = declaredV2(
  'EnrollmentResource',
  V2RelatedResourceSchema(
    'enrollments',
    Type.Object({
      enrolled_at: DateTime(),
      expires_at: nullable(DateTime()),
      due_at: nullable(DateTime()),
      active: Type.Boolean(),
      channel: StringEnum(['api'], { description: 'How the enrollment was made: always "api" here (no storefront, no self-enrollment).' }),
      source: StringEnum(['assigned'], { description: 'Always "assigned" here: every enrollment is made by an administrator.' }),
      progress_status: StringEnum(['completed', 'in_progress', 'not_started']),
      completed_at: nullable(DateTime()),
      score: nullable(Type.Integer()),
      max_score: nullable(Type.Integer()),
      success_status: StringEnum(SUCCESS_STATUSES),
      domain_name: Type.String(),
      has_certificate: Type.Boolean(),
      rating: nullable(Type.Integer()),
      rating_scale: nullable(Type.Integer()),
      feedback: nullable(Type.String()),
    }),
    Type.Object({
      ...ENROLLMENT_RELATIONSHIPS,
      purchase: Type.Object({ data: Type.Null({ description: 'Always null: no purchases of enrollments on this platform.' }) }),
      certificate: Type.Object({ data: Type.Union([Identifier('certificates'), Type.Null()]) }),
    }),
    { description: 'An enrollment (EnrollmentResource).' },
  ),
);
export type EnrollmentResource = Static<typeof EnrollmentResourceSchema>;

/** EnrollmentWriteResource (bulk-enroll and update results), declared once: the type of presentEnrollmentWrite's result. */
export const EnrollmentWriteResourceSchema = declaredV2(
  'EnrollmentWriteResource',
  V2RelatedResourceSchema(
    'enrollments',
    Type.Object({ enrolled_at: DateTime(), expires_at: nullable(DateTime()), due_at: nullable(DateTime()), active: Type.Boolean() }),
    Type.Object(ENROLLMENT_RELATIONSHIPS),
    { description: 'An enrollment as a write answers it (EnrollmentWriteResource).' },
  ),
);
export type EnrollmentWriteResource = Static<typeof EnrollmentWriteResourceSchema>;

/** EnrollmentCompletionResource (completion results), declared once: the type of presentEnrollmentCompletion's result. */
export const EnrollmentCompletionResourceSchema = declaredV2(
  'EnrollmentCompletionResource',
  V2UnlinkedResourceSchema('enrollments', Type.Object({ completed_at: nullable(DateTime()), success_status: StringEnum(SUCCESS_STATUSES) }), {
    description: "An enrollment's completion as the completion write answers it (EnrollmentCompletionResource).",
  }),
);
export type EnrollmentCompletionResource = Static<typeof EnrollmentCompletionResourceSchema>;

const iso = (d: Timestamp | null) => (d ? isoOf(d) : null);

export function progressStatus(r: { completedAt: Timestamp | null; startedAt: Timestamp | null }): ProgressStatus {
  return r.completedAt ? 'completed' : r.startedAt ? 'in_progress' : 'not_started';
}

/** passed / failed from the course progress; otherwise pending when the course has graded content, else not_applicable. */
export function successStatus(r: { successStatus: string | null; graded: boolean }): (typeof SUCCESS_STATUSES)[number] {
  if (r.successStatus === 'PASSED') return 'passed';
  if (r.successStatus === 'FAILED') return 'failed';
  return r.graded ? 'pending' : 'not_applicable';
}

function relationships(r: { userId: string; publishedCourseId: string }): EnrollmentWriteResource['relationships'] {
  return {
    student: { data: { type: 'students' as const, id: encodeId('student', r.userId) } },
    'published-course': { data: { type: 'published-courses' as const, id: encodeId('publishedCourse', r.publishedCourseId) } },
  };
}

/** EnrollmentResource: one literal, members in the order v2Resource answers them (type, id, attributes, relationships, links). */
export function presentEnrollment(r: EnrollmentV2Row, baseUrl: string): EnrollmentResource {
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

export function presentEnrollmentWrite(r: EnrollmentWriteRow, baseUrl: string): EnrollmentWriteResource {
  const attributes: EnrollmentWriteResource['attributes'] = { enrolled_at: r.enrolledAt.toISOString(), expires_at: iso(r.expiresAt), due_at: iso(r.dueAt), active: r.isActive };
  return v2Resource('enrollments', 'enrollment', r.id, baseUrl, attributes, relationships(r));
}

export function presentEnrollmentCompletion(r: EnrollmentV2Row): EnrollmentCompletionResource {
  return {
    type: 'enrollments' as const,
    id: encodeId('enrollment', r.id),
    attributes: { completed_at: iso(r.completedAt), success_status: successStatus(r) },
  };
}
