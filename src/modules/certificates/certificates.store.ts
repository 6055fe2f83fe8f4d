import type { Timestamp } from '../../core/database/pool-reads';
import { scoped, unscoped, type SqlRunner } from '../../core/database/scoped';

/**
 * The `certificates` and `certificate_templates` tables (the certificates module owns them): the
 * row types its statements answer (row-types.spec.ts checks them against the migrated schema)
 * and the statements that read them (docs/decisions/data-access.md).
 */

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

/** A certificate with what its documents show (PDF, credential, verification). @table certificates */
export interface CertificateFactsRow {
  id: string;
  /** @column certificates.organization_id */
  organizationId: string;
  /** @column organizations.name */
  organizationName: string;
  code: string;
  /** @column certificates.issued_at */
  issuedAt: Date;
  /** @column certificates.expires_at */
  expiresAt: Date | null;
  /** @column certificates.revoked_at */
  revokedAt: Date | null;
  /** @column certificates.status_index */
  statusIndex: number | null;
  /** @computed the user's first and last name */
  learnerName: string;
  /** @column users.email */
  learnerEmail: string;
  /** @column courses.id */
  courseId: string;
  /** @column courses.title */
  courseTitle: string;
  /** @column courses.short_description */
  courseDescription: string;
}

const FACTS_SQL = `
  SELECT c.id, c.organization_id AS "organizationId", o.name AS "organizationName", c.code, c.issued_at AS "issuedAt",
         c.expires_at AS "expiresAt", c.revoked_at AS "revokedAt", c.status_index AS "statusIndex",
         btrim(concat_ws(' ', NULLIF(u.first_name, ''), NULLIF(u.last_name, ''))) AS "learnerName", u.email AS "learnerEmail",
         co.id AS "courseId", co.title AS "courseTitle", co.short_description AS "courseDescription"
    FROM certificates c
    JOIN organizations o ON o.id = c.organization_id
    JOIN users u ON u.id = c.user_id AND u.organization_id = c.organization_id
    JOIN courses co ON co.id = c.course_id AND co.organization_id = c.organization_id`;

/** The certificate `id` of the organization, with its facts (null when there is none). */
export async function loadCertificateFacts(runner: SqlRunner, organizationId: string, id: string): Promise<CertificateFactsRow | null> {
  const [row] = await scoped(runner, organizationId).query<CertificateFactsRow[]>(`${FACTS_SQL} WHERE c.id = $1 AND c.organization_id = $org`, [id]);
  return row ?? null;
}

/** The certificate with one of `codes`, in any organization (a code is what a learner hands to whoever checks it). */
export async function loadCertificateFactsByCode(runner: SqlRunner, codes: string[]): Promise<CertificateFactsRow | null> {
  const [row] = await unscoped(runner, 'public certificate verification by its unique code').query<CertificateFactsRow[]>(`${FACTS_SQL} WHERE c.code = ANY($1::text[])`, [codes]);
  return row ?? null;
}

/** The organization's certificate template row. @table certificate_templates */
export interface CertificateTemplateRow {
  title: string;
  primary_color: string;
  accent_color: string;
  signature_name: string | null;
  signature_title: string | null;
  logo: Buffer | null;
  logo_type: 'image/png' | 'image/jpeg' | null;
  updated_at: Date;
}

/** The organization's template row (null until its first write). */
export async function loadCertificateTemplate(runner: SqlRunner, organizationId: string): Promise<CertificateTemplateRow | null> {
  const [row] = await scoped(runner, organizationId).query<CertificateTemplateRow[]>(
    `SELECT title, primary_color, accent_color, signature_name, signature_title, logo, logo_type, updated_at FROM certificate_templates WHERE organization_id = $org`,
  );
  return row ?? null;
}
