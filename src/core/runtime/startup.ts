import { LoggerService } from '@nestjs/common';
import Redis from 'ioredis';
import { Client } from 'pg';
import type { Logger as PinoLogger } from 'pino';
import { AppConfig, ConfigError } from '../config/config';

/**
 * Start-up and its failures, as an operator reads them (CONVENTIONS §23): one line per process
 * saying where it listens, no framework chatter at the default log level, a missing PostgreSQL or
 * Redis reported as one line per attempt naming the setting and the URL tried (then a retry with
 * back-off), a taken port or a bad setting reported as one line and a documented exit status.
 */

/** Exit statuses of `npm start`, `npm run worker` and the CLI (README "Exit statuses"). */
export const EXIT = {
  /** done */
  OK: 0,
  /** an unexpected failure (a bug, or a dependency that answered with an error) */
  FAILURE: 1,
  /** bad usage or configuration: an unknown command or option, a missing or invalid argument, an invalid setting */
  USAGE: 2,
  /** the port to listen on (PORT, METRICS_PORT) is taken by another process, or may not be used */
  PORT_UNAVAILABLE: 3,
} as const;

/** Nest's own start-up lines (module wiring, one line per route): debug, not info. */
const FRAMEWORK_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication', 'NestMicroservice', 'WebSocketsController']);

/**
 * The Nest logger of a process: nestjs-pino's, with the framework's start-up lines ("Mapped {...}
 * route", "... dependencies initialized", "Nest application successfully started") at debug.
 */
export class QuietNestLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  private static contextOf(optional: unknown[]): unknown {
    return optional[optional.length - 1];
  }

  log(message: unknown, ...optional: unknown[]) {
    if (FRAMEWORK_CONTEXTS.has(QuietNestLogger.contextOf(optional) as string)) return this.inner.debug?.(message, ...optional);
    return this.inner.log(message, ...optional);
  }
  error(message: unknown, ...optional: unknown[]) {
    // a failed listen (a taken port): the entry point says it in one line of its own (startFailure)
    if (optional.includes('NestApplication') && /\blisten E[A-Z]+/.test(String(message))) return this.inner.debug?.(message, ...optional);
    return this.inner.error(message, ...optional);
  }
  warn(message: unknown, ...optional: unknown[]) {
    return this.inner.warn(message, ...optional);
  }
  debug(message: unknown, ...optional: unknown[]) {
    return this.inner.debug?.(message, ...optional);
  }
  verbose(message: unknown, ...optional: unknown[]) {
    return this.inner.verbose?.(message, ...optional);
  }
  fatal(message: unknown, ...optional: unknown[]) {
    return this.inner.fatal?.(message, ...optional);
  }
}

/** A URL as shown in a log line: its password replaced by `***`. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}

/** The base URL a person opens: PUBLIC_URL, else http://localhost:PORT (any address) or http://HOST:PORT. */
export function baseUrlOf(config: AppConfig, port: number, host = config.HOST): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  const wildcard = host === '0.0.0.0' || host === '::' || host === '' || host === '127.0.0.1' || host === '::1';
  const shown = wildcard ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/** Errors that mean "nothing answers there (yet)": worth a retry. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', '57P03']);

/** True when `err` says the server could not be reached (as opposed to answering with an error). */
export function isUnreachable(err: unknown): boolean {
  const e = err as { code?: string; message?: string; errors?: unknown[] } | null;
  if (!e) return false;
  if (e.code && UNREACHABLE.has(e.code)) return true;
  if (Array.isArray(e.errors) && e.errors.some(isUnreachable)) return true; // AggregateError (IPv4 and IPv6 both refused)
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|Connection is closed|connect timeout|Connection terminated/i.test(e.message ?? '');
}

/** One short reason: the error's code and message, without a stack. */
export function reasonOf(err: unknown): string {
  const e = err as { code?: string; message?: string; errors?: Array<{ message?: string }> } | null;
  const message = e?.message || e?.errors?.map((x) => x.message).join(', ') || String(err);
  return e?.code && !message.includes(e.code) ? `${e.code} ${message}` : message;
}

/** Delay before attempt `n` (1-based) of a retry: 1 s, 2 s, 4 s, ... at most `capMs`. */
export const backoffMs = (n: number, capMs = 30_000, firstMs = 1000) => Math.min(capMs, firstMs * 2 ** Math.max(0, n - 1));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Attempt = () => Promise<void>;

/**
 * Try `attempt` until it succeeds: after each failure that says the server is unreachable, one
 * warning line `<what> not reachable at <url> (<setting>): <reason>; retrying in N s`, with
 * exponential back-off; once it succeeds after failures, one line saying so. Any other failure
 * (a wrong password, a refused role) is thrown at once.
 */
async function waitFor(log: PinoLogger, what: string, setting: string, url: string, attempt: Attempt, firstMs: number) {
  for (let n = 1; ; n++) {
    try {
      await attempt();
      if (n > 1) log.info(`${what} reachable at ${shownUrl(url)} (${setting}); starting`);
      return;
    } catch (err) {
      if (!isUnreachable(err)) throw err;
      const ms = backoffMs(n, 30_000, firstMs);
      log.warn(`${what} not reachable at ${shownUrl(url)} (${setting}): ${reasonOf(err)}; retrying in ${ms / 1000} s (attempt ${n})`);
      await sleep(ms);
    }
  }
}

/** PostgreSQL answers at DATABASE_URL (a database that does not exist yet counts: the migrate step creates it). */
export function waitForPostgres(config: AppConfig, log: PinoLogger, firstMs = 1000): Promise<void> {
  return waitFor(
    log,
    'PostgreSQL',
    'DATABASE_URL',
    config.DATABASE_URL,
    async () => {
      const client = new Client({ connectionString: config.DATABASE_URL, connectionTimeoutMillis: 5000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
      } catch (err) {
        if ((err as { code?: string }).code === '3D000') return; // database missing: the server is there
        throw err;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    firstMs,
  );
}

/** Redis answers PING at REDIS_URL. */
export function waitForRedis(config: AppConfig, log: PinoLogger, firstMs = 1000): Promise<void> {
  return waitFor(
    log,
    'Redis',
    'REDIS_URL',
    config.REDIS_URL,
    async () => {
      const client = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 5000, enableOfflineQueue: false });
      // the socket's error (ECONNREFUSED...) says more than connect()'s "Connection is closed."
      let socketError: unknown = null;
      client.on('error', (err) => (socketError ??= err));
      try {
        await client.connect();
        await client.ping();
      } catch (err) {
        throw socketError ?? err;
      } finally {
        client.disconnect();
      }
    },
    firstMs,
  );
}

/**
 * Why a process could not start, as one line, and the exit status that goes with it. A taken port
 * names the setting; an invalid setting says which; anything else is a failure with its reason
 * (the stack only at debug level).
 */
export function startFailure(err: unknown, who: string, ctx: { port?: number; host?: string; setting?: string } = {}): { line: string; code: number } {
  const e = err as { code?: string; message?: string } | null;
  if (e?.code === 'EADDRINUSE' || e?.code === 'EACCES' || e?.code === 'EADDRNOTAVAIL') {
    const why = e.code === 'EADDRINUSE' ? 'the port is in use by another process' : e.code === 'EACCES' ? 'permission denied' : 'the address is not available on this machine';
    const setting = ctx.setting ?? 'PORT';
    return { line: `${who} cannot listen on ${ctx.host ?? ''}:${ctx.port ?? '?'} (${setting}=${ctx.port ?? '?'}): ${why}; choose another ${setting}`, code: EXIT.PORT_UNAVAILABLE };
  }
  if (err instanceof ConfigError) {
    const problems = (e?.message ?? '')
      .replace(/^Invalid configuration:\s*/, '')
      .split(/\n\s*/)
      .join('; ');
    return { line: `${who} cannot start: invalid configuration: ${problems}`, code: EXIT.USAGE };
  }
  return { line: `${who} failed to start: ${reasonOf(err)}`, code: EXIT.FAILURE };
}
