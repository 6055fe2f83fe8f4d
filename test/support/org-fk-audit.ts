/**
 * The schema audit of the database wall (docs/decisions/organization-scoping.md, "The database
 * wall"): read from pg_constraint / information_schema of a migrated database, it lists every
 * reference between organization-owned tables (tables with an organization_id column) that the
 * database would let cross organizations. Used by test/platform/schema-org-fks.e2e-spec.ts.
 */
import type { Client } from 'pg';

/**
 * Columns that look like references (`*_id` uuid) but are not, or point at no table yet, each
 * with its reason. Keep it short: a real reference gets a composite foreign key instead.
 */
export const NOT_REFERENCES: Record<string, string> = {
  'idempotency_keys.claim_id': 'a random claim token of the request holding the key, not a reference to a row',
  'lessons.quiz_id': 'quizzes have no table yet (CONVENTIONS §12): the quizzes migration adds the composite key with the table',
};

/**
 * Foreign keys from an organization-owned table to a table WITHOUT organization_id other than
 * `organizations` itself. Such a parent would have to be global; none is today.
 */
export const GLOBAL_PARENTS: Record<string, string> = {};

export interface FkProblem {
  constraint: string;
  table: string;
  problem: string;
}

export async function auditOrganizationForeignKeys(c: Client): Promise<FkProblem[]> {
  const orgTables = new Set<string>(
    (
      await c.query(`SELECT c.table_name FROM information_schema.columns c
                       JOIN information_schema.tables t USING (table_schema, table_name)
                      WHERE c.table_schema = current_schema() AND c.column_name = 'organization_id' AND t.table_type = 'BASE TABLE'`)
    ).rows.map((r) => r.table_name),
  );
  const fks: { name: string; child: string; parent: string; cols: string[]; refcols: string[]; deltype: string; delcols: string[] | null }[] = (
    await c.query(`
      SELECT k.conname AS name, k.conrelid::regclass::text AS child, k.confrelid::regclass::text AS parent, k.confdeltype AS deltype,
             ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY u(n, i) JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.i) AS cols,
             ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY u(n, i) JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.i) AS refcols,
             CASE WHEN k.confdelsetcols IS NULL THEN NULL
                  ELSE ARRAY(SELECT a.attname::text FROM unnest(k.confdelsetcols) u(n) JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n) END AS delcols
        FROM pg_constraint k
        JOIN pg_class r ON r.oid = k.conrelid
       WHERE k.contype = 'f' AND r.relnamespace = current_schema()::regnamespace
       ORDER BY 2, 1`)
  ).rows;

  const problems: FkProblem[] = [];
  const add = (constraint: string, table: string, problem: string) => problems.push({ constraint, table, problem });

  for (const fk of fks) {
    const childOrg = orgTables.has(fk.child);
    const parentOrg = orgTables.has(fk.parent);
    if (childOrg && parentOrg) {
      const i = fk.cols.indexOf('organization_id');
      if (i < 0 || fk.refcols[i] !== 'organization_id') {
        add(fk.name, fk.child, `(${fk.cols}) -> ${fk.parent} (${fk.refcols}) does not tie organization_id to ${fk.parent}.organization_id`);
      } else if (fk.deltype === 'n' && (!fk.delcols || fk.delcols.includes('organization_id'))) {
        add(fk.name, fk.child, `ON DELETE SET NULL would clear organization_id: name the reference column (ON DELETE SET NULL (col))`);
      }
    } else if (childOrg && !parentOrg && fk.parent !== 'organizations' && !GLOBAL_PARENTS[`${fk.child}.${fk.cols}`]) {
      add(fk.name, fk.child, `references ${fk.parent}, which has no organization_id: the link cannot be checked`);
    }
  }

  // a table without organization_id may hang off ONE organization-owned parent (its rows then
  // belong to that parent's organization); two parents could be of two organizations
  const parentsOf = new Map<string, Set<string>>();
  for (const fk of fks) {
    if (orgTables.has(fk.child) || !orgTables.has(fk.parent)) continue;
    if (!parentsOf.has(fk.child)) parentsOf.set(fk.child, new Set());
    parentsOf.get(fk.child)!.add(`${fk.cols.join(',')} -> ${fk.parent}`);
  }
  for (const [table, parents] of parentsOf) {
    if (parents.size > 1) add('-', table, `has no organization_id but references ${parents.size} organization-owned rows (${[...parents].join('; ')}): add organization_id and composite keys`);
  }

  // uuid columns named like references with no foreign key at all, in organization-owned tables
  const covered = new Set(fks.flatMap((fk) => fk.cols.map((col) => `${fk.child}.${col}`)));
  const loose = (
    await c.query(`SELECT table_name, column_name FROM information_schema.columns
                    WHERE table_schema = current_schema() AND data_type = 'uuid' AND column_name LIKE '%\\_id' AND column_name <> 'organization_id'`)
  ).rows;
  for (const { table_name, column_name } of loose) {
    const key = `${table_name}.${column_name}`;
    if (orgTables.has(table_name) && !covered.has(key) && !NOT_REFERENCES[key]) add('-', table_name, `${column_name} looks like a reference but has no foreign key`);
  }
  return problems;
}
