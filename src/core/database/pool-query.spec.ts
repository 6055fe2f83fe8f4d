import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DataSource, QueryFailedError } from 'typeorm';
import { cloneDatabase, dbUrl, dropDatabase } from '../../../test/support/db';
import { isBadInputDbError } from '../http/api-error';
import { poolQuery, poolRead } from './pool-reads';

const SRC = join(__dirname, '..', '..');

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) tsFiles(p, out);
    else if (n.endsWith('.ts') && !n.endsWith('.spec.ts')) out.push(p);
  }
  return out;
}

describe('the one pool path (docs/decisions/data-access.md "One pool path")', () => {
  it("no file but pool-reads.ts reaches into TypeORM's driver pool", () => {
    const reaching = tsFiles(SRC)
      .filter((f) => /\.driver\s+as\s+unknown\s+as\s*\{\s*master|\.master\.query\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    expect(reaching).toEqual(['core/database/pool-reads.ts']);
  });

  describe('against PostgreSQL', () => {
    let db: string;
    let ds: DataSource;
    const logged: string[] = [];
    const failed: string[] = [];
    beforeAll(async () => {
      db = await cloneDatabase();
      ds = await new DataSource({ type: 'postgres', url: dbUrl(db), extra: { max: 2 } }).initialize();
      const logger = ds.logger;
      logger.logQuery = (q: string) => void logged.push(q);
      logger.logQueryError = (_e: unknown, q: string) => void failed.push(q);
    });
    afterAll(async () => {
      await ds?.destroy();
      if (db) await dropDatabase(db);
    });

    it("answers the rows, named or not, and logs each statement through TypeORM's logger", async () => {
      expect(await poolQuery<{ n: number }>(ds, { text: 'SELECT $1::int AS n', values: [7] })).toEqual([{ n: 7 }]);
      expect(await poolQuery<{ n: number }>(ds, { name: 'pool_query_spec', text: 'SELECT $1::int + 1 AS n', values: [7] })).toEqual([{ n: 8 }]);
      expect(logged).toEqual(['SELECT $1::int AS n', 'SELECT $1::int + 1 AS n']);
    });

    it('binds the organization last, as scoped() does (poolRead)', async () => {
      const org = '00000000-0000-4000-8000-000000000001';
      expect(await poolRead(ds, org, { sql: 'SELECT $1::int AS n, $org::uuid AS o' }, [3])).toEqual([{ n: 3, o: org }]);
      await expect(poolRead(ds, org, { sql: 'SELECT 1' }, [])).rejects.toThrow(/\$org/);
    });

    it('throws a failure as ds.query does: a QueryFailedError with the driver error, logged as a query error', async () => {
      const err = await poolQuery(ds, { text: "SELECT 'x'::uuid", values: [] }).catch((e) => e);
      const same = await ds.query("SELECT 'x'::uuid").catch((e) => e);
      expect(err).toBeInstanceOf(QueryFailedError);
      expect(same).toBeInstanceOf(QueryFailedError);
      expect(err.code).toBe('22P02');
      expect(err.driverError.code).toBe(same.driverError.code);
      // the 22xxx safety net (a 400, not a 500) sees it as it sees ds.query's
      expect(isBadInputDbError(err)).toBe(true);
      expect(isBadInputDbError(same)).toBe(true);
      expect(failed).toContain("SELECT 'x'::uuid");
    });
  });
});
