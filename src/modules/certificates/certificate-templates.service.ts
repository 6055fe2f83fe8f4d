import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import { loadCertificateTemplate } from './certificates.store';
import { ValidationFailed } from '../../core/http/api-error';
import { DEFAULT_TEMPLATE, pdfLib, type CertificateTemplate } from './certificate-pdf';
import type { CertificateTemplateDto } from './dto/certificate-template.dto';
import type { CertificateTemplateV1 } from './certificate-schemas';

const COLOR = /^#[0-9a-fA-F]{6}$/;
const DATA_URL = /^data:(image\/png|image\/jpeg);base64,([A-Za-z0-9+/]+={0,2})$/;
const MAX_LOGO_BYTES = 512 * 1024;

export interface StoredTemplate extends CertificateTemplate {
  updatedAt: Date | null;
}

const bad = (field: string, message: string) => new ValidationFailed([{ field, message, v1: { field, messages: [message] } }], 400);

/** The organization's certificate template (one row, made on first write; the defaults until then). */
@Injectable()
export class CertificateTemplatesService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async get(organizationId: string): Promise<StoredTemplate> {
    const r = await loadCertificateTemplate(this.ds, organizationId);
    if (!r) return { ...DEFAULT_TEMPLATE, updatedAt: null };
    return {
      title: r.title,
      primaryColor: r.primary_color,
      accentColor: r.accent_color,
      signatureName: r.signature_name,
      signatureTitle: r.signature_title,
      logo: r.logo,
      logoType: r.logo_type,
      updatedAt: r.updated_at,
    };
  }

  /** Partial update: members not sent keep their value. The logo must be an image pdf-lib can place (422-free: a /v1 400). */
  async update(organizationId: string, dto: CertificateTemplateDto): Promise<StoredTemplate> {
    for (const f of ['primary_color', 'accent_color'] as const) if (dto[f] !== undefined && !COLOR.test(dto[f]!)) throw bad(f, 'Enter a colour as #rrggbb.');
    let logo: Buffer | null | undefined;
    let logoType: string | null | undefined;
    if (dto.logo === null) logo = logoType = null;
    else if (dto.logo !== undefined) {
      const m = DATA_URL.exec(dto.logo);
      if (!m) throw bad('logo', 'Send the logo as a data URL: data:image/png;base64,... or data:image/jpeg;base64,...');
      logo = Buffer.from(m[2], 'base64');
      logoType = m[1];
      if (logo.length > MAX_LOGO_BYTES) throw bad('logo', `The logo may be at most ${MAX_LOGO_BYTES} bytes.`);
      try {
        const probe = await (await pdfLib()).lib.PDFDocument.create();
        if (logoType === 'image/png') await probe.embedPng(logo);
        else await probe.embedJpg(logo);
      } catch {
        throw bad('logo', `Not a valid ${logoType === 'image/png' ? 'PNG' : 'JPEG'} image.`);
      }
    }
    const cur = await this.get(organizationId);
    const next = {
      title: dto.title ?? cur.title,
      primary: (dto.primary_color ?? cur.primaryColor).toLowerCase(),
      accent: (dto.accent_color ?? cur.accentColor).toLowerCase(),
      signatureName: dto.signature_name === undefined ? cur.signatureName : dto.signature_name,
      signatureTitle: dto.signature_title === undefined ? cur.signatureTitle : dto.signature_title,
      logo: logo === undefined ? cur.logo : logo,
      logoType: logoType === undefined ? cur.logoType : logoType,
    };
    await scoped(this.ds, organizationId).query(
      `INSERT INTO certificate_templates (organization_id, title, primary_color, accent_color, signature_name, signature_title, logo, logo_type, updated_at)
       VALUES ($org, $1, $2, $3, $4, $5, $6, $7, clock_timestamp())
       ON CONFLICT (organization_id) DO UPDATE SET title = EXCLUDED.title, primary_color = EXCLUDED.primary_color, accent_color = EXCLUDED.accent_color,
         signature_name = EXCLUDED.signature_name, signature_title = EXCLUDED.signature_title, logo = EXCLUDED.logo, logo_type = EXCLUDED.logo_type,
         updated_at = EXCLUDED.updated_at`,
      [next.title, next.primary, next.accent, next.signatureName, next.signatureTitle, next.logo, next.logoType],
    );
    return this.get(organizationId);
  }
}

export function presentTemplate(t: StoredTemplate): CertificateTemplateV1 {
  return {
    title: t.title,
    primary_color: t.primaryColor,
    accent_color: t.accentColor,
    signature_name: t.signatureName,
    signature_title: t.signatureTitle,
    logo: t.logo && t.logoType ? `data:${t.logoType};base64,${t.logo.toString('base64')}` : null,
    updated_at: t.updatedAt ? t.updatedAt.toISOString() : null,
  };
}
