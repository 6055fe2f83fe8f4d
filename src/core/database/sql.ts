/**
 * The SQL helpers every service shares (issue 9, "one of each"): what a raw query answered, and
 * which constraint a failed statement broke. Organization scoping is scoped.ts.
 */

/**
 * The rows of a raw `query()` result: TypeORM's PostgreSQL driver answers UPDATE and DELETE with
 * `[rows, affectedCount]` and every other statement with the rows.
 */
export function rowsOf<T = any>(result: unknown): T[] {
  return (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number' ? result[0] : result) as T[];
}

interface PgErrorFields {
  code?: string;
  constraint?: string;
}

/**
 * True when `err` is a PostgreSQL unique violation (23505), of the named constraint or index when
 * one is given. Works on pg's own error and on TypeORM's QueryFailedError (which copies the driver
 * error's fields and keeps it as `driverError`).
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as (PgErrorFields & { driverError?: PgErrorFields }) | null | undefined;
  const code = e?.code ?? e?.driverError?.code;
  const name = e?.constraint ?? e?.driverError?.constraint;
  return code === '23505' && (constraint === undefined || name === constraint);
}
