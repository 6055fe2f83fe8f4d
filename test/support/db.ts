import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

const BASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEMPLATE_DB = 'cp_test_template';

export function dbUrl(name: string): string {
  const u = new URL(BASE);
  u.pathname = `/${name}`;
  return u.toString();
}
export const adminUrl = () => dbUrl('postgres');

export async function adminQuery(sql: string, params: unknown[] = []) {
  const c = new Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}

/** A throw-away database cloned from the migrated template. */
export async function cloneDatabase(): Promise<string> {
  const name = `cp_test_${randomBytes(6).toString('hex')}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(`CREATE DATABASE "${name}" TEMPLATE ${TEMPLATE_DB}`);
      return name;
    } catch (e: any) {
      // "source database is being accessed by other users": another file is cloning right now
      if (e?.code !== '55006' || attempt > 50) throw e;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
}

export async function dropDatabase(name: string) {
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
