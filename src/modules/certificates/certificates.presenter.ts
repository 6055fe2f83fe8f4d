import { isoJson, isoOf, type Timestamp } from '../../core/database/pool-reads';
import { certificateStatus } from './certificate-status';
import { cachedPublicId } from '../../core/ids/ids';
import type { CursorPosition } from '../../core/pagination/cursor-page';
import { publicIdsOf, selfLinkJsonPrefix, trimBase } from '../../core/ids/public-ids';

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
 * CertificateResource. `status` (certificateStatus: active | expired, from expires_at at read time) is added to the
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
      status: certificateStatus(c.expiresAt, now),
      pdf_url: `${trimBase(baseUrl)}/v2/certificates/${id}/pdf`,
    },
    relationships: {
      student: { data: { type: 'students' as const, id: cachedPublicId('student', c.userId) } },
      course: { data: { type: 'courses' as const, id: publicIdsOf('course', c.courseId).id } },
    },
    links: { self: `${trimBase(baseUrl)}/v2/certificates/${id}` },
  };
}

/**
 * `JSON.stringify(presentCertificate(c, baseUrl, now))` written directly (the same bytes: the same
 * members in the same order, strings through JSON.stringify, numbers and dates as JSON writes them),
 * without the resource object: the list presents 100 of these per request.
 */
export function certificateRowJson(c: CertificateView, baseUrl: string, now: Date): string {
  const id = cachedPublicId('certificate', c.id);
  return (
    '{"type":"certificates","id":"' +
    id +
    '","attributes":{"code":' +
    JSON.stringify(c.code) +
    ',"issued_at":"' +
    isoOf(c.issuedAt) +
    '","expires_at":' +
    isoJson(c.expiresAt) +
    ',"score_as_percent":' +
    JSON.stringify(c.scoreAsPercent) +
    ',"status":' +
    (certificateStatus(c.expiresAt, now) === 'expired' ? '"expired"' : '"active"') +
    ',"pdf_url":' +
    selfLinkJsonPrefix(baseUrl, 'certificates') +
    id +
    '/pdf"},"relationships":{"student":{"data":{"type":"students","id":"' +
    cachedPublicId('student', c.userId) +
    '"}},"course":{"data":{"type":"courses","id":"' +
    publicIdsOf('course', c.courseId).id +
    '"}}},"links":{"self":' +
    selfLinkJsonPrefix(baseUrl, 'certificates') +
    id +
    '"}}'
  );
}

/** A list row's keyset position (the cursor of the page it ends): created_at as toISOString writes it. */
export function certificateRowPosition(c: CertificateView & { createdAt: Timestamp }): CursorPosition {
  return { t: isoOf(c.createdAt), id: c.id };
}

/** The cursor position of a row of the list ordered by last change (filter[updated_since]). */
export function certificateRowChange(c: CertificateView & { updatedAt?: Timestamp }): CursorPosition {
  return { t: isoOf(c.updatedAt!), id: c.id };
}
