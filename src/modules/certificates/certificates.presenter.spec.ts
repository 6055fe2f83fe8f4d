import { parseTimestamptz } from '../../core/database/pool-reads';
import { presentGroup } from '../groups/groups.presenter';
import { certificateJson, certificateRowJson, presentCertificate } from './certificates.presenter';

/**
 * The /v2 group and certificate reads keep timestamps as pg's text (TEXT_TIMESTAMPS); the
 * presenters must answer exactly what they answer for the Dates pg would have parsed.
 */
describe('presentCertificate / presentGroup: pg text timestamps present as their Dates do', () => {
  const texts = ['2025-03-04 05:06:07+00', '2025-03-04 05:06:07.1+00', '2025-03-04 05:06:07.123456+00', '2025-03-04 07:06:07.98765+02', '1999-12-31 23:59:59.999999+00'];
  const now = new Date('2025-03-04T05:06:07.100Z');

  it('a certificate: issued_at, expires_at and the status at `now` alike', () => {
    for (const issued of texts) {
      for (const expires of [null, ...texts]) {
        const row = {
          id: '0b9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f50',
          userId: '1c9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f51',
          courseId: '2d9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f52',
          code: 'CERT-1',
          scoreAsPercent: 80,
        };
        const asText = presentCertificate({ ...row, issuedAt: issued, expiresAt: expires }, 'http://a.test/', now);
        const asDates = presentCertificate({ ...row, issuedAt: parseTimestamptz(issued), expiresAt: expires === null ? null : parseTimestamptz(expires) }, 'http://a.test/', now);
        expect(JSON.stringify(asText)).toBe(JSON.stringify(asDates));
      }
    }
    const expired = presentCertificate(
      {
        id: '0b9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f50',
        userId: '1c9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f51',
        courseId: '2d9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f52',
        code: 'C',
        scoreAsPercent: null,
        issuedAt: texts[0],
        expiresAt: '2025-03-04 05:06:07.0999+00',
      },
      'http://a.test',
      now,
    );
    expect(expired.attributes).toMatchObject({ status: 'expired', expires_at: '2025-03-04T05:06:07.099Z' });
  });

  it('a group: created_at and updated_at alike', () => {
    for (const t of texts) {
      const row = { id: '0b9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f50', name: 'G', ruleEmailDomains: ['a.test'], sendCourseEnrollmentEmail: true, categoryId: null };
      expect(JSON.stringify(presentGroup({ ...row, createdAt: t, updatedAt: t }))).toBe(JSON.stringify(presentGroup({ ...row, createdAt: parseTimestamptz(t), updatedAt: parseTimestamptz(t) })));
    }
  });
});

describe('certificateRowJson: the bytes of JSON.stringify(presentCertificate(...))', () => {
  it('for text and Date timestamps, null and odd values, expired and active', () => {
    const now = new Date('2025-03-04T05:06:07.100Z');
    const rows = [
      { code: 'CERT-ABC', scoreAsPercent: 87, issuedAt: '2025-03-04 05:06:07.123456+00', expiresAt: null },
      { code: 'quote " back \\ \u2028 é 😀', scoreAsPercent: null, issuedAt: new Date('2020-01-01T00:00:00Z'), expiresAt: '2025-03-04 05:06:07.05+00' },
      { code: '', scoreAsPercent: 0, issuedAt: '2025-03-04 07:06:07+02', expiresAt: new Date('2030-01-01T00:00:00Z') },
      { code: 'x', scoreAsPercent: 100, issuedAt: '2025-03-04 05:06:07+00', expiresAt: '2025-03-04 05:06:07.1+00' },
    ];
    for (const base of ['http://a.test', 'https://b.test:8443/', 'http://a.test']) {
      for (const r of rows) {
        const c = { id: '0b9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f50', userId: '1c9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f51', courseId: '2d9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f52', ...r };
        expect(certificateRowJson(c, base, now)).toBe(JSON.stringify(presentCertificate(c, base, now)));
        // the hand writer is the declaration's compiled serializer, byte for byte
        expect(certificateRowJson(c, base, now)).toBe(certificateJson(presentCertificate(c, base, now)));
      }
    }
  });

  it('score_as_percent is an integer (the column is, and the published CertificateAttributes): another number throws in the serializer', () => {
    const c = { id: '0b9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f50', userId: '1c9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f51', courseId: '2d9c5b0e-4f0e-4a43-9a4e-6f1c2d3e4f52', code: 'x' };
    const at = { issuedAt: new Date('2020-01-01T00:00:00Z'), expiresAt: null };
    expect(() => certificateJson(presentCertificate({ ...c, ...at, scoreAsPercent: 99.5 }, 'http://a.test'))).toThrow(/score_as_percent/);
  });
});
