import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import { applyKeyset, PageRequest } from '../../core/pagination/cursor-page';
import { Certificate } from './certificate.entity';

export type CertificateStatus = 'active' | 'expired' | 'all';

export interface CertificateFilters {
  /** lowercase domain names; a certificate matches when its domain (or its published course's) is one of them */
  domains?: string[];
  status: CertificateStatus;
  issuedGte?: Date;
  issuedLte?: Date;
  studentUuid?: string;
  courseUuid?: string;
}

/** Certificates of the caller's organization (read-only on /v2). */
@Injectable()
export class CertificatesService {
  constructor(@InjectRepository(Certificate) private readonly certificates: Repository<Certificate>) {}

  async list(p: Principal, page: PageRequest, f: CertificateFilters): Promise<Certificate[]> {
    const org = p.organizationId;
    const qb = this.certificates.createQueryBuilder('c').where('c.organization_id = :org', { org });
    if (f.domains) {
      qb.andWhere(
        `(c.domain_id IN (SELECT d.id FROM domains d WHERE d.organization_id = :org AND lower(d.name) = ANY(:names))
          OR (c.domain_id IS NULL AND c.published_course_id IN (
               SELECT pc.id FROM published_courses pc JOIN domains d ON d.id = pc.domain_id
                WHERE pc.organization_id = :org AND d.organization_id = :org AND lower(d.name) = ANY(:names))))`,
        { names: f.domains },
      );
    }
    if (f.status === 'active') qb.andWhere('(c.expires_at IS NULL OR c.expires_at > now())');
    if (f.status === 'expired') qb.andWhere('c.expires_at <= now()');
    if (f.issuedGte) qb.andWhere('c.issued_at >= :gte', { gte: f.issuedGte });
    if (f.issuedLte) qb.andWhere('c.issued_at <= :lte', { lte: f.issuedLte });
    if (f.studentUuid) qb.andWhere('c.user_id = :student', { student: f.studentUuid });
    if (f.courseUuid) qb.andWhere('c.course_id = :course', { course: f.courseUuid });
    return applyKeyset(qb, 'c', page).getMany();
  }

  async get(p: Principal, publicId: string): Promise<Certificate> {
    const id = decodeId('certificate', publicId);
    const cert = id ? await this.certificates.findOne({ where: { id, organizationId: p.organizationId } }) : null;
    if (!cert) throw notFound('Certificate not found.');
    return cert;
  }
}
