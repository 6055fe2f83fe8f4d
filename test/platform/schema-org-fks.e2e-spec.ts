import { Client } from 'pg';
import { cloneDatabase, dbUrl, dropDatabase } from '../support/db';
import { auditOrganizationForeignKeys } from '../support/org-fk-audit';

/**
 * The database wall, schema side: every foreign key between two organization-owned tables ties
 * organization_id to organization_id (migrations/1763700015000-organization-foreign-keys.ts). A
 * new migration that adds a plain `REFERENCES parent(id)` between organization-owned tables fails
 * here.
 */
describe('schema: composite organization foreign keys', () => {
  let name: string;
  let c: Client;

  beforeAll(async () => {
    name = await cloneDatabase();
    c = new Client({ connectionString: dbUrl(name) });
    await c.connect();
  });
  afterAll(async () => {
    await c?.end();
    if (name) await dropDatabase(name);
  });

  it('the migrated schema has no foreign key that lets a row point at another organization', async () => {
    expect(await auditOrganizationForeignKeys(c)).toEqual([]);
  });

  it('the referenced tables carry UNIQUE (organization_id, id) and the SET NULL keys clear only the reference', async () => {
    const { rows } = await c.query(
      `SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conname IN ('courses_organization_id_id_key', 'certificates_enrollment_id_fkey', 'course_labels_label_id_fkey')
        ORDER BY conname`,
    );
    expect(rows).toEqual([
      { conname: 'certificates_enrollment_id_fkey', def: 'FOREIGN KEY (organization_id, enrollment_id) REFERENCES enrollments(organization_id, id) ON DELETE SET NULL (enrollment_id)' },
      { conname: 'course_labels_label_id_fkey', def: 'FOREIGN KEY (organization_id, label_id) REFERENCES labels(organization_id, id) ON DELETE CASCADE' },
      { conname: 'courses_organization_id_id_key', def: 'UNIQUE (organization_id, id)' },
    ]);
  });

  it('the audit catches a plain key, a SET NULL that would clear organization_id, a join table without organization_id and a loose reference', async () => {
    // on this file's own throw-away clone, in a transaction rolled back at the end
    await c.query('BEGIN');
    try {
      await c.query(`ALTER TABLE course_labels DROP CONSTRAINT course_labels_label_id_fkey`);
      await c.query(`ALTER TABLE course_labels ADD CONSTRAINT course_labels_label_id_fkey FOREIGN KEY (label_id) REFERENCES labels (id) ON DELETE CASCADE`);
      await c.query(`ALTER TABLE certificates DROP CONSTRAINT certificates_enrollment_id_fkey`);
      await c.query(
        `ALTER TABLE certificates ADD CONSTRAINT certificates_enrollment_id_fkey FOREIGN KEY (organization_id, enrollment_id) REFERENCES enrollments (organization_id, id) ON DELETE SET NULL`,
      );
      await c.query(`CREATE TABLE probe_links (course_id uuid REFERENCES courses (id), label_id uuid REFERENCES labels (id))`);
      await c.query(`CREATE TABLE probe_owned (id uuid PRIMARY KEY, organization_id uuid NOT NULL REFERENCES organizations (id), course_id uuid)`);
      const problems = await auditOrganizationForeignKeys(c);
      expect(problems.map((p) => `${p.table} ${p.constraint}`).sort()).toEqual([
        'certificates certificates_enrollment_id_fkey',
        'course_labels course_labels_label_id_fkey',
        'probe_links -',
        'probe_owned -',
      ]);
      expect(problems.find((p) => p.table === 'course_labels')!.problem).toMatch(/does not tie organization_id/);
      expect(problems.find((p) => p.table === 'certificates')!.problem).toMatch(/would clear organization_id/);
      expect(problems.find((p) => p.table === 'probe_links')!.problem).toMatch(/has no organization_id but references 2/);
      expect(problems.find((p) => p.table === 'probe_owned')!.problem).toMatch(/course_id looks like a reference/);
    } finally {
      await c.query('ROLLBACK');
    }
    expect(await auditOrganizationForeignKeys(c)).toEqual([]);
  });
});
