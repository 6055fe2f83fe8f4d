import { getQueueToken } from '@nestjs/bullmq';
import { INestApplicationContext } from '@nestjs/common';
import { Queue, QueueEvents } from 'bullmq';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AppConfig, loadConfig } from '../../src/core/config/config';
import { CleanupJob, QUEUES } from '../../src/core/queue/queues';
import { redisOptions } from '../../src/core/redis/redis.module';
import { CLEANUP_SCHEDULER_ID, CleanupProcessor } from '../../src/modules/maintenance/cleanup.processor';
import { CleanupService } from '../../src/modules/maintenance/cleanup.service';
import { createWorker } from '../../src/worker';
import { startTestApp } from '../support/app';
import { cloneDatabase, dbUrl, dropDatabase } from '../support/db';
import { trackSockets } from '../support/handles';

const DAY = 86400;

/** Remove every Redis key of a test's prefix (queues, schedulers, job data). */
async function dropRedisPrefix(prefix: string) {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

/** An organization with an administrator and a client, in plain SQL (the worker has no HTTP). */
async function seedOrg(ds: DataSource) {
  const [org] = await ds.query(`INSERT INTO organizations (name) VALUES ('Cleanup Org') RETURNING id`);
  const [admin] = await ds.query(`INSERT INTO admins (organization_id, email, password_hash) VALUES ($1, $2, 'x') RETURNING id`, [org.id, `admin-${randomBytes(4).toString('hex')}@cleanup.test`]);
  const [client] = await ds.query(`INSERT INTO oauth_clients (organization_id, client_id, name) VALUES ($1, $2, 'c') RETURNING id`, [org.id, `cp_${randomBytes(8).toString('hex')}`]);
  return { orgId: org.id as string, adminId: admin.id as string, clientId: client.id as string };
}

type Seed = Awaited<ReturnType<typeof seedOrg>>;

/** An authorization code expiring `expiresIn` seconds from now (negative: already expired). */
async function code(ds: DataSource, s: Seed, expiresIn: number): Promise<string> {
  const [row] = await ds.query(
    `INSERT INTO auth_codes (code_hash, client_id, organization_id, admin_id, redirect_uri, code_challenge, scope, expires_at)
     VALUES (gen_random_bytes(32), $1, $2, $3, 'https://app.test/cb', 'c', 'students:read', now() + make_interval(secs => $4)) RETURNING id`,
    [s.clientId, s.orgId, s.adminId, expiresIn],
  );
  return row.id;
}

/** A token family created `age` seconds ago. */
async function family(ds: DataSource, s: Seed, age: number): Promise<string> {
  const [row] = await ds.query(`INSERT INTO token_families (client_id, organization_id, subject, created_at) VALUES ($1, $2, 'adm', now() - make_interval(secs => $3)) RETURNING id`, [
    s.clientId,
    s.orgId,
    age,
  ]);
  return row.id;
}

/** A refresh token of `familyId` expiring `expiresIn` seconds from now, optionally already rotated out. */
async function refresh(ds: DataSource, familyId: string, expiresIn: number, rotated = false): Promise<string> {
  const [row] = await ds.query(
    `INSERT INTO refresh_tokens (family_id, token_hash, scope, expires_at, rotated_at)
     VALUES ($1, gen_random_bytes(32), 'students:read', now() + make_interval(secs => $2), CASE WHEN $3 THEN now() END) RETURNING id`,
    [familyId, expiresIn, rotated],
  );
  return row.id;
}

async function ids(ds: DataSource, table: 'auth_codes' | 'refresh_tokens' | 'token_families'): Promise<string[]> {
  const rows: { id: string }[] = await ds.query(`SELECT id FROM ${table} ORDER BY id`);
  return rows.map((r) => r.id);
}

const sorted = (a: string[]) => [...a].sort();

describe('worker: the maintenance queue cleans up expired OAuth state', () => {
  let dbName: string;
  let config: AppConfig;
  let worker: INestApplicationContext;
  let ds: DataSource;
  let events: QueueEvents;
  let seed: Seed;
  let sockets: ReturnType<typeof trackSockets>;
  // rows present before the worker starts: its first scheduled run must clean them up
  const early: { expiredCode?: string; liveCode?: string; expiredToken?: string; liveToken?: string } = {};

  beforeAll(async () => {
    dbName = await cloneDatabase();
    config = loadConfig(process.env, {
      NODE_ENV: 'test',
      DATABASE_URL: dbUrl(dbName),
      DATABASE_POOL_SIZE: 3,
      REDIS_PREFIX: `cpt_${randomBytes(4).toString('hex')}`,
      LOG_LEVEL: (process.env.TEST_LOG_LEVEL as any) ?? 'silent',
      REFRESH_TOKEN_TTL: DAY,
      ACCESS_TOKEN_TTL: 3600,
      CLEANUP_INTERVAL_SECONDS: 3600,
    });
    sockets = trackSockets();
    // seed through a plain connection before the worker exists
    const seedDs = new DataSource({ type: 'postgres', url: config.DATABASE_URL });
    await seedDs.initialize();
    seed = await seedOrg(seedDs);
    early.expiredCode = await code(seedDs, seed, -60);
    early.liveCode = await code(seedDs, seed, 600);
    const f = await family(seedDs, seed, 60);
    early.expiredToken = await refresh(seedDs, f, -60);
    early.liveToken = await refresh(seedDs, f, 600);
    await seedDs.destroy();

    events = new QueueEvents(QUEUES.maintenance, { connection: redisOptions(config), prefix: `${config.REDIS_PREFIX}:bull` });
    await events.waitUntilReady();
    const firstRun = new Promise<{ jobId: string; returnvalue: any }>((resolve) => events.once('completed', resolve as any));
    worker = await createWorker(config);
    ds = worker.get(DataSource);
    const first = await firstRun;
    expect(first.jobId).toMatch(new RegExp(`^repeat:${CLEANUP_SCHEDULER_ID}:`));
  });

  afterAll(async () => {
    await events?.close();
    await worker?.close();
    if (sockets) expect(await sockets.openAfterClose()).toEqual([]);
    await dropDatabase(dbName);
    await dropRedisPrefix(config.REDIS_PREFIX);
  });

  it('upserts one job scheduler every CLEANUP_INTERVAL_SECONDS, whose first run happens at start', async () => {
    const queue = worker.get<Queue>(getQueueToken(QUEUES.maintenance));
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({ key: CLEANUP_SCHEDULER_ID, every: 3600 * 1000, name: 'cleanup' });
    expect(await queue.getWorkersCount()).toBe(1);
    // that first run already removed the expired rows seeded before the start
    expect(await ids(ds, 'auth_codes')).toEqual([early.liveCode]);
    expect(await ids(ds, 'refresh_tokens')).toEqual([early.liveToken]);
  });

  it('a cleanup job deletes expired codes, expired refresh tokens and dead old families, and keeps the rest', async () => {
    const expiredCodes = [await code(ds, seed, -1), await code(ds, seed, -DAY)];
    const liveCodes = [early.liveCode!, await code(ds, seed, 300)];

    // an old family whose tokens all expired: gone, with its tokens
    const deadOld = await family(ds, seed, DAY + 60);
    await refresh(ds, deadOld, -120, true);
    await refresh(ds, deadOld, -60);
    // an old family still holding a live token: kept; its expired, rotated-out token goes
    const liveOld = await family(ds, seed, DAY + 60);
    const liveOldExpired = await refresh(ds, liveOld, -60, true);
    const liveOldLive = await refresh(ds, liveOld, 3600);
    // a live rotated-out token is kept too (reuse detection lasts until it expires)
    const rotatedLive = await refresh(ds, liveOld, 1800, true);
    // a young family whose only token expired: family kept (younger than REFRESH_TOKEN_TTL), token gone
    const young = await family(ds, seed, 60);
    const youngExpired = await refresh(ds, young, -1);
    // an old family with no token at all (its tokens were cleaned up earlier): gone
    const empty = await family(ds, seed, DAY + 1);
    const familiesBefore = await ids(ds, 'token_families');

    const queue = worker.get<Queue<CleanupJob>>(getQueueToken(QUEUES.maintenance));
    const job = await queue.add('cleanup', { kind: 'expired-auth' });
    const result = await job.waitUntilFinished(events);

    expect(result).toEqual({ authCodes: 2, refreshTokens: 4, tokenFamilies: 2, outboxEvents: 0, idempotencyKeys: 0, revokedAccessTokens: 0 });
    expect(await ids(ds, 'auth_codes')).toEqual(sorted(liveCodes));
    expect(await ids(ds, 'refresh_tokens')).toEqual(sorted([early.liveToken!, liveOldLive, rotatedLive]));
    expect(await ids(ds, 'token_families')).toEqual(sorted(familiesBefore.filter((id) => id !== deadOld && id !== empty)));
    expect(await ids(ds, 'token_families')).toEqual(expect.arrayContaining([liveOld, young]));
    for (const gone of [...expiredCodes, liveOldExpired, youngExpired]) {
      expect([...(await ids(ds, 'auth_codes')), ...(await ids(ds, 'refresh_tokens'))]).not.toContain(gone);
    }
  });

  it('a cleanup job deletes the denylist rows of revoked access tokens that have expired, past the clock-skew margin (issue 25 item 3)', async () => {
    await ds.query(
      `INSERT INTO revoked_access_tokens (jti, expires_at) VALUES
         ('expired-long-ago', now() - interval '1 hour'), ('expired-just-now', now() - interval '30 seconds'), ('still-valid', now() + interval '1 hour')`,
    );
    const queue = worker.get<Queue<CleanupJob>>(getQueueToken(QUEUES.maintenance));
    const job = await queue.add('cleanup', { kind: 'expired-auth' });
    expect(await job.waitUntilFinished(events)).toMatchObject({ revokedAccessTokens: 1 });
    const left = (await ds.query(`SELECT jti FROM revoked_access_tokens ORDER BY jti`)).map((r: { jti: string }) => r.jti);
    expect(left).toEqual(['expired-just-now', 'still-valid']);
  });

  it('a job of an unknown kind fails with a clear error', async () => {
    const queue = worker.get<Queue>(getQueueToken(QUEUES.maintenance));
    const job = await queue.add('cleanup', { kind: 'bogus' }, { attempts: 1 });
    await expect(job.waitUntilFinished(events)).rejects.toThrow(/unknown maintenance job kind: bogus/);
    expect(await queue.getJobState(job.id!)).toBe('failed');
  });

  it('works through a backlog in bounded batches until nothing expired is left', async () => {
    const service = worker.get(CleanupService);
    const f = await family(ds, seed, 10);
    await ds.query(
      `INSERT INTO refresh_tokens (family_id, token_hash, scope, expires_at)
       SELECT $1, gen_random_bytes(32), 's', now() - interval '1 minute' FROM generate_series(1, 7)`,
      [f],
    );
    for (let i = 0; i < 5; i++) await code(ds, seed, -10);
    // three statements of 3 rows for the tokens (3 + 3 + 1), two capped ones for the codes
    const capped = await service.run({ batchSize: 3, maxBatches: 1 });
    expect(capped).toEqual({ refreshTokens: 3, tokenFamilies: 0, authCodes: 3, outboxEvents: 0, idempotencyKeys: 0, revokedAccessTokens: 0 });
    const rest = await service.run({ batchSize: 3 });
    expect(rest).toEqual({ refreshTokens: 4, tokenFamilies: 0, authCodes: 2, outboxEvents: 0, idempotencyKeys: 0, revokedAccessTokens: 0 });
    expect(await service.run({ batchSize: 3 })).toEqual({ refreshTokens: 0, tokenFamilies: 0, authCodes: 0, outboxEvents: 0, idempotencyKeys: 0, revokedAccessTokens: 0 });
  });

  it('keeps expired refresh tokens (and their family) while an access token of the family can still be valid', async () => {
    // REFRESH_TOKEN_TTL shorter than ACCESS_TOKEN_TTL: an access token can outlive the last refresh token
    const shortRefresh = Object.assign(new AppConfig(), config, { REFRESH_TOKEN_TTL: 600, ACCESS_TOKEN_TTL: 3600 });
    const service = new CleanupService(ds, shortRefresh);
    const recent = await family(ds, seed, 1200);
    const recentToken = await refresh(ds, recent, -60); // expired a minute ago: access tokens may live 49 more minutes
    const old = await family(ds, seed, 7200);
    await refresh(ds, old, -3100); // expired more than 3000 s (3600 - 600) ago: nothing of it is valid any more
    const result = await service.run();
    expect(result).toEqual({ refreshTokens: 1, tokenFamilies: 1, authCodes: 0, outboxEvents: 0, idempotencyKeys: 0, revokedAccessTokens: 0 });
    expect(await ids(ds, 'refresh_tokens')).toContain(recentToken);
    const families = await ids(ds, 'token_families');
    expect(families).toContain(recent);
    expect(families).not.toContain(old);
  });
});

describe('processors live in the worker process only', () => {
  it('the API application has no BullMQ worker and no processor', async () => {
    const t = await startTestApp();
    try {
      expect(() => t.app.get(CleanupProcessor, { strict: false })).toThrow();
      const queue = t.app.get<Queue>(getQueueToken(QUEUES.maintenance));
      expect(await queue.getWorkersCount()).toBe(0);
      expect(await queue.getJobSchedulers()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('the worker entry point (src/worker.ts)', () => {
  it('starts as its own process and stops cleanly on SIGTERM', async () => {
    const dbName = await cloneDatabase();
    const prefix = `cpt_${randomBytes(4).toString('hex')}`;
    try {
      const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/worker.ts'], {
        cwd: `${__dirname}/../..`,
        env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: dbUrl(dbName), REDIS_PREFIX: prefix, LOG_LEVEL: 'info', CLEANUP_INTERVAL_SECONDS: '120', METRICS_PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('"msg":"worker running (')) resolve();
        });
        child.on('exit', () => reject(new Error(`worker exited before starting: ${err}`)));
      });
      const lines = out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.find((l) => l.msg === 'cleanup scheduled')).toMatchObject({ service: 'worker', everySeconds: 120 });
      child.kill('SIGTERM');
      // Nest runs the shutdown hooks (workers, queues, Redis, database), then re-raises the signal
      expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
      expect(out).toContain('"msg":"worker stopping","signal":"SIGTERM"');
      expect(err).toBe('');
    } finally {
      await dropDatabase(dbName);
      await dropRedisPrefix(prefix);
    }
  });
});
