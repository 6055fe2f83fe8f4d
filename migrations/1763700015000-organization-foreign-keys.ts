import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The database refuses cross-organization links (issue 9; docs/decisions/organization-scoping.md,
 * "The database wall").
 *
 * Every foreign key from an organization-owned table (one with organization_id) to another one
 * becomes composite: (organization_id, <ref>_id) REFERENCES parent (organization_id, id), so a row
 * of organization A can only point at a row of organization A. Each referenced table gets
 * UNIQUE (organization_id, id) for that purpose. The ON DELETE behaviour of each key is kept;
 * SET NULL keys use PostgreSQL 15's column list (`ON DELETE SET NULL (<ref>_id)`), so deleting the
 * parent clears the reference and never organization_id. Constraint names stay those of the
 * single-column keys they replace.
 *
 * Three references had no foreign key at all and get one here (composite, ON DELETE SET NULL of the
 * reference only): lessons.content_asset_id, lessons.content_web_package_id (a live lesson blocks
 * the deletion of its asset or web package in the services, so only soft-deleted lessons, which
 * nothing reads, are ever cleared) and domain_users.access_code_id (the access-codes service
 * already clears it before deleting a code). References to nothing (the row is gone) are cleared
 * first, as those keys would have done; a reference to a row of ANOTHER organization stops the
 * migration with the list of offending columns, for an operator to look at, rather than being
 * silently rewritten.
 *
 * Self-contained: the list below is the schema at this version, not read from the code.
 */

type OnDelete = 'CASCADE' | 'SET NULL';

interface Ref {
  table: string;
  column: string;
  parent: string;
  onDelete: OnDelete;
  /** the name of the constraint (kept from the single-column key; new ones get <table>_<column>_fkey) */
  name?: string;
  /** no foreign key before this migration */
  added?: true;
}

const C: OnDelete = 'CASCADE';
const N: OnDelete = 'SET NULL';

const REFS: Ref[] = [
  { table: 'token_families', column: 'client_id', parent: 'oauth_clients', onDelete: C },
  { table: 'auth_codes', column: 'admin_id', parent: 'admins', onDelete: C },
  { table: 'auth_codes', column: 'client_id', parent: 'oauth_clients', onDelete: C },
  { table: 'auth_codes', column: 'family_id', parent: 'token_families', onDelete: N },
  { table: 'courses', column: 'draft_origin_id', parent: 'courses', onDelete: N },
  { table: 'lessons', column: 'course_id', parent: 'courses', onDelete: C },
  { table: 'published_courses', column: 'course_id', parent: 'courses', onDelete: C },
  { table: 'published_courses', column: 'domain_id', parent: 'domains', onDelete: C },
  { table: 'enrollments', column: 'course_id', parent: 'courses', onDelete: C },
  { table: 'enrollments', column: 'published_course_id', parent: 'published_courses', onDelete: C },
  { table: 'enrollments', column: 'user_id', parent: 'users', onDelete: C },
  { table: 'course_ratings', column: 'course_id', parent: 'courses', onDelete: C },
  { table: 'course_ratings', column: 'enrollment_id', parent: 'enrollments', onDelete: N },
  { table: 'course_ratings', column: 'user_id', parent: 'users', onDelete: C },
  { table: 'certificates', column: 'course_id', parent: 'courses', onDelete: C },
  { table: 'certificates', column: 'domain_id', parent: 'domains', onDelete: N },
  { table: 'certificates', column: 'enrollment_id', parent: 'enrollments', onDelete: N },
  { table: 'certificates', column: 'published_course_id', parent: 'published_courses', onDelete: N },
  { table: 'certificates', column: 'user_id', parent: 'users', onDelete: C },
  { table: 'groups', column: 'category_id', parent: 'group_categories', onDelete: N },
  { table: 'group_memberships', column: 'group_id', parent: 'groups', onDelete: C },
  { table: 'group_memberships', column: 'user_id', parent: 'users', onDelete: C },
  { table: 'visibility_overrides', column: 'group_id', parent: 'groups', onDelete: C },
  { table: 'visibility_overrides', column: 'published_course_id', parent: 'published_courses', onDelete: C },
  { table: 'course_labels', column: 'course_id', parent: 'courses', onDelete: C },
  { table: 'course_labels', column: 'label_id', parent: 'labels', onDelete: C },
  { table: 'domain_users', column: 'domain_id', parent: 'domains', onDelete: C },
  { table: 'domain_users', column: 'user_id', parent: 'users', onDelete: C },
  { table: 'signup_fields', column: 'domain_id', parent: 'domains', onDelete: C },
  { table: 'signup_field_values', column: 'signup_field_id', parent: 'signup_fields', onDelete: C },
  { table: 'signup_field_values', column: 'user_id', parent: 'users', onDelete: C },
  { table: 'domain_user_invites', column: 'domain_id', parent: 'domains', onDelete: C },
  { table: 'domain_user_invites', column: 'user_id', parent: 'users', onDelete: C },
  { table: 'published_course_tags', column: 'published_course_id', parent: 'published_courses', onDelete: C },
  { table: 'published_course_tags', column: 'tag_id', parent: 'tags', onDelete: C },
  { table: 'published_course_prerequisites', column: 'prerequisite_id', parent: 'published_courses', onDelete: C },
  { table: 'published_course_prerequisites', column: 'published_course_id', parent: 'published_courses', onDelete: C },
  { table: 'published_course_group_prerequisites', column: 'group_id', parent: 'groups', onDelete: C },
  { table: 'published_course_group_prerequisites', column: 'published_course_id', parent: 'published_courses', onDelete: C },
  { table: 'access_code_pools', column: 'domain_id', parent: 'domains', onDelete: C },
  { table: 'access_codes', column: 'domain_id', parent: 'domains', onDelete: C },
  { table: 'access_codes', column: 'pool_id', parent: 'access_code_pools', onDelete: C },
  { table: 'access_code_uses', column: 'access_code_id', parent: 'access_codes', onDelete: C },
  { table: 'access_code_uses', column: 'user_id', parent: 'users', onDelete: C },
  { table: 'course_series', column: 'domain_id', parent: 'domains', onDelete: C },
  { table: 'course_series_items', column: 'course_series_id', parent: 'course_series', onDelete: C },
  { table: 'course_series_items', column: 'published_course_id', parent: 'published_courses', onDelete: C },
  { table: 'plans', column: 'domain_id', parent: 'domains', onDelete: C },
  { table: 'plan_enrollments', column: 'plan_id', parent: 'plans', onDelete: C },
  { table: 'plan_enrollments', column: 'user_id', parent: 'users', onDelete: C },
  { table: 'published_paths', column: 'domain_id', parent: 'domains', onDelete: C },
  { table: 'published_paths', column: 'path_id', parent: 'paths', onDelete: C },
  { table: 'path_items', column: 'path_id', parent: 'paths', onDelete: C },
  { table: 'path_items', column: 'published_course_id', parent: 'published_courses', onDelete: C },
  { table: 'path_labels', column: 'label_id', parent: 'labels', onDelete: C, name: 'path_labels_label_fk' },
  { table: 'path_labels', column: 'published_path_id', parent: 'published_paths', onDelete: C },
  { table: 'published_path_enrollments', column: 'path_id', parent: 'paths', onDelete: C },
  { table: 'published_path_enrollments', column: 'published_path_id', parent: 'published_paths', onDelete: C },
  { table: 'published_path_enrollments', column: 'user_id', parent: 'users', onDelete: C },
  { table: 'offers', column: 'course_series_id', parent: 'course_series', onDelete: C },
  { table: 'offers', column: 'plan_id', parent: 'plans', onDelete: C },
  { table: 'offers', column: 'published_course_id', parent: 'published_courses', onDelete: C },
  { table: 'offers', column: 'published_path_id', parent: 'published_paths', onDelete: C },
  { table: 'path_tags', column: 'published_path_id', parent: 'published_paths', onDelete: C },
  { table: 'path_tags', column: 'tag_id', parent: 'tags', onDelete: C },
  { table: 'path_visibility_overrides', column: 'group_id', parent: 'groups', onDelete: C },
  { table: 'path_visibility_overrides', column: 'published_path_id', parent: 'published_paths', onDelete: C },
  { table: 'webhook_deliveries', column: 'event_id', parent: 'outbox_events', onDelete: C },
  { table: 'webhook_deliveries', column: 'webhook_id', parent: 'webhooks', onDelete: C },
  { table: 'group_access_code_pools', column: 'access_code_pool_id', parent: 'access_code_pools', onDelete: C },
  { table: 'group_access_code_pools', column: 'group_id', parent: 'groups', onDelete: C },
  { table: 'password_reset_mails', column: 'user_id', parent: 'users', onDelete: C },
  // references that had no foreign key
  { table: 'lessons', column: 'content_asset_id', parent: 'assets', onDelete: N, added: true },
  { table: 'lessons', column: 'content_web_package_id', parent: 'web_packages', onDelete: N, added: true },
  { table: 'domain_users', column: 'access_code_id', parent: 'access_codes', onDelete: N, added: true },
];

const nameOf = (r: Ref) => r.name ?? `${r.table}_${r.column}_fkey`;
const uniqueOf = (parent: string) => `${parent}_organization_id_id_key`;
const PARENTS = [...new Set(REFS.map((r) => r.parent))];

export class OrganizationForeignKeys1763700015000 implements MigrationInterface {
  name = 'OrganizationForeignKeys1763700015000';

  async up(q: QueryRunner): Promise<void> {
    // 1. references to rows that no longer exist (only possible where there was no key): cleared
    for (const r of REFS.filter((x) => x.added)) {
      await q.query(
        `UPDATE ${r.table} t SET ${r.column} = NULL
          WHERE t.${r.column} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${r.parent} p WHERE p.id = t.${r.column})`,
      );
    }
    // 2. cross-organization references: stop, with the list
    const crossing: string[] = [];
    for (const r of REFS) {
      const [{ n }] = await q.query(
        `SELECT count(*)::int AS n FROM ${r.table} t JOIN ${r.parent} p ON p.id = t.${r.column}
          WHERE p.organization_id IS DISTINCT FROM t.organization_id`,
      );
      if (n > 0) crossing.push(`${r.table}.${r.column} -> ${r.parent}: ${n} row(s)`);
    }
    if (crossing.length) {
      throw new Error(`Rows point at another organization's rows; fix them before this migration can add the composite foreign keys:\n  ${crossing.join('\n  ')}`);
    }
    // 3. the parents' (organization_id, id) keys
    for (const p of PARENTS) await q.query(`ALTER TABLE ${p} ADD CONSTRAINT ${uniqueOf(p)} UNIQUE (organization_id, id)`);
    // 4. each reference becomes composite
    for (const r of REFS) {
      if (!r.added) await q.query(`ALTER TABLE ${r.table} DROP CONSTRAINT ${nameOf(r)}`);
      const onDelete = r.onDelete === 'SET NULL' ? `SET NULL (${r.column})` : 'CASCADE';
      await q.query(
        `ALTER TABLE ${r.table} ADD CONSTRAINT ${nameOf(r)}
           FOREIGN KEY (organization_id, ${r.column}) REFERENCES ${r.parent} (organization_id, id) ON DELETE ${onDelete}`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const r of [...REFS].reverse()) {
      await q.query(`ALTER TABLE ${r.table} DROP CONSTRAINT ${nameOf(r)}`);
      if (!r.added) {
        await q.query(`ALTER TABLE ${r.table} ADD CONSTRAINT ${nameOf(r)} FOREIGN KEY (${r.column}) REFERENCES ${r.parent} (id) ON DELETE ${r.onDelete}`);
      }
    }
    for (const p of PARENTS) await q.query(`ALTER TABLE ${p} DROP CONSTRAINT ${uniqueOf(p)}`);
  }
}
