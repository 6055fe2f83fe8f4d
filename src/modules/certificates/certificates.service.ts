import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { poolRead, poolRowOr404, TEXT_TIMESTAMPS, type Timestamp } from '../../core/database/pool-reads';
import type { PageRequest } from '../../core/pagination/cursor-page';
import type { CertificateView } from './certificates.store';
import { CERTIFICATE_STATUS_SQL } from './certificate-status';

export type CertificateStatus = 'active' | 'expired' | 'all';

export interface CertificateFilters {
  /** lowercase domain names; a certificate matches when its domain (or its published course's) is one of them */
  domains?: string[];
  status: CertificateStatus;
  issuedGte?: Date;
  issuedLte?: Date;
  studentUuid?: string;
  courseUuid?: string;
  /** filter[updated_since]: changed at or after, ordered by last change (updated_at, id) on certificates_org_updated_idx */
  updatedSince?: Date;
}

/** A certificate row as pg answers it, the columns named as the presenter and the page read them. */
export type CertificateRow = CertificateView & { createdAt: Timestamp; updatedAt?: Timestamp };

/** The columns of a /v2 certificate read, aliased to the members presentCertificate and pageDocument read (no entity in between). */
const COLUMNS = `c.id, c.created_at AS "createdAt", c.user_id AS "userId", c.course_id AS "courseId", c.code, c.issued_at AS "issuedAt", c.expires_at AS "expiresAt", c.score_as_percent AS "scoreAsPercent"`;

const GET = { name: 'certificates_v2_get', sql: `SELECT ${COLUMNS} FROM certificates c WHERE c.id = $1 AND c.organization_id = $org`, types: TEXT_TIMESTAMPS };

/** Certificates of the caller's organization (read-only on /v2). */
@Injectable()
export class CertificatesService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * A keyset page, oldest first (created_at, id), on the (organization_id, created_at, id) index:
   * one plain statement, the rows presented as pg answers them.
   */
  list(p: Principal, page: PageRequest, f: CertificateFilters): Promise<CertificateRow[]> {
    const params: unknown[] = [];
    let where = 'c.organization_id = $org';
    if (f.domains) {
      const names = params.push(f.domains);
      where += ` AND (c.domain_id IN (SELECT d.id FROM domains d WHERE d.organization_id = $org AND lower(d.name) = ANY($${names}))
          OR (c.domain_id IS NULL AND c.published_course_id IN (
               SELECT pc.id FROM published_courses pc JOIN domains d ON d.id = pc.domain_id
                WHERE pc.organization_id = $org AND d.organization_id = $org AND lower(d.name) = ANY($${names}))))`;
    }
    if (f.status !== 'all') where += ` AND ${CERTIFICATE_STATUS_SQL[f.status]}`;
    if (f.issuedGte) where += ` AND c.issued_at >= $${params.push(f.issuedGte)}`;
    if (f.issuedLte) where += ` AND c.issued_at <= $${params.push(f.issuedLte)}`;
    if (f.studentUuid) where += ` AND c.user_id = $${params.push(f.studentUuid)}`;
    if (f.courseUuid) where += ` AND c.course_id = $${params.push(f.courseUuid)}`;
    // the unfiltered pages (every status, nothing else) are two fixed texts: named statements
    const name = params.length === 0 && f.status === 'all' ? (page.after ? 'certificates_v2_list_after' : 'certificates_v2_list') : undefined;
    if (f.updatedSince) {
      // by last change (docs/decisions/data-out.md): the cursor carries (updated_at, id)
      where += ` AND c.updated_at >= $${params.push(f.updatedSince)}`;
      if (page.after) where += ` AND (c.updated_at, c.id) > ($${params.push(page.after.t)}::timestamptz, $${params.push(page.after.id)}::uuid)`;
      const sql = `SELECT ${COLUMNS}, c.updated_at AS "updatedAt" FROM certificates c WHERE ${where} ORDER BY c.updated_at ASC, c.id ASC LIMIT $${params.push(page.size + 1)}`;
      return poolRead(this.ds, p.organizationId, { sql, types: TEXT_TIMESTAMPS }, params);
    }
    if (page.after) where += ` AND (c.created_at, c.id) > ($${params.push(page.after.t)}::timestamptz, $${params.push(page.after.id)}::uuid)`;
    const sql = `SELECT ${COLUMNS} FROM certificates c WHERE ${where} ORDER BY c.created_at ASC, c.id ASC LIMIT $${params.push(page.size + 1)}`;
    return poolRead(this.ds, p.organizationId, { sql, name, types: TEXT_TIMESTAMPS }, params);
  }

  async get(p: Principal, publicId: string): Promise<CertificateRow> {
    return poolRowOr404(this.ds, p.organizationId, 'certificate', publicId, GET, 'Certificate not found.');
  }
}
