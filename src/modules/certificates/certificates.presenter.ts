import { dateOf, isoOf, type Timestamp } from '../../core/database/pool-reads';
import { cachedPublicId } from '../../core/ids/ids';
import { publicIdsOf, trimBase } from '../courses/public-ids';

/** What a certificate resource shows: a Certificate entity, or a row read with these members as pg answers it. */
export interface CertificateView {
  id: string;
  userId: string;
  courseId: string;
  code: string;
  issuedAt: Timestamp;
  expiresAt: Timestamp | null;
  scoreAsPercent: number | null;
}

/**
 * CertificateResource. `status` (active | expired, from expires_at at read time) is added to the
 * published attributes; the student and course are relationships, as the reference has them.
 * One literal, members in the order v2Resource answers them (type, id, attributes,
 * relationships, links).
 */
export function presentCertificate(c: CertificateView, baseUrl: string, now = new Date()) {
  const id = cachedPublicId('certificate', c.id);
  return {
    type: 'certificates' as const,
    id,
    attributes: {
      code: c.code,
      issued_at: isoOf(c.issuedAt),
      expires_at: c.expiresAt ? isoOf(c.expiresAt) : null,
      score_as_percent: c.scoreAsPercent,
      status: c.expiresAt && dateOf(c.expiresAt) <= now ? ('expired' as const) : ('active' as const),
    },
    relationships: {
      student: { data: { type: 'students' as const, id: cachedPublicId('student', c.userId) } },
      course: { data: { type: 'courses' as const, id: publicIdsOf('course', c.courseId).id } },
    },
    links: { self: `${trimBase(baseUrl)}/v2/certificates/${id}` },
  };
}
