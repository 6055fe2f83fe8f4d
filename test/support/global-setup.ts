import { Client } from 'pg';
import { loadConfig } from '../../src/core/config/config';
import { migrate } from '../../src/core/database/database';
import { TEMPLATE_DB, adminUrl, dbUrl } from './db';

/** Migrate one template database; each test file clones it (CREATE DATABASE ... TEMPLATE). */
export default async function globalSetup() {
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    const stale = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'cp_test_%'`);
    for (const { datname } of stale.rows) {
      await admin.query(`UPDATE pg_database SET datistemplate = false WHERE datname = $1`, [datname]);
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
  await migrate(loadConfig(process.env, { DATABASE_URL: dbUrl(TEMPLATE_DB) }));
}
