import { v2Resource } from '../../core/http/v2-resource-kit';
import { encodeId } from '../../core/ids/ids';
import type { Certificate } from './certificate.entity';

/**
 * CertificateResource. `status` (active | expired, from expires_at at read time) is added to the
 * published attributes; the student and course are relationships, as the reference has them.
 */
export function presentCertificate(c: Certificate, baseUrl: string, now = new Date()) {
  return v2Resource(
    'certificates',
    'certificate',
    c.id,
    baseUrl,
    {
      code: c.code,
      issued_at: c.issuedAt.toISOString(),
      expires_at: c.expiresAt ? c.expiresAt.toISOString() : null,
      score_as_percent: c.scoreAsPercent,
      status: c.expiresAt && c.expiresAt <= now ? ('expired' as const) : ('active' as const),
    },
    {
      student: { data: { type: 'students' as const, id: encodeId('student', c.userId) } },
      course: { data: { type: 'courses' as const, id: encodeId('course', c.courseId) } },
    },
  );
}
