import { parseTimestamptz } from '../../core/database/pool-reads';
import { presentEnrollment, presentEnrollmentCompletion } from './enrollments.v2.presenter';
import type { EnrollmentV2Row } from './enrollments.v2.service';

/** The /v2 enrollment reads keep timestamps as pg's text: the resource must be what the Dates give. */
describe('presentEnrollment: pg text timestamps present as their Dates do', () => {
  const texts = ['2025-03-04 05:06:07+00', '2025-03-04 05:06:07.1+00', '2025-03-04 05:06:07.123456+00', '2025-03-04 07:06:07.98765+02'];
  const base: Omit<EnrollmentV2Row, 'createdAt' | 'enrolledAt' | 'expiresAt' | 'dueAt' | 'startedAt' | 'completedAt'> = {
    id: '0b9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f50',
    userId: '1c9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f51',
    publishedCourseId: '2d9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f52',
    courseId: '3e9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f53',
    isActive: true,
    domainName: 'd.test',
    score: 7,
    maxScore: 10,
    successStatus: 'PASSED',
    graded: true,
    certificateId: '4f9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f54',
    rating: 4,
    ratingScale: 5,
    feedback: 'ok',
  };
  it('every timestamp, set or null', () => {
    for (const t of texts) {
      for (const optional of [null, t]) {
        const text = { ...base, createdAt: t, enrolledAt: t, expiresAt: optional, dueAt: optional, startedAt: optional, completedAt: optional };
        const d = (v: string | null) => (v === null ? null : parseTimestamptz(v));
        const dates = { ...base, createdAt: parseTimestamptz(t), enrolledAt: parseTimestamptz(t), expiresAt: d(optional), dueAt: d(optional), startedAt: d(optional), completedAt: d(optional) };
        expect(JSON.stringify(presentEnrollment(text, 'http://a.test'))).toBe(JSON.stringify(presentEnrollment(dates, 'http://a.test')));
        expect(JSON.stringify(presentEnrollmentCompletion(text))).toBe(JSON.stringify(presentEnrollmentCompletion(dates)));
      }
    }
  });
});
