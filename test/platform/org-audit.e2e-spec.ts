import { orgTablesOf, offenceOf } from '../support/org-audit';

/** The organization-scoping audit itself (test/support/org-audit.ts runs in every test file). */
describe('organization-scoping audit', () => {
  const ROOT = `${process.cwd()}/`;
  const tables = new Set(['users', 'courses', 'enrollments', 'domains']);
  const fromApp = `Error\n    at Client.query (${ROOT}test/support/org-audit.ts:90:5)\n    at async PostgresQueryRunner.query (${ROOT}node_modules/typeorm/driver/postgres/PostgresQueryRunner.js:1:1)\n    at async StudentsService.get (${ROOT}src/modules/students/students.service.ts:110:20)`;
  const fromTest = `Error\n    at Client.query (${ROOT}test/support/org-audit.ts:90:5)\n    at Object.<anonymous> (${ROOT}test/students.e2e-spec.ts:10:3)`;
  const lost = `Error\n    at Client.query (${ROOT}test/support/org-audit.ts:90:5)\n    at processTicksAndRejections (node:internal/process/task_queues:95:5)`;

  it('knows the organization-owned tables from the schema (organization_id column), not by hand', () => {
    const owned = (process.env.CP_TEST_ORG_TABLES ?? '').split(',');
    expect(owned).toEqual(expect.arrayContaining(['users', 'courses', 'lessons', 'groups', 'enrollments']));
    expect(owned).not.toContain('organizations');
    expect(owned).not.toContain('schema_migrations');
  });

  it('finds the tables after FROM, JOIN, UPDATE, INTO and DELETE FROM, not in strings or comments', () => {
    expect(orgTablesOf(`SELECT * FROM users u JOIN "courses" c ON true`, tables)).toEqual(['users', 'courses']);
    expect(orgTablesOf(`UPDATE enrollments SET x = 1`, tables)).toEqual(['enrollments']);
    expect(orgTablesOf(`INSERT INTO public.domains (name) VALUES ('from users')`, tables)).toEqual(['domains']);
    expect(orgTablesOf(`DELETE FROM users -- join courses\n WHERE id = $1`, tables)).toEqual(['users']);
    expect(orgTablesOf(`SELECT extract(epoch FROM now()) FROM signing_keys`, tables)).toEqual([]);
  });

  it('an application statement on an organization-owned table without organization_id is an offence, with its call site', () => {
    expect(offenceOf('SELECT * FROM users WHERE id = $1', fromApp, tables)).toEqual({
      sql: 'SELECT * FROM users WHERE id = $1',
      tables: ['users'],
      site: 'src/modules/students/students.service.ts:110:20',
    });
    // an async chain that lost every frame of ours is kept, not let through
    expect(offenceOf('SELECT * FROM users WHERE id = $1', lost, tables)?.site).toMatch(/^\(no application frame\)/);
  });

  it('accepts the organization predicate, the unscoped marker, other tables and the tests own statements', () => {
    expect(offenceOf('SELECT * FROM users u WHERE u.id = $1 AND u.organization_id = $2', fromApp, tables)).toBeNull();
    expect(offenceOf('/* unscoped: token lookup by hash */ SELECT * FROM users WHERE id = $1', fromApp, tables)).toBeNull();
    expect(offenceOf('SELECT * FROM signing_keys', fromApp, tables)).toBeNull();
    expect(offenceOf('SELECT * FROM users WHERE id = $1', fromTest, tables)).toBeNull();
    // a marker must carry a reason
    expect(offenceOf('/* unscoped: */ SELECT * FROM users WHERE id = $1', fromApp, tables)).not.toBeNull();
  });
});

describe('organization-scoping audit, the stricter reading (ORG_AUDIT_STRICT)', () => {
  it('wants organization_id compared or inserted, not merely selected', async () => {
    const { hasOrgPredicate } = await import('../support/org-audit');
    // TypeORM's find({ where: { id } }) selects organization_id but does not filter on it
    expect(hasOrgPredicate(`SELECT "S"."id" AS "S_id", "S"."organization_id" AS "S_organization_id" FROM "users" "S" WHERE (("S"."id" = $1)) LIMIT 1`)).toBe(false);
    expect(hasOrgPredicate(`SELECT "S"."id" FROM "users" "S" WHERE (("S"."id" = $1) AND ("S"."organization_id" = $2))`)).toBe(true);
    expect(hasOrgPredicate(`UPDATE users SET x = 1 WHERE id = $1 AND organization_id = $2`)).toBe(true);
    expect(hasOrgPredicate(`INSERT INTO users (id, organization_id, email) VALUES ($1, $2, $3)`)).toBe(true);
    expect(hasOrgPredicate(`INSERT INTO "course_labels" AS "CourseLabel"("course_id", "label_id", "organization_id") VALUES ($1, $2, $3)`)).toBe(true);
    expect(hasOrgPredicate(`SELECT 1 FROM users WHERE (organization_id, id) IN (($1, $2))`)).toBe(true);
    expect(hasOrgPredicate(`/* unscoped: token lookup */ SELECT organization_id FROM api_keys WHERE key_hash = $1`)).toBe(true);
    expect(hasOrgPredicate(`SELECT organization_id FROM api_keys WHERE key_hash = $1`)).toBe(false);
  });

  it('fails by default in npm test; ORG_AUDIT_STRICT=report or off turns it down', async () => {
    const { strictMode } = await import('../support/org-audit');
    expect(strictMode({})).toBe('fail');
    expect(strictMode({ ORG_AUDIT_STRICT: 'report' })).toBe('report');
    expect(strictMode({ ORG_AUDIT_STRICT: 'off' })).toBe('off');
  });
});
