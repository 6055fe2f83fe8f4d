import { Client } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/config';
import { MIGRATIONS } from '../../../migrations';
import { SnakeNamingStrategy } from './naming.strategy';

export function dataSourceOptions(config: AppConfig): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.DATABASE_URL,
    namingStrategy: new SnakeNamingStrategy(),
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: { max: config.DATABASE_POOL_SIZE },
  };
}

/** Create the database named in DATABASE_URL when it does not exist yet. */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database');
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
        if (e?.code !== '42P04') throw e; // created concurrently by another process
      }
    }
  } finally {
    await client.end();
  }
}

/** Create the database if needed and apply every pending migration. */
export async function migrate(config: AppConfig): Promise<string[]> {
  await ensureDatabase(config.DATABASE_URL);
  const ds = new DataSource({ ...dataSourceOptions(config), extra: { max: 2 } });
  await ds.initialize();
  try {
    const ran = await ds.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}
