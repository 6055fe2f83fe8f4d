import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Multi-SCO / multi-AU lessons (issue 30; docs/decisions/content-runs.md "Items"): an attempt is
 * of one item of the package (`item`: the SCORM item's identifier, the cmi5 AU's id; '' for a
 * TinCan package), numbered per item; what the item reported is kept on it (`completed`,
 * `satisfied` (cmi5 moveOn met, or waived), `success`, `score`) so the lesson's completion is
 * rolled up from all items without reading their data models. A cmi5 registration is shared by
 * the AUs of a lesson's course (one registration, many AU attempts): no longer unique.
 * Existing attempts: their package's first item, and what their data model says.
 */
export class ContentItems1763950001000 implements MigrationInterface {
  name = 'ContentItems1763950001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE content_attempts
        ADD COLUMN item text NOT NULL DEFAULT '',
        ADD COLUMN completed boolean NOT NULL DEFAULT false,
        ADD COLUMN satisfied boolean NOT NULL DEFAULT false,
        ADD COLUMN success text CHECK (success IN ('PASSED', 'FAILED')),
        ADD COLUMN score integer`);
    await q.query(`
      UPDATE content_attempts a SET
        item = COALESCE(CASE WHEN a.standard = 'CMI5' THEN w.launch_data->>'activityId' WHEN a.standard LIKE 'SCORM%' THEN w.launch_data->>'item' END, ''),
        completed = CASE WHEN a.standard IN ('CMI5', 'XAPI') THEN COALESCE(a.cmi->>'completed' = 'true', false)
                         ELSE COALESCE(a.cmi->>'cmi.completion_status' = 'completed' OR a.cmi->>'cmi.core.lesson_status' IN ('completed', 'passed', 'failed'), false) END,
        satisfied = COALESCE(a.cmi->>'satisfied' = 'true', false),
        success = CASE WHEN a.standard IN ('CMI5', 'XAPI') THEN a.cmi->>'success'
                       ELSE CASE COALESCE(a.cmi->>'cmi.success_status', a.cmi->>'cmi.core.lesson_status') WHEN 'passed' THEN 'PASSED' WHEN 'failed' THEN 'FAILED' END END,
        score = CASE WHEN a.standard IN ('CMI5', 'XAPI') AND a.cmi->>'score' ~ '^[0-9]{1,3}$' THEN (a.cmi->>'score')::int END
        FROM web_packages w WHERE w.id = a.web_package_id AND w.organization_id = a.organization_id`);
    await q.query(`ALTER TABLE content_attempts DROP CONSTRAINT content_attempts_lp_number_key`);
    await q.query(`ALTER TABLE content_attempts ADD CONSTRAINT content_attempts_lp_item_number_key UNIQUE (organization_id, lesson_progress_id, item, number)`);
    await q.query(`ALTER TABLE content_attempts DROP CONSTRAINT content_attempts_registration_key`);
    await q.query(`CREATE INDEX content_attempts_registration_idx ON content_attempts (organization_id, registration)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX content_attempts_registration_idx`);
    await q.query(`ALTER TABLE content_attempts DROP CONSTRAINT content_attempts_lp_item_number_key`);
    await q.query(
      `DELETE FROM content_attempts a USING content_attempts b WHERE a.organization_id = b.organization_id AND a.lesson_progress_id = b.lesson_progress_id AND a.number = b.number AND a.id > b.id`,
    );
    await q.query(`ALTER TABLE content_attempts ADD CONSTRAINT content_attempts_lp_number_key UNIQUE (organization_id, lesson_progress_id, number)`);
    await q.query(`ALTER TABLE content_attempts ADD CONSTRAINT content_attempts_registration_key UNIQUE (registration)`);
    await q.query(`ALTER TABLE content_attempts DROP COLUMN item, DROP COLUMN completed, DROP COLUMN satisfied, DROP COLUMN success, DROP COLUMN score`);
  }
}
