import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `filter[updated_since]` on /v2/certificates (docs/decisions/data-out.md): certificates get an
 * `updated_at`, their creation time or, for a revoked one, its revocation; from now on the
 * BEFORE UPDATE trigger that keeps users' and enrollments' `updated_at` (data_out_touch) moves it on
 * every real change of the row, whatever wrote it. The list ordered by last change reads
 * (organization_id, updated_at, id).
 */
export class CertificatesUpdatedAt1763890001000 implements MigrationInterface {
  name = 'CertificatesUpdatedAt1763890001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE certificates ADD COLUMN IF NOT EXISTS updated_at timestamptz`);
    await q.query(`UPDATE certificates SET updated_at = date_trunc('milliseconds', greatest(created_at, revoked_at)) WHERE updated_at IS NULL`);
    await q.query(`ALTER TABLE certificates ALTER COLUMN updated_at SET DEFAULT date_trunc('milliseconds', now()), ALTER COLUMN updated_at SET NOT NULL`);
    await q.query(`CREATE TRIGGER certificates_data_out_touch BEFORE UPDATE ON certificates FOR EACH ROW EXECUTE FUNCTION data_out_touch()`);
    await q.query(`CREATE INDEX IF NOT EXISTS certificates_org_updated_idx ON certificates (organization_id, updated_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS certificates_org_updated_idx`);
    await q.query(`DROP TRIGGER IF EXISTS certificates_data_out_touch ON certificates`);
    await q.query(`ALTER TABLE certificates DROP COLUMN IF EXISTS updated_at`);
  }
}
