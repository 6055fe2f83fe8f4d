/**
 * Whether an error means "the database cannot be reached right now" rather than "this statement
 * is wrong": the request is answered 503 with Retry-After (http-exception.filter.ts), not 500.
 * Covers a refused or timed-out connection, pg-pool's connection timeout (DATABASE_CONNECT_TIMEOUT_MS),
 * a connection cut mid-query, and the server refusing new sessions (shutting down, starting up,
 * too many connections, connections not allowed). TypeORM's QueryFailedError is looked through.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: any = err, depth = 0; e && depth < 3; e = e.driverError ?? e.cause, depth++) {
    if (matches(e)) return true;
  }
  return false;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
/** SQLSTATEs: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections, insufficient_resources. */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53000']);
const MESSAGES = [
  /^Connection terminated/i, // pg: 'Connection terminated unexpectedly', '... due to connection timeout'
  /^timeout exceeded when trying to connect/i, // pg-pool connectionTimeoutMillis
  /connection error and is not queryable/i,
  /is not currently accepting connections/i, // 55000 at connect: ALLOW_CONNECTIONS false
  /^Connection is closed/i,
];

function matches(e: any): boolean {
  const code = typeof e?.code === 'string' ? e.code : undefined;
  if (code && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08'))) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return MESSAGES.some((m) => m.test(message));
}
