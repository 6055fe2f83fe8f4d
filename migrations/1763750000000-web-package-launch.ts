import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30, item 1 (CONVENTIONS §18): what the manifest reader now keeps for launching a web
 * package beyond its launch file: `launch_parameters`, the query the content is opened with (the
 * href's own query, then the SCORM item's `parameters`), and `launch_data`, what a cmi5 AU or an
 * xAPI activity needs (activity id, moveOn, masteryScore, launchMethod) or the SCORM item launched.
 * `launch_path` is from now on normalised (xml:base applied, `.`/`..` resolved, escapes decoded).
 */
export class WebPackageLaunch1763750000000 implements MigrationInterface {
  name = 'WebPackageLaunch1763750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE web_packages ADD COLUMN launch_parameters text, ADD COLUMN launch_data jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE web_packages DROP COLUMN IF EXISTS launch_parameters, DROP COLUMN IF EXISTS launch_data`);
  }
}
