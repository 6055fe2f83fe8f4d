import { loadConfig } from '../../src/core/config/config';
import { migrate } from '../../src/core/database/database';
import { organizationOwnedTables } from '../../src/core/database/scoped';
import { Client } from 'pg';
import { appDbUrl, dbUrl, dropStaleDatabases, newDbName } from './db';

/** Migrate one template database for this run; each test file clones it (CREATE DATABASE ... TEMPLATE). */
export default async function globalSetup() {
  await dropStaleDatabases();
  const template = newDbName('tpl');
  // as the owner; it also creates the application role the test apps and workers serve as, and grants it
  await migrate(loadConfig(process.env, { DATABASE_URL: dbUrl(template), APP_DATABASE_URL: appDbUrl(template) }));
  process.env.CP_TEST_TEMPLATE = template; // inherited by the test workers
  // the organization-owned tables, for the scoping audit (test/support/org-audit.ts)
  const c = new Client({ connectionString: dbUrl(template) });
  await c.connect();
  try {
    process.env.CP_TEST_ORG_TABLES = (await organizationOwnedTables(c)).join(',');
  } finally {
    await c.end();
  }
}
