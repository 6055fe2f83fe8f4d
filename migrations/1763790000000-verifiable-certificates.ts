import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Certificates that prove themselves (issue 34, CONVENTIONS §22; docs/decisions/certificates.md):
 * - `certificates.revoked_at`: set when the completion behind a certificate is removed (the
 *   certificate also expires then, as before); `status_index`: the certificate's bit in its
 *   organization's Bitstring Status List, given when its credential is first issued (unique per
 *   organization).
 * - `certificate_templates`: one per organization (logo, colours, signature line) for the PDF.
 * - `credential_issuers`: one per organization, the next free status-list index.
 * - `issuer_keys`: the organization's Ed25519 signing keys (private key sealed with APP_SECRET);
 *   rotation retires the current key (still listed in the DID document, so credentials it signed
 *   still verify) and makes a new one; at most one active key per organization.
 */
export class VerifiableCertificates1763790000000 implements MigrationInterface {
  name = 'VerifiableCertificates1763790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE certificates ADD COLUMN revoked_at timestamptz, ADD COLUMN status_index integer`);
    await q.query(`CREATE UNIQUE INDEX certificates_org_status_index_key ON certificates (organization_id, status_index) WHERE status_index IS NOT NULL`);
    await q.query(`CREATE TABLE certificate_templates (
      organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
      title text NOT NULL DEFAULT 'Certificate of Completion',
      primary_color text NOT NULL DEFAULT '#1f3a5f' CHECK (primary_color ~ '^#[0-9a-f]{6}$'),
      accent_color text NOT NULL DEFAULT '#c8a951' CHECK (accent_color ~ '^#[0-9a-f]{6}$'),
      signature_name text,
      signature_title text,
      logo bytea,
      logo_type text CHECK (logo_type IN ('image/png', 'image/jpeg')),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((logo IS NULL) = (logo_type IS NULL))
    )`);
    await q.query(`CREATE TABLE credential_issuers (
      organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
      next_status_index integer NOT NULL DEFAULT 0 CHECK (next_status_index >= 0),
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE issuer_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES credential_issuers(organization_id) ON DELETE CASCADE,
      key_number integer NOT NULL CHECK (key_number > 0),
      public_key_multibase text NOT NULL,
      private_key_sealed text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      retired_at timestamptz,
      UNIQUE (organization_id, key_number)
    )`);
    await q.query(`CREATE UNIQUE INDEX issuer_keys_one_active ON issuer_keys (organization_id) WHERE retired_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS issuer_keys`);
    await q.query(`DROP TABLE IF EXISTS credential_issuers`);
    await q.query(`DROP TABLE IF EXISTS certificate_templates`);
    await q.query(`DROP INDEX IF EXISTS certificates_org_status_index_key`);
    await q.query(`ALTER TABLE certificates DROP COLUMN IF EXISTS revoked_at, DROP COLUMN IF EXISTS status_index`);
  }
}
