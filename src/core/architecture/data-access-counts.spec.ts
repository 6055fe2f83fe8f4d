import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The data-access counts (docs/decisions/data-access.md "Counting what is left") stay at 0: no
 * `.query(` answer reaches the code as `any`, and no statement writes the organization predicate
 * by hand (`organization_id = $<n>`: scoped() writes `$org`), and no INSERT binds the organization
 * by position (`INSERT INTO t (organization_id, ...) VALUES ($1, ...)`: scoped() writes `$org`). The counter is
 * scripts/data-access-counts.js (the TypeScript checker over src/), run here as the CLI runs it.
 */

interface Site {
  file: string;
  line: number;
}
interface Counts {
  queryCalls: number;
  untypedQueryCalls: number;
  handWrittenOrgPredicates: number;
  untypedSites: Site[];
  orgSites: Site[];
  orgValueSites: Site[];
}
// a plain Node script, shared with the CLI
const { dataAccessCounts } = require('../../../scripts/data-access-counts.js') as { dataAccessCounts: (root: string) => Counts };

const ROOT = join(__dirname, '..', '..', '..');
const where = (sites: Site[]) => sites.map((s) => `${s.file}:${s.line}`);

describe('data-access counts (scripts/data-access-counts.js)', () => {
  it('counts what it is meant to count (a counter that finds nothing would pass vacuously)', () => {
    const root = mkdtempSync(join(tmpdir(), 'data-access-counts-'));
    try {
      mkdirSync(join(root, 'src'));
      writeFileSync(
        join(root, 'src', 'fixture.ts'),
        [
          `declare const ds: { query(sql: string, params?: unknown[]): Promise<any> };`,
          // untyped, and the organization by hand
          `export async function one(org: string) { const [row] = await ds.query('SELECT a FROM t WHERE organization_id = $1', [org]); return row; }`,
          // typed by the variable, by a type argument's stand-in (as), unused, and unused through .catch
          `export async function two() { const rows: { n: number }[] = await ds.query('SELECT 1 AS n'); return rows; }`,
          `export async function three() { return (await ds.query('SELECT 1 AS n')) as { n: number }[]; }`,
          `export async function four() { await ds.query('UPDATE t SET a = 1'); ds.query('UPDATE t SET a = 2').catch(() => undefined); }`,
          // untyped: handed on as any
          `export async function five() { return ds.query('SELECT 1 AS n'); }`,
          // the organization as a positional value: in a VALUES tuple, in a SELECT list; not: $org, a column, a value built in code
          `export async function six(org: string) { await ds.query(\`INSERT INTO t (a, organization_id) VALUES (lower($1), $2)\`, ['x', org]); await ds.query(\`INSERT INTO t (organization_id, a)\n SELECT $1, x FROM unnest($2::text[]) AS x\`, [org, []]); }`,
          `export async function seven(v: string) { await ds.query(\`INSERT INTO t (organization_id, a) VALUES ($org, $1)\`, [1]); await ds.query(\`INSERT INTO t (a, organization_id) SELECT $1, o.id FROM o\`, [1]); await ds.query(\`INSERT INTO t (organization_id, a) VALUES \${v}\`, []); }`,
          '',
        ].join('\n'),
      );
      const c = dataAccessCounts(root);
      expect(c.queryCalls).toBe(11);
      expect(where(c.untypedSites)).toEqual(['src/fixture.ts:2', 'src/fixture.ts:6']);
      expect(where(c.orgSites)).toEqual(['src/fixture.ts:2']);
      expect(where(c.orgValueSites)).toEqual(['src/fixture.ts:7', 'src/fixture.ts:7']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 180_000);

  it('finds no untyped query answer, no hand-written organization predicate and no positional organization value in src/', () => {
    const c = dataAccessCounts(ROOT);
    // the scan reaches the tree's statements (hundreds of them)
    expect(c.queryCalls).toBeGreaterThan(300);
    expect({ untyped: where(c.untypedSites), handWrittenOrganization: where(c.orgSites), positionalOrganization: where(c.orgValueSites) }).toEqual({
      untyped: [],
      handWrittenOrganization: [],
      positionalOrganization: [],
    });
  }, 180_000);
});
