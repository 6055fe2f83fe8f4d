import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `updated_since` on the lists of groups, training and domain users (docs/decisions/data-out.md,
 * "updated_since on every list"): the indexes (organization_id, updated_at, id) the lists ordered
 * by last change read.
 */
const TABLES = ['groups', 'group_categories', 'ilt_instructors', 'vilt_session_events', 'vilt_session_registrations'];

export class UpdatedSinceLists1763830000000 implements MigrationInterface {
  name = 'UpdatedSinceLists1763830000000';

  async up(q: QueryRunner): Promise<void> {
    for (const t of TABLES) await q.query(`CREATE INDEX IF NOT EXISTS ${t}_org_updated_idx ON ${t} (organization_id, updated_at, id)`);
    // /v1/ilt-multi-session-events lists the multi-session rows only (as vilt_sessions_multi_list_idx)
    await q.query(`CREATE INDEX IF NOT EXISTS vilt_sessions_multi_updated_idx ON vilt_sessions (organization_id, updated_at, id) WHERE is_multi_session`);
    // a group's visibility overrides are listed per group (as visibility_overrides_group_created_idx)
    await q.query(`CREATE INDEX IF NOT EXISTS visibility_overrides_group_updated_idx ON visibility_overrides (group_id, updated_at, id)`);
    // a domain's users (/v1/domains/{name}/users) and a student's memberships (/v2/students/{id}/relationships/domain-memberships)
    await q.query(`CREATE INDEX IF NOT EXISTS domain_users_domain_updated_idx ON domain_users (domain_id, updated_at, id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS domain_users_org_user_updated_idx ON domain_users (organization_id, user_id, updated_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS domain_users_org_user_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS domain_users_domain_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS visibility_overrides_group_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS vilt_sessions_multi_updated_idx`);
    for (const t of TABLES) await q.query(`DROP INDEX IF EXISTS ${t}_org_updated_idx`);
  }
}
