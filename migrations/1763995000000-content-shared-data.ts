import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SCORM 2004 4th edition shared data (docs/decisions/content-runs.md "Shared data"): the values of
 * the `adl.data` buckets a package's items declare (`adlcp:map targetID`), one per learner, scope
 * and targetID. The scope is the organization (lesson_progress_id and web_package_id null: the
 * package's `sharedDataGlobalToSystem` is true, the default) or the learner's run of one package
 * (both set). Every reference is composite with organization_id; a learner, lesson progress or
 * package removed takes its buckets with it.
 */
export class ContentSharedData1763995000000 implements MigrationInterface {
  name = 'ContentSharedData1763995000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE content_shared_data (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        lesson_progress_id uuid,
        web_package_id uuid,
        target_id text NOT NULL CHECK (char_length(target_id) BETWEEN 1 AND 4000),
        value text NOT NULL CHECK (char_length(value) <= 64000),
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        CONSTRAINT content_shared_data_scope_check CHECK ((lesson_progress_id IS NULL) = (web_package_id IS NULL)),
        CONSTRAINT content_shared_data_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT content_shared_data_bucket_key UNIQUE NULLS NOT DISTINCT (organization_id, user_id, lesson_progress_id, web_package_id, target_id),
        CONSTRAINT content_shared_data_user_id_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT content_shared_data_lesson_progress_id_fkey FOREIGN KEY (organization_id, lesson_progress_id) REFERENCES lesson_progress (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT content_shared_data_web_package_id_fkey FOREIGN KEY (organization_id, web_package_id) REFERENCES web_packages (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX content_shared_data_lesson_progress_idx ON content_shared_data (organization_id, lesson_progress_id) WHERE lesson_progress_id IS NOT NULL`);
    await q.query(`CREATE INDEX content_shared_data_package_idx ON content_shared_data (organization_id, web_package_id) WHERE web_package_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS content_shared_data`);
  }
}
