import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import { renderCertificatePdf } from './certificate-pdf';
import { CertificateTemplatesService } from './certificate-templates.service';
import { type CertificateFacts, certificateState, CredentialsService } from './credentials.service';
import { loadCertificateFacts, loadCertificateFactsByCode } from './certificates.store';
import type { Verification } from './certificate-schemas';

/** Certificate codes as issued (certificate-writes.ts): 16 of A-Z and 2-9; older rows (fixtures, imports) may hold other text. */
const CODE = /^[A-Za-z0-9-]{1,64}$/;

/** Rendered PDFs by certificate id, with the fingerprint of what they show; bounded and short-lived (a changed name, template or state renders anew). */
const PDF_CACHE_SIZE = 200;
const PDF_CACHE_MS = 10 * 60 * 1000;

/** The learner-facing documents of a certificate: its PDF, its Open Badges credential, its public verification. */
@Injectable()
export class CertificateDocumentsService {
  private readonly pdfs = new Map<string, { fingerprint: string; pdf: Buffer; at: number }>();

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly credentials: CredentialsService,
    private readonly templates: CertificateTemplatesService,
  ) {}

  /** A certificate of the caller's organization by its public id (404 otherwise, whatever the id). */
  async byPublicId(organizationId: string, publicId: string): Promise<CertificateFacts> {
    const uuid = decodeId('certificate', publicId);
    const row = uuid ? await loadCertificateFacts(this.ds, organizationId, uuid) : null;
    if (!row) throw new ApiError(404, 'Certificate not found.');
    return row;
  }

  /** A certificate by its code, in any organization (the code is what a learner hands to whoever checks it). */
  async byCode(code: string): Promise<CertificateFacts> {
    const row = CODE.test(code) ? await loadCertificateFactsByCode(this.ds, [code, code.toUpperCase()]) : null;
    if (!row) throw new ApiError(404, 'No certificate has this code.');
    return row;
  }

  verificationUrl(c: Pick<CertificateFacts, 'code'>): string {
    return `${this.credentials.base()}/verify/${encodeURIComponent(c.code)}`;
  }

  /** What the public verification shows: the state, the learner's name, the course and the dates; nothing else. */
  verification(c: CertificateFacts, now = new Date()): Verification {
    return {
      code: c.code,
      status: certificateState(c, now),
      learner_name: c.learnerName,
      course: c.courseTitle,
      issued_at: c.issuedAt.toISOString(),
      expires_at: c.expiresAt ? c.expiresAt.toISOString() : null,
      revoked_at: c.revokedAt ? c.revokedAt.toISOString() : null,
      issuer: c.organizationName,
    };
  }

  async pdf(c: CertificateFacts): Promise<Buffer> {
    const template = await this.templates.get(c.organizationId);
    const content = {
      organizationName: c.organizationName,
      learnerName: c.learnerName,
      courseTitle: c.courseTitle,
      issuedAt: c.issuedAt,
      expiresAt: c.expiresAt,
      code: c.code,
      verificationUrl: this.verificationUrl(c),
      state: certificateState(c),
    };
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([content, template.updatedAt?.toISOString() ?? null]))
      .digest('base64url');
    const hit = this.pdfs.get(c.id);
    if (hit && hit.fingerprint === fingerprint && Date.now() - hit.at < PDF_CACHE_MS) return hit.pdf;
    const pdf = await renderCertificatePdf(content, template);
    this.pdfs.delete(c.id);
    if (this.pdfs.size >= PDF_CACHE_SIZE) this.pdfs.delete(this.pdfs.keys().next().value!);
    this.pdfs.set(c.id, { fingerprint, pdf, at: Date.now() });
    return pdf;
  }

  credential(c: CertificateFacts) {
    return this.credentials.credential(c);
  }
}
