import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * A domain user's manager access (issue 29 point 4, CONVENTIONS §17; modules/domain-users): one row
 * per (domain, user) with the managed group, `can_create_users` and the two access levels, and the
 * courses, paths and license packages the manager may manage as link rows. Every reference is a
 * composite key with organization_id, so the database refuses a link across organizations.
 */
export class ManagerAccess1763740002000 implements MigrationInterface {
  name = 'ManagerAccess1763740002000';

  async up(q: QueryRunner): Promise<void> {
    for (const parent of ['domains', 'users', 'groups', 'courses', 'paths', 'license_packages']) {
      await q.query(`DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = '${parent}_organization_id_id_key') THEN
          ALTER TABLE ${parent} ADD CONSTRAINT ${parent}_organization_id_id_key UNIQUE (organization_id, id);
        END IF; END $$`);
    }
    await q.query(`
      CREATE TABLE manager_access (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        domain_id uuid NOT NULL,
        user_id uuid NOT NULL,
        group_id uuid NOT NULL,
        can_create_users boolean NOT NULL DEFAULT false,
        course_access_level text NOT NULL,
        path_access_level text NOT NULL,
        created_at ${TS},
        updated_at ${TS},
        CONSTRAINT manager_access_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT manager_access_domain_user_key UNIQUE (domain_id, user_id),
        CONSTRAINT manager_access_domain_id_fkey FOREIGN KEY (organization_id, domain_id) REFERENCES domains (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT manager_access_user_id_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT manager_access_group_id_fkey FOREIGN KEY (organization_id, group_id) REFERENCES groups (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX manager_access_user_idx ON manager_access (organization_id, user_id)`);
    await q.query(`CREATE INDEX manager_access_group_idx ON manager_access (organization_id, group_id)`);
    // the three link tables, written out (the table-ownership spec reads the names of created tables)
    await q.query(`
      CREATE TABLE manager_access_courses (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        manager_access_id uuid NOT NULL,
        course_id uuid NOT NULL,
        position integer NOT NULL,
        PRIMARY KEY (manager_access_id, course_id),
        CONSTRAINT manager_access_courses_manager_access_id_fkey FOREIGN KEY (organization_id, manager_access_id) REFERENCES manager_access (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT manager_access_courses_course_id_fkey FOREIGN KEY (organization_id, course_id) REFERENCES courses (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX manager_access_courses_course_id_idx ON manager_access_courses (organization_id, course_id)`);
    await q.query(`
      CREATE TABLE manager_access_paths (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        manager_access_id uuid NOT NULL,
        path_id uuid NOT NULL,
        position integer NOT NULL,
        PRIMARY KEY (manager_access_id, path_id),
        CONSTRAINT manager_access_paths_manager_access_id_fkey FOREIGN KEY (organization_id, manager_access_id) REFERENCES manager_access (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT manager_access_paths_path_id_fkey FOREIGN KEY (organization_id, path_id) REFERENCES paths (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX manager_access_paths_path_id_idx ON manager_access_paths (organization_id, path_id)`);
    await q.query(`
      CREATE TABLE manager_access_licenses (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        manager_access_id uuid NOT NULL,
        license_package_id uuid NOT NULL,
        position integer NOT NULL,
        PRIMARY KEY (manager_access_id, license_package_id),
        CONSTRAINT manager_access_licenses_manager_access_id_fkey FOREIGN KEY (organization_id, manager_access_id) REFERENCES manager_access (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT manager_access_licenses_license_package_id_fkey FOREIGN KEY (organization_id, license_package_id) REFERENCES license_packages (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX manager_access_licenses_license_package_id_idx ON manager_access_licenses (organization_id, license_package_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['manager_access_licenses', 'manager_access_paths', 'manager_access_courses', 'manager_access']) await q.query(`DROP TABLE IF EXISTS ${t}`);
  }
}
