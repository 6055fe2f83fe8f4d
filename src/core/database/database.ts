import { Client } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/config';
import { MIGRATIONS } from '../../../migrations';
import { SnakeNamingStrategy } from './naming.strategy';
import { grantAppRole } from './roles';

/**
 * The data source options of a process. `url` is the connection: the application role's
 * (APP_DATABASE_URL, the default) for serving, the owner's (DATABASE_URL) for migrations only.
 */
export function dataSourceOptions(config: AppConfig, url: string = config.APP_DATABASE_URL): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    namingStrategy: new SnakeNamingStrategy(),
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: config.DATABASE_LOG_QUERIES ? ['query'] : false,
    logger: 'simple-console',
    // a request waits at most DATABASE_CONNECT_TIMEOUT_MS for a connection (new or pooled), then 503
    extra: { max: config.DATABASE_POOL_SIZE, connectionTimeoutMillis: config.DATABASE_CONNECT_TIMEOUT_MS },
  };
}

/** Create the database named in DATABASE_URL when it does not exist yet. */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database');
  // Usually it exists: check by connecting to it, so a role without access to the maintenance
  // database (managed PostgreSQL) works as long as nothing needs creating.
  const probe = new Client({ connectionString: databaseUrl });
  try {
    await probe.connect();
    return;
  } catch (e: any) {
    if (e?.code !== '3D000') throw e; // 3D000: database does not exist
  } finally {
    await probe.end().catch(() => undefined);
  }
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } catch (e: any) {
        // created concurrently by another process: 42P04, or 23505 when both inserted at once
        if (e?.code !== '42P04' && e?.code !== '23505') throw e;
      }
    }
  } finally {
    await client.end();
  }
}

/** Session advisory lock that serializes migration runs across processes. */
const MIGRATION_LOCK = 7_345_000;

/**
 * Create the database if needed, apply every pending migration, then create the application role
 * when missing and (re)grant it (roles.ts), all as the owner (DATABASE_URL). Several processes may
 * start at once (API and worker): they take turns under an advisory lock, so each migration runs once.
 */
export async function migrate(config: AppConfig): Promise<string[]> {
  await ensureDatabase(config.DATABASE_URL);
  const lock = new Client({ connectionString: config.DATABASE_URL });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const ds = new DataSource({ ...dataSourceOptions(config, config.DATABASE_URL), extra: { max: 2 } });
    await ds.initialize();
    let ran: string[];
    try {
      ran = (await ds.runMigrations({ transaction: 'each' })).map((m) => m.name);
    } finally {
      await ds.destroy();
    }
    await grantAppRole(lock, config.APP_DATABASE_URL);
    return ran;
  } finally {
    await lock.end(); // closing the session releases the lock
  }
}
