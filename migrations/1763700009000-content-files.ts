import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * Content files (/v1 assets and web packages). Both are created from a remote URL and imported by
 * the worker (PROCESSING, then READY or FAILED with failure_reason); the bytes live in file storage
 * under storage_key / storage_prefix, never in the database. An asset created from an embed link
 * only has no file and is READY at once.
 *
 * Lessons point at them through lessons.content_asset_id / content_web_package_id (plain uuids of
 * the learning model, no foreign keys); the partial indexes below serve the "is it used" checks
 * and the web-package lessons replacement.
 */
export class ContentFiles1763700009000 implements MigrationInterface {
  name = 'ContentFiles1763700009000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE assets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        type text CHECK (type IN ('AUDIO_BOTR', 'HTML', 'PDF', 'VIDEO_BOTR', 'FILE', 'TEMPLATE')),
        source_url text,
        embed_link_url text,
        aspect_ratio text NOT NULL DEFAULT '16:9' CHECK (aspect_ratio IN ('16:9', '4:3')),
        sync_completion boolean NOT NULL DEFAULT false,
        state text NOT NULL DEFAULT 'PROCESSING' CHECK (state IN ('PROCESSING', 'READY', 'FAILED')),
        failure_reason text,
        storage_key text,
        content_type text,
        size_bytes bigint,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX assets_org_created_idx ON assets (organization_id, created_at, id)`);

    await q.query(`
      CREATE TABLE web_packages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title text NOT NULL,
        type text CHECK (type IN ('SCORM', 'XAPI', 'CMI5')),
        standard_version text,
        redirect_on_completion boolean NOT NULL DEFAULT true,
        sync_completion boolean NOT NULL DEFAULT false,
        state text NOT NULL DEFAULT 'PROCESSING' CHECK (state IN ('PROCESSING', 'READY', 'FAILED')),
        failure_reason text,
        source_url text NOT NULL,
        storage_prefix text NOT NULL,
        launch_path text,
        size_bytes bigint,
        expanded_bytes bigint,
        file_count integer,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE INDEX web_packages_org_created_idx ON web_packages (organization_id, created_at, id)`);

    await q.query(`CREATE INDEX lessons_org_web_package_idx ON lessons (organization_id, content_web_package_id) WHERE content_web_package_id IS NOT NULL`);
    await q.query(`CREATE INDEX lessons_org_asset_idx ON lessons (organization_id, content_asset_id) WHERE content_asset_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS lessons_org_asset_idx`);
    await q.query(`DROP INDEX IF EXISTS lessons_org_web_package_idx`);
    await q.query(`DROP TABLE IF EXISTS web_packages`);
    await q.query(`DROP TABLE IF EXISTS assets`);
  }
}
