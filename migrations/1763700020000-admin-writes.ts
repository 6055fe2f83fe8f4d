import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Administrative writes (issue 15, CONVENTIONS §15; docs/decisions/admin-writes.md).
 *
 * - plan_items: what a plan holds, published courses and published paths of the plan's domain
 *   (exactly one of the two per row), in the order they were given. Composite organization keys
 *   to the plan and to the published course or path; deleting either removes the item.
 * - Slugs of live plans and live course series are unique per domain (they make plan_url and
 *   series_url): rows that already share one keep the oldest as is and the others get their id's
 *   first 8 characters appended, so the index can be built.
 * - One rating per enrollment (the rating a learner writes with PATCH on the enrollment is
 *   upserted): older ratings already tied to the same enrollment keep their place in the course's
 *   ratings but are detached from it (enrollment_id NULL); the newest stays tied, which is the one
 *   the enrollment reads already show.
 */
export class AdminWrites1763700020000 implements MigrationInterface {
  name = 'AdminWrites1763700020000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE plan_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        plan_id uuid NOT NULL,
        published_course_id uuid,
        published_path_id uuid,
        "order" integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        CONSTRAINT plan_items_organization_id_id_key UNIQUE (organization_id, id),
        CONSTRAINT plan_items_one_target CHECK ((published_course_id IS NULL) <> (published_path_id IS NULL)),
        CONSTRAINT plan_items_plan_id_fkey FOREIGN KEY (organization_id, plan_id) REFERENCES plans (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT plan_items_published_course_id_fkey FOREIGN KEY (organization_id, published_course_id) REFERENCES published_courses (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT plan_items_published_path_id_fkey FOREIGN KEY (organization_id, published_path_id) REFERENCES published_paths (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX plan_items_course_uq ON plan_items (plan_id, published_course_id) WHERE published_course_id IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX plan_items_path_uq ON plan_items (plan_id, published_path_id) WHERE published_path_id IS NOT NULL`);
    await q.query(`CREATE INDEX plan_items_plan_order_idx ON plan_items (organization_id, plan_id, "order", id)`);
    await q.query(`CREATE INDEX plan_items_published_course_idx ON plan_items (organization_id, published_course_id) WHERE published_course_id IS NOT NULL`);
    await q.query(`CREATE INDEX plan_items_published_path_idx ON plan_items (organization_id, published_path_id) WHERE published_path_id IS NOT NULL`);

    for (const table of ['plans', 'course_series']) {
      await q.query(
        `UPDATE ${table} t SET slug = t.slug || '-' || left(t.id::text, 8)
          WHERE t.deleted_at IS NULL AND EXISTS (
            SELECT 1 FROM ${table} o WHERE o.domain_id = t.domain_id AND o.slug = t.slug AND o.deleted_at IS NULL
               AND (o.created_at, o.id) < (t.created_at, t.id))`,
      );
      await q.query(`CREATE UNIQUE INDEX ${table}_slug_uq ON ${table} (organization_id, domain_id, slug) WHERE deleted_at IS NULL`);
    }

    await q.query(
      `UPDATE course_ratings r SET enrollment_id = NULL
        WHERE r.enrollment_id IS NOT NULL AND EXISTS (
          SELECT 1 FROM course_ratings n WHERE n.enrollment_id = r.enrollment_id AND (n.created_at, n.id) > (r.created_at, r.id))`,
    );
    await q.query(`CREATE UNIQUE INDEX course_ratings_enrollment_uq ON course_ratings (organization_id, enrollment_id) WHERE enrollment_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS course_ratings_enrollment_uq`);
    await q.query(`DROP INDEX IF EXISTS course_series_slug_uq`);
    await q.query(`DROP INDEX IF EXISTS plans_slug_uq`);
    await q.query(`DROP TABLE IF EXISTS plan_items`);
  }
}
