import { randomBytes } from 'node:crypto';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { adminQuery } from '../support/db';

/**
 * A PostgreSQL outage is answered 503 with Retry-After in each interface's envelope (never a 500,
 * and never a 401 because authentication could not look something up), and the app recovers by
 * itself. The outage is made on this file's own database only: new connections refused
 * (ALLOW_CONNECTIONS false) and the app's open ones terminated.
 */
jest.setTimeout(60_000);

const dbName = (t: TestApp) => decodeURIComponent(new URL(t.config.DATABASE_URL).pathname.slice(1));

async function cutOff(t: TestApp) {
  const name = dbName(t);
  await adminQuery(`ALTER DATABASE "${name.replace(/"/g, '""')}" ALLOW_CONNECTIONS false`);
  await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
}

async function reopen(t: TestApp) {
  await adminQuery(`ALTER DATABASE "${dbName(t).replace(/"/g, '""')}" ALLOW_CONNECTIONS true`);
}

async function timed<T>(fn: () => Promise<T>): Promise<T> {
  const start = Date.now();
  const v = await fn();
  expect(Date.now() - start).toBeLessThan(10_000);
  return v;
}

function expect503(res: { status: number; headers: Headers }) {
  expect(res.status).toBe(503);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(30);
}

describe('PostgreSQL goes away', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 1, DATABASE_CONNECT_TIMEOUT_MS: 2000 });
    org = await t.newOrg();
    token = await t.tokenFor(org);
    // warm: the token and the API key are known and cached
    expect((await t.get('/v2/students/', { token })).status).toBe(200);
    expect((await t.get('/v1/courses', { basic: org.api_key })).status).toBe(200);
    await cutOff(t);
  });
  afterAll(async () => {
    await reopen(t);
    await t.close();
  });

  it('/v2 answers 503 service_unavailable in the JSON:API envelope, with Retry-After', async () => {
    const res = await timed(() => t.get('/v2/students/', { token }));
    expect503(res);
    expect(res.headers.get('content-type')).toMatch(/application\/vnd\.api\+json/);
    expect(res.body.errors).toEqual([expect.objectContaining({ status: '503', code: 'service_unavailable', title: 'Service unavailable', detail: expect.any(String) })]);
  });

  it('a /v2 batch write is one 503, not a 207 of per-item errors', async () => {
    const res = await timed(() => t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: 'x@outage.test', first_name: 'X', last_name: 'Y' } }] }, { token }));
    expect503(res);
    expect(res.body.errors[0].code).toBe('service_unavailable');
  });

  it('/v1 answers 503 {"detail"} with Retry-After', async () => {
    const res = await timed(() => t.get('/v1/courses', { basic: org.api_key }));
    expect503(res);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });

  it('the token endpoint answers 503 {"error": "temporarily_unavailable"} (RFC 6749 style) with Retry-After', async () => {
    const res = await timed(() => t.post('/v2/auth/token', { grant_type: 'client_credentials', client_id: org.client_id, client_secret: org.client_secret }));
    expect503(res);
    expect(res.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
  });

  it('authentication that needs the database is a 503, not a 401 (expired auth cache, unknown API key)', async () => {
    await new Promise((r) => setTimeout(r, 1200)); // past AUTH_CACHE_SECONDS: the client's state must be read again
    const v2 = await timed(() => t.get('/v2/students/', { token }));
    expect503(v2);
    const v1 = await timed(() => t.get('/v1/courses', { basic: `cpk_${randomBytes(32).toString('base64url')}` }));
    expect503(v1);
    expect(v1.body).toEqual({ detail: expect.any(String) });
  });

  it('/health answers 503 with Retry-After', async () => {
    const res = await timed(() => t.get('/health'));
    expect503(res);
    expect(res.body.checks.postgres).not.toBe('ok');
  });

  it('recovers by itself once the database is back', async () => {
    await reopen(t);
    expect((await t.get('/v2/students/', { token })).status).toBe(200);
    expect((await t.get('/v1/courses', { basic: org.api_key })).status).toBe(200);
    expect((await t.post('/v2/auth/token', { grant_type: 'client_credentials', client_id: org.client_id, client_secret: org.client_secret })).status).toBe(200);
    expect((await t.get('/health')).status).toBe(200);
  });
});

describe('no pool connection within DATABASE_CONNECT_TIMEOUT_MS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ DATABASE_POOL_SIZE: 1, DATABASE_CONNECT_TIMEOUT_MS: 500, AUTH_CACHE_SECONDS: 0 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a request that cannot get a connection answers 503 instead of waiting', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    // the pool's only connection is busy for 4 s
    const busy = t.ds.query('SELECT pg_sleep(4)');
    await new Promise((r) => setTimeout(r, 100));
    const start = Date.now();
    const res = await t.get('/v2/students/', { token });
    expect(Date.now() - start).toBeLessThan(3000);
    expect503(res);
    expect(res.body.errors[0].code).toBe('service_unavailable');
    await busy;
    expect((await t.get('/v2/students/', { token })).status).toBe(200);
  });
});
