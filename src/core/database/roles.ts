import type { Client } from 'pg';

/**
 * Database roles (CONVENTIONS §1, docs/decisions/runtime.md "Database roles"): DATABASE_URL is the
 * owner's connection (creation and migrations); the API, the worker and the CLI's commands work
 * through APP_DATABASE_URL, a role that is neither superuser nor owner of any table. The migrate
 * step creates that role when it is missing and grants it what the application does (DML, sequences,
 * functions), on every run, with default privileges for what later migrations create.
 */

/** Something that runs a statement: a pg Client, or TypeORM's DataSource.query. */
/** Runs one statement (the data source's `query`); its rows are named by the caller. */
type Run = (sql: string, params?: unknown[]) => Promise<unknown>;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** Role attributes: a login role that can create nothing and bypasses nothing. */
const ROLE_ATTRIBUTES = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS';

export class AppRoleSetupError extends Error {}

/**
 * Create the application role of `appDatabaseUrl` when it does not exist and grant it, in the
 * database `owner` is connected to, what the application needs. Run by migrate() as the owner,
 * after the migrations, under the migration lock (so grants in one database never race); roles are
 * cluster-wide, so two migrate runs on two databases of one server may create the role at once:
 * the loser's duplicate_object / unique_violation is the role being there.
 * Nothing happens when the application role is the owner's own: the processes then refuse to serve
 * (assertServingRole).
 */
export async function grantAppRole(owner: Client, appDatabaseUrl: string): Promise<{ role: string; created: boolean } | null> {
  const url = new URL(appDatabaseUrl);
  const role = decodeURIComponent(url.username);
  const password = url.password ? decodeURIComponent(url.password) : null;
  const [{ me, schema, db }] = (await owner.query('SELECT current_user AS me, current_schema() AS schema, current_database() AS db')).rows;
  if (role === me) return null;
  let created = false;
  const exists = await owner.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  if (exists.rowCount === 0) {
    try {
      await owner.query(`CREATE ROLE ${ident(role)} ${ROLE_ATTRIBUTES}${password !== null ? ` PASSWORD ${literal(password)}` : ''}`);
      created = true;
    } catch (e: any) {
      // 42710 duplicate_object, 23505 unique_violation on pg_authid: created concurrently by another run
      if (e?.code === '42501') {
        throw new AppRoleSetupError(
          `the database owner "${me}" (DATABASE_URL) may not create the application role "${role}" (APP_DATABASE_URL): ` +
            `create it yourself (CREATE ROLE ${ident(role)} LOGIN PASSWORD '...') or give the owner CREATEROLE`,
        );
      }
      if (e?.code !== '42710' && e?.code !== '23505') throw e;
    }
  }
  const r = ident(role);
  const s = ident(schema);
  for (const sql of [
    `GRANT CONNECT ON DATABASE ${ident(db)} TO ${r}`,
    `GRANT USAGE ON SCHEMA ${s} TO ${r}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${r}`,
    `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${s} TO ${r}`,
    // what later migrations create (as the owner) is granted as it is created
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${r}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${r}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT EXECUTE ON FUNCTIONS TO ${r}`,
    // the migrations' own record is the owner's to write
    `REVOKE INSERT, UPDATE, DELETE ON TABLE ${s}."schema_migrations" FROM ${r}`,
  ]) {
    await owner.query(sql);
  }
  return { role, created };
}

/** The serving connection is a superuser, or owns (or may act as the owner of) tables: the process does not start. */
export class ServingRoleRefused extends Error {}

/**
 * Refuse to serve through a role that is a superuser, or the owner of any table (or a member of
 * the role that owns one, which can act as it): such a connection could change the schema or read
 * around every grant, and CONVENTIONS §1 keeps it to the migrate step. Run once when each
 * process's data source opens (DatabaseModule).
 */
export async function assertServingRole(run: Run): Promise<void> {
  const [row] = (await run(
    `SELECT current_user AS role, r.rolsuper AS superuser,
            (SELECT array_agg(n.nspname || '.' || c.relname ORDER BY c.relname)
               FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
                AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
                AND pg_has_role(current_user, c.relowner, 'MEMBER')) AS owned
       FROM pg_roles r WHERE r.rolname = current_user`,
  )) as { role: string; superuser: boolean; owned: string[] | null }[];
  const how =
    'APP_DATABASE_URL must name a role that is neither superuser nor owner of any table (by default `course_platform_app`, which `npm run migrate` creates); DATABASE_URL is for migrations only';
  if (row?.superuser) throw new ServingRoleRefused(`refusing to serve: the database connection is the superuser "${row.role}". ${how}`);
  const owned: string[] = row?.owned ?? [];
  if (owned.length) {
    const some = owned.slice(0, 3).join(', ') + (owned.length > 3 ? `, ... (${owned.length})` : '');
    throw new ServingRoleRefused(`refusing to serve: the database role "${row.role}" owns ${some}. ${how}`);
  }
}
