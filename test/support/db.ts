import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { appDatabaseUrl } from '../../src/core/config/config';

const BASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Test databases are named cp_test_<unix seconds>_<random>, so several jest runs can share one
 * server: each run has its own template (set by the global setup in CP_TEST_TEMPLATE) and a run
 * only drops databases it made, or ones left over for more than two hours.
 */
export const newDbName = (kind: string) => `cp_test_${Math.floor(Date.now() / 1000)}_${kind}${randomBytes(5).toString('hex')}`;
export const templateDb = () => {
  const name = process.env.CP_TEST_TEMPLATE;
  if (!name) throw new Error('CP_TEST_TEMPLATE is not set: run the tests through jest (global setup)');
  return name;
};

export function dbUrl(name: string): string {
  const u = new URL(BASE);
  u.pathname = `/${name}`;
  return u.toString();
}
export const adminUrl = () => dbUrl('postgres');

/**
 * The application role's URL for a test database (what the API and the worker of a test connect
 * through, CONVENTIONS §1): TEST_APP_DATABASE_URL's role and password when set, else the default
 * role (`course_platform_app`, created by the global setup's migrate) on the same server.
 */
export function appDbUrl(name: string): string {
  const u = new URL(process.env.TEST_APP_DATABASE_URL ?? appDatabaseUrl(BASE));
  u.pathname = `/${name}`;
  return u.toString();
}

export async function adminQuery(sql: string, params: unknown[] = []) {
  const c = new Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}

/** The run's tag (the template's random part): every clone of a run ends with it, so the run's teardown finds its own. */
const runTag = () => templateDb().slice(-10);

/** A throw-away database cloned from the migrated template. */
export async function cloneDatabase(): Promise<string> {
  const name = `${newDbName('f')}_${runTag()}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${templateDb()}"`);
      return name;
    } catch (e: any) {
      // "source database is being accessed by other users": another file is cloning right now
      if (e?.code !== '55006' || attempt > 100) throw e;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 150));
    }
  }
}

export async function dropDatabase(name: string) {
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/**
 * Drop a test app's database without waiting for it: DROP DATABASE waits for a checkpoint (seconds
 * on a loaded machine), which a test file need not sit through. The drop goes on while the jest
 * worker runs its next file; what a worker's exit cuts short, the run's teardown drops
 * (dropRunDatabases).
 */
export function releaseDatabase(name: string): void {
  void dropDatabase(name).catch(() => undefined);
}

/** Drop every clone this run made that is still there (global teardown), a few at a time. */
export async function dropRunDatabases(template: string) {
  const tag = template.slice(-10);
  const rows = await adminQuery(`SELECT datname FROM pg_database WHERE datname LIKE 'cp\\_test\\_%\\_' || $1::text`, [tag]);
  const names: string[] = rows.rows.map((r: { datname: string }) => r.datname);
  const next = async (): Promise<void> => {
    const name = names.shift();
    if (!name) return;
    await dropDatabase(name).catch(() => undefined);
    return next();
  };
  await Promise.all([next(), next(), next(), next()]);
}

/** Drop test databases left behind by runs that died more than two hours ago. */
export async function dropStaleDatabases() {
  const cutoff = Math.floor(Date.now() / 1000) - 7200;
  const rows = await adminQuery(`SELECT datname FROM pg_database WHERE datname LIKE 'cp_test_%'`);
  for (const { datname } of rows.rows) {
    const ts = Number(/^cp_test_(\d+)_/.exec(datname)?.[1] ?? 0);
    if (ts < cutoff) {
      await adminQuery(`UPDATE pg_database SET datistemplate = false WHERE datname = $1`, [datname]);
      await dropDatabase(datname);
    }
  }
}
