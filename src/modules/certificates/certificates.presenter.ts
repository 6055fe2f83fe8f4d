import { Type, type Static } from '@sinclair/typebox';
import { compileSerializer, DateTime, declaredV2, nullable, PublicId, StringEnum, ToOne } from '../../core/openapi/declared-shape';
import { isoJson, isoOf, type Timestamp } from '../../core/database/pool-reads';
import { certificateStatus } from './certificate-status';
import type { CertificateView } from './certificates.store';
import { cachedPublicId } from '../../core/ids/ids';
import type { CursorPosition } from '../../core/pagination/cursor-page';
import { publicIdsOf, selfLinkJsonPrefix, trimBase } from '../../core/ids/public-ids';

export type { CertificateView } from './certificates.store';

/**
 * CertificateResource of the published /v2 document, declared once (core/openapi/declared-shape.ts);
 * `status` and `pdf_url` are extension attributes (x-extension).
 */
export const CertificateSchema = declaredV2(
  'CertificateResource',
  Type.Object({
    type: Type.Literal('certificates'),
    id: PublicId(),
    attributes: Type.Object({
      code: Type.String(),
      issued_at: DateTime(),
      expires_at: nullable(DateTime()),
      score_as_percent: nullable(Type.Integer()),
      status: StringEnum(['active', 'expired'], { 'x-extension': true, description: 'expired once expires_at has passed' }),
      pdf_url: Type.String({ format: 'uri', 'x-extension': true }),
    }),
    relationships: Type.Object({ student: ToOne('students'), course: ToOne('courses') }),
    links: Type.Object({ self: Type.String({ format: 'uri' }) }),
  }),
);
export type CertificateResource = Static<typeof CertificateSchema>;

/** The JSON text of a certificate resource (compiled from CertificateSchema): the list writes 100 per request. */
export const certificateJson = compileSerializer(CertificateSchema);

/**
 * CertificateResource from a certificate. `status` is the rule of certificate-status.ts at `now`;
 * the student and course are relationships, as the reference has them.
 */
export function presentCertificate(c: CertificateView, baseUrl: string, now = new Date()): CertificateResource {
  const id = cachedPublicId('certificate', c.id);
  const base = trimBase(baseUrl);
  return {
    type: 'certificates',
    id,
    attributes: {
      code: c.code,
      issued_at: isoOf(c.issuedAt),
      expires_at: c.expiresAt ? isoOf(c.expiresAt) : null,
      score_as_percent: c.scoreAsPercent,
      status: certificateStatus(c.expiresAt, now),
      pdf_url: `${base}/v2/certificates/${id}/pdf`,
    },
    relationships: {
      student: { data: { type: 'students', id: cachedPublicId('student', c.userId) } },
      course: { data: { type: 'courses', id: publicIdsOf('course', c.courseId).id } },
    },
    links: { self: `${base}/v2/certificates/${id}` },
  };
}

/**
 * `JSON.stringify(presentCertificate(c, baseUrl, now))` written directly (the same bytes: the same
 * members in the same order, strings through JSON.stringify, numbers and dates as JSON writes them),
 * without the resource object: the list presents 100 of these per request. Kept by hand: the
 * compiled serializer cost 20-25 % more server CPU per list request (docs/performance.md,
 * "Serialization from the declaration"); the presenter spec checks it against the declared presenter.
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
