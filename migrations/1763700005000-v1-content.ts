import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * /v1 content: labels (unique name per organization, case-insensitive) and their association
 * with courses, tags (unique name and slug per organization), and the SECTION lesson type of the
 * published v1 Type8b7Enum. Lesson content items stay in lessons.content_items (jsonb), the column
 * the /v2 lessons view presents (see docs/decisions/v1-content.md).
 */
export class V1Content1763700005000 implements MigrationInterface {
  name = 'V1Content1763700005000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE labels (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE UNIQUE INDEX labels_org_name_uq ON labels (organization_id, lower(name))`);
    await q.query(`CREATE INDEX labels_org_created_idx ON labels (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX labels_org_name_idx ON labels (organization_id, name)`);

    await q.query(`
      CREATE TABLE course_labels (
        course_id uuid NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
        label_id uuid NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        created_at ${TS},
        PRIMARY KEY (course_id, label_id)
      )`);
    await q.query(`CREATE INDEX course_labels_course_created_idx ON course_labels (course_id, created_at, label_id)`);
    await q.query(`CREATE INDEX course_labels_label_idx ON course_labels (label_id, course_id)`);

    await q.query(`
      CREATE TABLE tags (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        slug text NOT NULL,
        created_at ${TS},
        updated_at ${TS}
      )`);
    await q.query(`CREATE UNIQUE INDEX tags_org_name_uq ON tags (organization_id, lower(name))`);
    await q.query(`CREATE UNIQUE INDEX tags_org_slug_uq ON tags (organization_id, slug)`);
    await q.query(`CREATE INDEX tags_org_created_idx ON tags (organization_id, created_at, id)`);

    // The v1 lesson type enum (Type8b7Enum) has SECTION; widen the check (nothing else changes).
    await q.query(`ALTER TABLE lessons DROP CONSTRAINT IF EXISTS lessons_type_check`);
    await q.query(`ALTER TABLE lessons ADD CONSTRAINT lessons_type_check CHECK (type IN ('ASSET', 'HTML', 'QUIZ', 'WEB_PACKAGE', 'VILT', 'IE_EXAM', 'WIDGET', 'MODULAR', 'SECTION'))`);
    // /v1 lesson lists filtered by course, in order.
    await q.query(`CREATE INDEX lessons_org_course_order_idx ON lessons (organization_id, course_id, "order", created_at, id) WHERE deleted_at IS NULL AND NOT is_draft`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS lessons_org_course_order_idx`);
    await q.query(`ALTER TABLE lessons DROP CONSTRAINT IF EXISTS lessons_type_check`);
    await q.query(`ALTER TABLE lessons ADD CONSTRAINT lessons_type_check CHECK (type IN ('ASSET', 'HTML', 'QUIZ', 'WEB_PACKAGE', 'VILT', 'IE_EXAM', 'WIDGET', 'MODULAR'))`);
    await q.query(`DROP TABLE IF EXISTS tags`);
    await q.query(`DROP TABLE IF EXISTS course_labels`);
    await q.query(`DROP TABLE IF EXISTS labels`);
  }
}
