import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '../../src/core/config/config';
import { migrate } from '../../src/core/database/database';
import { startTestApp, TestApp } from '../support/app';
import { adminQuery, cloneDatabase, dbUrl, dropDatabase } from '../support/db';
import { eventually } from '../support/eventually';
import { spawnWorker } from '../support/worker-process';

/**
 * Database roles (CONVENTIONS §1, docs/decisions/runtime.md): DATABASE_URL is the owner's, for
 * creation and migrations; the API and the worker serve through APP_DATABASE_URL, a role that is
 * neither superuser nor owner of any table, which the migrate step creates and grants. A superuser
 * or owning serving connection is refused at start.
 */
jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../..');

/** Run an entry point (`src/main.ts`, `src/worker.ts`) on the test app's settings until it exits (it is expected to refuse). */
function runEntry(file: string, t: TestApp, env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', file], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: t.config.DATABASE_URL,
      APP_DATABASE_URL: t.config.APP_DATABASE_URL,
      REDIS_URL: t.config.REDIS_URL,
      REDIS_PREFIX: t.config.REDIS_PREFIX,
      PORT: '0',
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

const dbNameOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));
const userOf = (url: string) => decodeURIComponent(new URL(url).username);

describe('database roles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it("the API serves as the application role: not a superuser, owner of nothing, not the migrations' role", async () => {
    const [me] = await t.ds.query(
      `SELECT current_user AS role, r.rolsuper, r.rolcreaterole, r.rolcreatedb,
              (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = 'public' AND pg_has_role(current_user, c.relowner, 'MEMBER')) AS owned
         FROM pg_roles r WHERE r.rolname = current_user`,
    );
    expect(me).toEqual({ role: userOf(t.config.APP_DATABASE_URL), rolsuper: false, rolcreaterole: false, rolcreatedb: false, owned: 0 });
    expect(me.role).not.toBe(userOf(t.config.DATABASE_URL));
    const [owner] = await t.ds.query(`SELECT tableowner FROM pg_tables WHERE schemaname = 'public' AND tablename = 'courses'`);
    expect(owner.tableowner).toBe(userOf(t.config.DATABASE_URL));
  });

  it('the application role works through grants only: DML yes, DDL and the migrations record no', async () => {
    const [org] = await t.ds.query(`INSERT INTO organizations (name) VALUES ('Roles') RETURNING id`);
    expect(await t.ds.query(`UPDATE organizations SET name = 'Roles 2' WHERE id = $1 RETURNING name`, [org.id])).toEqual([[{ name: 'Roles 2' }], 1]);
    await expect(t.ds.query(`CREATE TABLE app_role_probe (id int)`)).rejects.toMatchObject({ driverError: { code: '42501' } });
    await expect(t.ds.query(`ALTER TABLE courses ADD COLUMN probe int`)).rejects.toMatchObject({ driverError: { code: '42501' } });
    await expect(t.ds.query(`TRUNCATE labels`)).rejects.toMatchObject({ driverError: { code: '42501' } });
    await expect(t.ds.query(`DELETE FROM schema_migrations`)).rejects.toMatchObject({ driverError: { code: '42501' } });
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM schema_migrations`))[0].n).toBeGreaterThan(10);
  });

  it('what a later migration creates as the owner is granted to the application role (default privileges)', async () => {
    await t.ownerQuery(`CREATE TABLE later_migration_probe (id serial PRIMARY KEY, v text)`);
    try {
      expect(await t.ds.query(`INSERT INTO later_migration_probe (v) VALUES ('x') RETURNING id, v`)).toEqual([{ id: 1, v: 'x' }]);
    } finally {
      await t.ownerQuery(`DROP TABLE later_migration_probe`);
    }
  });

  it('a superuser APP_DATABASE_URL is refused: the API and the worker processes exit, saying why', async () => {
    expect((await adminQuery(`SELECT rolsuper FROM pg_roles WHERE rolname = $1`, [userOf(t.config.DATABASE_URL)])).rows[0].rolsuper).toBe(true);
    const env = { APP_DATABASE_URL: t.config.DATABASE_URL };
    const [api, worker] = await Promise.all([runEntry('src/main.ts', t, env), runEntry('src/worker.ts', t, env)]);
    for (const run of [api, worker]) {
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/refusing to serve: the database connection is the superuser "[^"]+"\. APP_DATABASE_URL must name a role that is neither superuser nor owner/);
    }
  });

  it('a serving role that owns a table is refused too', async () => {
    const role = userOf(t.config.APP_DATABASE_URL);
    const [{ tableowner }] = await t.ownerQuery(`SELECT tableowner FROM pg_tables WHERE schemaname = 'public' AND tablename = 'labels'`);
    await t.ownerQuery(`ALTER TABLE labels OWNER TO "${role}"`);
    try {
      const api = await runEntry('src/main.ts', t);
      expect(api.code).not.toBe(0);
      expect(api.stderr).toMatch(new RegExp(`refusing to serve: the database role "${role}" owns public\\.labels`));
    } finally {
      await t.ownerQuery(`ALTER TABLE labels OWNER TO "${tableowner}"`);
    }
  });

  it('the worker process serves as the application role', async () => {
    const db = dbNameOf(t.config.DATABASE_URL);
    const [{ pid: ownerPid }] = await t.ownerQuery('SELECT pg_backend_pid() AS pid'); // this test's own owner session
    const proc = spawnWorker(t.config);
    try {
      // once the worker's migrate (the owner's) is over, every session on the database is the application role's
      await proc.orReport(
        eventually(
          async () => {
            const { rows } = await adminQuery(
              `SELECT a.usename, r.rolsuper, count(*)::int AS n FROM pg_stat_activity a JOIN pg_roles r ON r.rolname = a.usename
                WHERE a.datname = $1 AND a.backend_type = 'client backend' AND a.pid <> $2 GROUP BY 1, 2`,
              [db, ownerPid],
            );
            expect(rows).toEqual([{ usename: userOf(t.config.APP_DATABASE_URL), rolsuper: false, n: expect.any(Number) }]);
            expect(proc.child.exitCode).toBeNull();
          },
          { timeoutMs: 30_000, intervalMs: 200 },
        ),
      );
    } finally {
      await proc.kill();
    }
  });
});

describe('the migrate step creates the application role', () => {
  const role = `cp_test_role_${randomBytes(4).toString('hex')}`;
  const dbs: string[] = [];
  afterAll(async () => {
    for (const name of dbs) await dropDatabase(name);
    await adminQuery(`DROP ROLE IF EXISTS "${role}"`);
  });

  it('when missing, once, even with two migrate runs at once on two databases of the server; then it can serve', async () => {
    dbs.push(await cloneDatabase(), await cloneDatabase());
    const appUrl = (name: string) => {
      const u = new URL(dbUrl(name));
      u.username = role;
      u.password = 'a-password-for-the-role';
      return u.toString();
    };
    const configs = dbs.map((name) => loadConfig(process.env, { DATABASE_URL: dbUrl(name), APP_DATABASE_URL: appUrl(name) }));
    await Promise.all(configs.map((c) => migrate(c)));
    const { rows } = await adminQuery(`SELECT rolsuper, rolcanlogin, rolcreaterole, rolcreatedb, rolpassword IS NOT NULL AS has_password FROM pg_authid WHERE rolname = $1`, [role]);
    expect(rows).toEqual([{ rolsuper: false, rolcanlogin: true, rolcreaterole: false, rolcreatedb: false, has_password: true }]);
    // a second run is a no-op (the role is there, the grants again)
    await migrate(configs[0]);
    // it connects and works in both databases
    for (const c of configs) {
      const client = new Client({ connectionString: c.APP_DATABASE_URL });
      await client.connect();
      try {
        const { rows: inserted } = await client.query(`INSERT INTO organizations (name) VALUES ('By the new role') RETURNING name`);
        expect(inserted).toEqual([{ name: 'By the new role' }]);
      } finally {
        await client.end();
      }
    }
  });
});
