import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUrl, Max, Min, MinLength, validateSync } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toBool = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : value === true || value === 'true' || value === '1');

/**
 * Every setting of the service, validated once at boot. Nothing else in the code base reads
 * process.env: take AppConfig from the container instead. `.env.example` lists each one.
 */
export class AppConfig {
  @IsIn(['development', 'production', 'test']) NODE_ENV = 'development';
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) PORT = 3000;
  @IsString() HOST = '0.0.0.0';
  /**
   * The database owner's connection: creating the database and applying migrations only (the
   * migrate step, `npm run migrate`, and the start of each process). Never serves a request.
   */
  @IsString() DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/course_platform';
  /**
   * The connection the API, the worker and the CLI's commands work through: a role that is neither
   * superuser nor owner of any table (the process refuses to start otherwise). Unset: DATABASE_URL's
   * host and database as the role `course_platform_app` without a password (appDatabaseUrl below),
   * which the migrate step creates. The migrate step creates the role named here when it is missing
   * (with this URL's password, if any) and grants it what the application needs.
   */
  @IsString() APP_DATABASE_URL = '';
  @Transform(toInt) @IsInt() @Min(1) @Max(200) DATABASE_POOL_SIZE = 10;
  /** Log every SQL statement to stdout (TypeORM simple-console logger, one `query: ...` entry per statement): for benchmarks and debugging only. */
  @Transform(toBool) @IsBoolean() DATABASE_LOG_QUERIES = false;
  /** How long a request waits for a database connection (new or from the pool) before it fails with 503. */
  @Transform(toInt) @IsInt() @Min(100) DATABASE_CONNECT_TIMEOUT_MS = 5000;
  @IsString() REDIS_URL = 'redis://127.0.0.1:6379';
  /** Prefix for every Redis key (queues, rate limits) so several deployments can share a Redis. */
  @IsString() REDIS_PREFIX = 'cp';
  /**
   * Public base URL of the API. When set: the token issuer and the base of every absolute link.
   * When not set, links use the request's own scheme and host (core/http/base-url.ts) and the
   * issuer is `http://localhost:${PORT}` (issuerUrl below). Set it when several processes serve
   * one deployment or a proxy rewrites the host.
   */
  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }) PUBLIC_URL?: string;
  /** Secret for HMACs (cursors, signed URLs, reset links) and for encrypting signing keys at rest. */
  @IsString() @MinLength(16) APP_SECRET = 'dev-only-secret-change-me-please';
  @Transform(toInt) @IsInt() @Min(60) @Max(86400) ACCESS_TOKEN_TTL = 3600;
  @Transform(toInt) @IsInt() @Min(60) REFRESH_TOKEN_TTL = 30 * 24 * 3600;
  @Transform(toInt) @IsInt() @Min(10) @Max(600) AUTH_CODE_TTL = 600;
  /** Seconds after a refresh in which a repeat of the rotated-out refresh token returns the same new pair instead of revoking the family (retries, concurrent refreshes); 0 turns it off. */
  @Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value))) @IsNumber() @Min(0) @Max(60) REFRESH_TOKEN_GRACE_SECONDS = 10;
  /** How long a verified token, client state or API key stays cached in one API process. */
  @Transform(toInt) @IsInt() @Min(0) @Max(60) AUTH_CACHE_SECONDS = 5;
  @Transform(toInt) @IsInt() @Min(1) @Max(1000) BATCH_MAX_ITEMS = 100;
  @Transform(toInt) @IsInt() @Min(1) REGISTER_RATE_LIMIT = 20;
  @Transform(toInt) @IsInt() @Min(1) REGISTER_RATE_WINDOW_SECONDS = 60;
  /** Public certificate verification (/verify/{code}, its PDF, status lists): calls per window per address. */
  @Transform(toInt) @IsInt() @Min(1) VERIFY_RATE_LIMIT = 60;
  @Transform(toInt) @IsInt() @Min(1) VERIFY_RATE_WINDOW_SECONDS = 60;
  @Transform(toInt) @IsInt() @Min(1) DESTRUCTIVE_RATE_LIMIT = 30;
  @Transform(toInt) @IsInt() @Min(1) DESTRUCTIVE_RATE_WINDOW_SECONDS = 60;
  /** Deactivate/anonymize calls per window per organization, whichever of its clients makes them (each client also has DESTRUCTIVE_RATE_LIMIT). */
  @Transform(toInt) @IsInt() @Min(1) DESTRUCTIVE_ORG_RATE_LIMIT = 60;
  /** POST /v2/web-packages/ calls (each item queues an outbound fetch) per window per client, and per organization (all its clients together). */
  @Transform(toInt) @IsInt() @Min(1) WEB_PACKAGE_CREATE_RATE_LIMIT = 10;
  @Transform(toInt) @IsInt() @Min(1) WEB_PACKAGE_CREATE_ORG_RATE_LIMIT = 20;
  @Transform(toInt) @IsInt() @Min(1) WEB_PACKAGE_CREATE_RATE_WINDOW_SECONDS = 60;
  @Transform(toInt) @IsInt() @Min(1) BODY_LIMIT_BYTES = 1024 * 1024;
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL = 'info';
  /** `json` (one JSON object per line, for production and log shippers) or `pretty` (human-readable, one line per request; `npm run up` picks it in a terminal). */
  @IsIn(['json', 'pretty']) LOG_FORMAT = 'json';
  @Transform(toBool) @IsBoolean() ALLOW_PRIVATE_URLS = false;
  /** A PEM file of certificates the outbound client trusts beside Node's own, for Client ID Metadata Documents (a private CA); unset: Node's only. */
  @IsOptional() @IsString() OUTBOUND_CA_FILE?: string;
  @IsString() STORAGE_DIR = './data/files';
  @IsString() MAIL_OUTBOX_DIR = './data/mail';
  /** S3-compatible storage: used instead of STORAGE_DIR when S3_BUCKET is set. */
  @IsOptional() @IsString() S3_BUCKET?: string;
  @IsString() S3_REGION = 'us-east-1';
  @IsOptional() @IsString() S3_ENDPOINT?: string;
  @IsOptional() @IsString() S3_ACCESS_KEY_ID?: string;
  @IsOptional() @IsString() S3_SECRET_ACCESS_KEY?: string;
  @Transform(toBool) @IsBoolean() S3_FORCE_PATH_STYLE = false;
  /** Lifetime of signed download URLs. */
  @Transform(toInt) @IsInt() @Min(1) SIGNED_URL_TTL = 3600;
  /** Content files (assets, web packages): download caps of the worker and the zip inspection caps. */
  @Transform(toInt) @IsInt() @Min(1) ASSET_MAX_BYTES = 2 * 1024 * 1024 * 1024;
  @Transform(toInt) @IsInt() @Min(1) WEB_PACKAGE_MAX_BYTES = 1024 * 1024 * 1024;
  @Transform(toInt) @IsInt() @Min(1) CONTENT_DOWNLOAD_TIMEOUT_SECONDS = 600;
  @Transform(toInt) @IsInt() @Min(1) WEB_PACKAGE_MAX_EXPANDED_BYTES = 4 * 1024 * 1024 * 1024;
  @Transform(toInt) @IsInt() @Min(1) WEB_PACKAGE_MAX_ENTRIES = 20000;
  @Transform(toInt) @IsInt() @Min(1) WEB_PACKAGE_MAX_RATIO = 200;
  @IsOptional() @IsString() SMTP_URL?: string;
  @IsString() MAIL_FROM = 'no-reply@localhost';
  @Transform(toInt) @IsInt() @Min(1) PASSWORD_RESET_TTL = 3600;
  @Transform(toInt) @IsInt() @Min(1) @Max(100) WORKER_CONCURRENCY = 10;
  @Transform(toInt) @IsInt() @Min(1) CLEANUP_INTERVAL_SECONDS = 300;
  /** How often the worker checks that its job schedulers (relay, cleanup, sweeps) still exist in Redis, and restores them (also on every Redis reconnect). */
  @Transform(toInt) @IsInt() @Min(1) SCHEDULER_CHECK_SECONDS = 30;
  /** How long the API waits for Redis to take a job (asset and web-package imports, mails) before answering anyway; the sweeper queues it later. */
  @Transform(toInt) @IsInt() @Min(50) ENQUEUE_TIMEOUT_MS = 2000;
  /** How often the worker's sweeper re-queues work whose job never reached the queue. */
  @Transform(toInt) @IsInt() @Min(1) REQUEUE_SWEEP_SECONDS = 30;
  /** How often the worker looks for re-enrollment rules whose run is due (modules/reenrollment). */
  @Transform(toInt) @IsInt() @Min(1) REENROLLMENT_TICK_SECONDS = 60;
  /** The sweeper re-queues pending imports and unsent mails at least this old. */
  @Transform(toInt) @IsInt() @Min(0) REQUEUE_AFTER_SECONDS = 60;
  /** Relayed outbox events whose deliveries are all finished are deleted after this many days (with their deliveries and attempts). */
  @Transform(toInt) @IsInt() @Min(1) OUTBOX_RETENTION_DAYS = 30;
  /** A finished export's file is kept (and its download_url given) this many hours, then the worker deletes it (state EXPIRED). */
  @Transform(toInt) @IsInt() @Min(1) EXPORT_RETENTION_HOURS = 24;
  /** How long an Idempotency-Key's answer is kept and replayed (CONVENTIONS §14: 24 h); the maintenance clean-up deletes expired keys. */
  @Transform(toInt) @IsInt() @Min(1) IDEMPOTENCY_KEY_TTL_SECONDS = 86400;
  /**
   * Fault injection for the crash tests of Idempotency-Key (test/platform/idempotency-crash.e2e-spec.ts),
   * honoured only when NODE_ENV is `test`: a keyed write pauses for ever, after writing one line
   * `IDEMPOTENCY_FAULT paused <point>` to stderr, either just before its transaction's COMMIT
   * (`pause-before-commit`) or after the commit, before its answer is stored (`pause-before-answer-store`).
   */
  @IsOptional() @IsIn(['pause-before-commit', 'pause-before-answer-store']) IDEMPOTENCY_FAULT?: 'pause-before-commit' | 'pause-before-answer-store';
  /** Multiplies every delay of the webhook retry schedule (5 s, 5 min, ... 10 h); tests use a tiny scale. */
  @Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value))) @IsNumber() @Min(0) WEBHOOK_RETRY_SCALE = 1;
  /** How often the worker relays pending outbox events to webhook deliveries. */
  @Transform(toInt) @IsInt() @Min(10) WEBHOOK_RELAY_INTERVAL_MS = 1000;
  /** Time limit of one webhook POST (connect to last byte). */
  @Transform(toInt) @IsInt() @Min(100) WEBHOOK_TIMEOUT_MS = 15000;
  /** BullMQ lock of a delivery job: a worker that dies mid-delivery has its job taken over within this plus a stalled-check interval (a fifth of it). */
  @Transform(toInt) @IsInt() @Min(500) WEBHOOK_LOCK_MS = 5000;
  /** After a secret rotation, deliveries are signed with the old secret too for this long. */
  @Transform(toInt) @IsInt() @Min(0) WEBHOOK_SECRET_OVERLAP_SECONDS = 86400;
  @Transform(toBool) @IsBoolean() TRUST_PROXY = false;
  /** GET /metrics (API) and the worker's metrics port answer `Authorization: Bearer <METRICS_TOKEN>`; unset, loopback clients only. */
  @IsOptional() @IsString() @MinLength(16) METRICS_TOKEN?: string;
  /** The worker's metrics port (GET /metrics on it; 0: any free port, shown in its start-up line). */
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) METRICS_PORT = 9464;
  /** The address the worker's metrics port listens on. */
  @IsString() METRICS_HOST = '0.0.0.0';
}

export class ConfigError extends Error {}

/** The application's database role when APP_DATABASE_URL is not set. */
export const DEFAULT_APP_DATABASE_ROLE = 'course_platform_app';

/**
 * APP_DATABASE_URL's default: DATABASE_URL's host, port, database and options with the role
 * `course_platform_app` and no password (local servers with trust or peer authentication; where
 * passwords are needed, set APP_DATABASE_URL with one).
 */
export function appDatabaseUrl(databaseUrl: string, role = DEFAULT_APP_DATABASE_ROLE): string {
  const url = new URL(databaseUrl);
  url.username = encodeURIComponent(role);
  url.password = '';
  return url.toString();
}

/** The role name of a PostgreSQL URL (its user name), or '' when it names none. */
export const databaseUser = (url: string): string => decodeURIComponent(new URL(url).username);

function problemOfDatabaseUrls(config: AppConfig): string | null {
  for (const name of ['DATABASE_URL', 'APP_DATABASE_URL'] as const) {
    let url: URL;
    try {
      url = new URL(config[name]);
    } catch {
      return `${name}: not a URL (postgres://user[:password]@host:port/database)`;
    }
    if (!/^postgres(ql)?:$/.test(url.protocol)) return `${name}: must be a postgres:// URL`;
    if (name === 'APP_DATABASE_URL' && !url.username) return 'APP_DATABASE_URL: must name its role (postgres://role[:password]@host:port/database)';
  }
  return null;
}

/**
 * The token issuer (`iss`, RFC 8414 `issuer`, the `iss` of authorization responses): PUBLIC_URL,
 * or `http://localhost:${PORT}` when it is not set. Also the base of the links made outside any
 * request (mails sent by the worker, webhook bodies).
 */
export function issuerUrl(config: Pick<AppConfig, 'PUBLIC_URL' | 'PORT'>): string {
  return config.PUBLIC_URL || `http://localhost:${config.PORT}`;
}

function safeUrl(s: string): URL | null {
  try {
    return new URL(s);
  } catch {
    return null;
  }
}

/** Build and validate the configuration from an environment map (process.env by default). */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const known = Object.keys(new AppConfig());
  const picked: Record<string, unknown> = {};
  for (const key of [...known, 'PUBLIC_URL', 'SMTP_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) if (env[key] !== undefined && env[key] !== '') picked[key] = env[key];
  const config = plainToInstance(AppConfig, { ...picked }, { exposeDefaultValues: true });
  Object.assign(config, overrides);
  const errors = validateSync(config, { skipMissingProperties: false });
  if (errors.length) {
    const lines = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  if (config.NODE_ENV === 'production' && config.APP_SECRET === new AppConfig().APP_SECRET) {
    throw new ConfigError('Invalid configuration:\n  APP_SECRET must be set in production');
  }
  if (!config.APP_DATABASE_URL) {
    // a DATABASE_URL with a password is a server that asks for passwords: the derived role has none
    if (config.NODE_ENV === 'production' && safeUrl(config.DATABASE_URL)?.password) {
      throw new ConfigError(
        'Invalid configuration:\n  APP_DATABASE_URL must be set in production when DATABASE_URL carries a password: the application role\'s own URL, with its password (README, "Database roles")',
      );
    }
    if (safeUrl(config.DATABASE_URL)) config.APP_DATABASE_URL = appDatabaseUrl(config.DATABASE_URL);
  }
  const urlProblem = problemOfDatabaseUrls(config);
  if (urlProblem) throw new ConfigError(`Invalid configuration:\n  ${urlProblem}`);
  return config;
}
