import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import Redis from 'ioredis';
import type { DestinationStream } from 'pino';
import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { createApp } from '../../src/app.factory';
import { AppConfig, loadConfig } from '../../src/core/config/config';
import { CreatedOrg, OrganizationsService } from '../../src/modules/organizations/organizations.service';
import { Client } from 'pg';
import { appDbUrl, cloneDatabase, dbUrl, releaseDatabase } from './db';

export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  basic?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** send `body` as-is (a string) with this content type */
  raw?: { contentType: string; data: string | Buffer };
  form?: Record<string, string>;
  redirect?: 'manual' | 'follow';
}

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  /** the app's own data source: the application role (neither superuser nor owner) */
  ds: DataSource;
  /**
   * A statement on this test's database as its owner (DATABASE_URL): for what the application role
   * may not do and a test needs (DDL such as a trigger that makes a statement fail, ANALYZE, ownership).
   */
  ownerQuery(sql: string, params?: unknown[]): Promise<any[]>;
  /** A data source on this test's database as its owner (the app's options, one connection): a migration's up/down through its query runner. */
  ownerDataSource(): Promise<DataSource>;
  baseUrl: string;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<HttpResponse<T>>;
  get<T = any>(path: string, opts?: RequestOptions): Promise<HttpResponse<T>>;
  post<T = any>(path: string, body?: unknown, opts?: RequestOptions): Promise<HttpResponse<T>>;
  patch<T = any>(path: string, body?: unknown, opts?: RequestOptions): Promise<HttpResponse<T>>;
  delete<T = any>(path: string, opts?: RequestOptions): Promise<HttpResponse<T>>;
  newOrg(name?: string, extra?: { domain?: string; adminEmail?: string; adminPassword?: string }): Promise<CreatedOrg>;
  /** a real access token for the org's bootstrap client, narrowed to `scopes` when given */
  tokenFor(org: CreatedOrg, scopes?: string[]): Promise<string>;
  close(): Promise<void>;
}

/**
 * Start the real API on 127.0.0.1 (random port) over its own database cloned from the migrated
 * template and its own Redis key prefix, so test files run in parallel without sharing state.
 */
export async function startTestApp(overrides: Partial<AppConfig> = {}, opts: { logDestination?: DestinationStream; port?: number } = {}): Promise<TestApp> {
  const dbName = await cloneDatabase();
  const config = loadConfig(process.env, {
    NODE_ENV: 'test',
    // the owner's connection (migrations; the tests' own set-up through ownerQuery) and the
    // application role's, which the app serves through (CONVENTIONS §1)
    DATABASE_URL: dbUrl(dbName),
    APP_DATABASE_URL: appDbUrl(dbName),
    DATABASE_POOL_SIZE: 5,
    REDIS_PREFIX: `cpt_${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: (process.env.TEST_LOG_LEVEL as any) ?? 'silent',
    ...overrides,
  });
  const app = await createApp(config, { logDestination: opts.logDestination });
  await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as import('node:net').AddressInfo;
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const ds = app.get(DataSource);

  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<HttpResponse> => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.basic) headers.authorization = `Basic ${Buffer.from(`${opts.basic}:`).toString('base64')}`;
    let body: string | Buffer | undefined;
    if (opts.raw) {
      headers['content-type'] = opts.raw.contentType;
      body = opts.raw.data;
    } else if (opts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(opts.form).toString();
    } else if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(baseUrl + path, { method, headers, body, redirect: opts.redirect ?? 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  let owner: Promise<Client> | undefined;
  const ownerQuery = async (sql: string, params: unknown[] = []) => {
    owner ??= (async () => {
      const c = new Client({ connectionString: config.DATABASE_URL });
      await c.connect();
      return c;
    })();
    return (await (await owner).query(sql, params)).rows;
  };

  let ownerDs: Promise<DataSource> | undefined;
  const ownerDataSource = () => (ownerDs ??= new DataSource({ ...(ds.options as PostgresConnectionOptions), url: config.DATABASE_URL, extra: { max: 1 } }).initialize());

  const t: TestApp = {
    app,
    config,
    ds,
    ownerQuery,
    ownerDataSource,
    baseUrl,
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    patch: (path, body, opts) => request('PATCH', path, { ...opts, body }),
    delete: (path, opts) => request('DELETE', path, opts),
    newOrg: (name = `Org ${randomBytes(3).toString('hex')}`, extra = {}) => app.get(OrganizationsService).create({ name, ...extra }),
    async tokenFor(org, scopes) {
      const res = await request('POST', '/v2/auth/token', {
        body: { client_id: org.client_id, client_secret: org.client_secret, ...(scopes ? { scope: scopes.join(' ') } : {}) },
      });
      if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
      return res.body.access_token;
    },
    async close() {
      await app.close();
      if (owner) await (await owner).end().catch(() => undefined);
      if (ownerDs) await (await ownerDs).destroy().catch(() => undefined);
      releaseDatabase(dbName);
      await dropRedisKeys(config);
    },
  };
  return t;
}

/**
 * A TCP port free on 127.0.0.1 right now, for an app that must know its own URL before it listens
 * (PUBLIC_URL, or PORT for the default issuer http://localhost:${PORT}): startTestApp(
 * { PUBLIC_URL: `http://127.0.0.1:${port}` }, { port }).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as import('node:net').AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Remove every Redis key of this test app's prefix (queues, rate limits). */
async function dropRedisKeys(config: AppConfig) {
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.REDIS_PREFIX}:*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
