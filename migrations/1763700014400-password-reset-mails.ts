import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Faults (Redis outage): the durable record of a password-reset mail asked for, so the worker's
 * sweeper can queue the mail again when its job never reached Redis; done_at is set once the mail is
 * sent (or skipped: no recipient any more).
 * password_changed_at is the `pca` claim of the link exactly as signed (text), so the re-queued
 * job carries the same link. Partial indexes for the sweeper's "still pending" reads of imports.
 */
export class PasswordResetMails1763700014400 implements MigrationInterface {
  name = 'PasswordResetMails1763700014400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE password_reset_mails (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        domain_name text NOT NULL,
        expires_at timestamptz NOT NULL,
        password_changed_at text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        done_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX password_reset_mails_pending_idx ON password_reset_mails (created_at) WHERE done_at IS NULL`);
    await q.query(`CREATE INDEX password_reset_mails_expires_idx ON password_reset_mails (expires_at)`);
    await q.query(`CREATE INDEX password_reset_mails_user_idx ON password_reset_mails (user_id)`);
    await q.query(`CREATE INDEX assets_processing_idx ON assets (created_at) WHERE state = 'PROCESSING'`);
    await q.query(`CREATE INDEX web_packages_processing_idx ON web_packages (created_at) WHERE state = 'PROCESSING'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS web_packages_processing_idx`);
    await q.query(`DROP INDEX IF EXISTS assets_processing_idx`);
    await q.query(`DROP TABLE IF EXISTS password_reset_mails`);
  }
}
