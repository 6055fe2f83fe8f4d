import { ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import semver from 'semver';
import { startTestApp, TestApp } from '../support/app';
import { cloneDatabase, dbUrl, dropDatabase } from '../support/db';
import { waitFor } from '../support/eventually';
import { freePort, PrivateRedis } from '../support/redis-server';

const ROOT = path.resolve(__dirname, '../..');

/** An entry point (src/main.ts, src/worker.ts) as its own process, at the default log level, with every line it writes kept in order. */
interface Proc {
  child: ChildProcess;
  /** every line written so far, stdout and stderr interleaved as they arrived */
  lines: string[];
  exited: Promise<number | null>;
  kill(): Promise<void>;
}

function run(file: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', file], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', HOST: '127.0.0.1', LOG_LEVEL: 'info', LOG_FORMAT: 'json', METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const tails = { out: '', err: '' };
  for (const [name, stream] of [
    ['out', child.stdout!],
    ['err', child.stderr!],
  ] as const) {
    stream.on('data', (c) => {
      const parts = (tails[name] + c).split('\n');
      tails[name] = parts.pop()!;
      lines.push(...parts);
    });
  }
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  return {
    child,
    lines,
    exited,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

const msgOf = (line: string): string => {
  try {
    return String(JSON.parse(line).msg ?? line);
  } catch {
    return line;
  }
};

/** A stack trace line, or ioredis's complaint about an error nobody listens to. */
const NOISE = /^\s+at |Unhandled error event|ECONNREFUSED[^;]*$/;

async function health(base: string): Promise<number> {
  try {
    return (await fetch(`${base}/health`)).status;
  } catch {
    return 0;
  }
}

describe('start-up and its failures (CONVENTIONS §23, issue 28)', () => {
  let t: TestApp;
  const procs: Proc[] = [];
  const redises: PrivateRedis[] = [];
  const dbs: string[] = [];
  const env = () => ({
    DATABASE_URL: t.config.DATABASE_URL,
    APP_DATABASE_URL: t.config.APP_DATABASE_URL,
    REDIS_URL: t.config.REDIS_URL,
    REDIS_PREFIX: `cpt_${randomBytes(4).toString('hex')}`,
    APP_SECRET: t.config.APP_SECRET,
  });
  const start = (file: string, extra: Record<string, string>) => {
    const p = run(file, { ...env(), ...extra });
    procs.push(p);
    return p;
  };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.kill()));
    await Promise.all(redises.map((r) => r.stop()));
    for (const db of dbs) await dropDatabase(db);
    await t.close();
  });

  it('the API says where it listens and where its docs are, in its first line, and prints no route lines', async () => {
    const port = await freePort();
    const api = start('src/main.ts', { PORT: String(port) });
    await waitFor(async () => (await health(`http://127.0.0.1:${port}`)) === 200, { what: 'the API answering /health', timeoutMs: 60_000 });
    const before = [...api.lines];
    expect(before.length).toBeGreaterThanOrEqual(1);
    expect(before.length).toBeLessThanOrEqual(12);
    expect(msgOf(before[0])).toBe(`API on http://localhost:${port}, docs at http://localhost:${port}/docs`);
    expect(before.join('\n')).not.toMatch(/Mapped \{|RoutesResolver|dependencies initialized|successfully started/);
    // and the docs are where it says
    expect((await fetch(`http://127.0.0.1:${port}/docs`)).status).toBe(200);
  });

  it('a taken port: one line naming PORT, exit status 3, nothing claiming to have started', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const api = start('src/main.ts', { PORT: String(port) });
      expect(await api.exited).toBe(3);
      expect(api.lines.filter(Boolean)).toEqual([`API cannot listen on 127.0.0.1:${port} (PORT=${port}): the port is in use by another process; choose another PORT`]);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('the worker says where its metrics are; a taken METRICS_PORT: one line naming it, exit status 3', async () => {
    const port = await freePort();
    const worker = start('src/worker.ts', { METRICS_PORT: String(port) });
    await waitFor(() => worker.lines.some((l) => msgOf(l).startsWith('worker running')), { what: 'the worker start line', timeoutMs: 60_000 });
    const first = worker.lines.filter(Boolean);
    expect(first.map(msgOf)).toContainEqual(
      expect.stringMatching(new RegExp(`^worker running \\(queues: maintenance, mail, content-files, webhook-relay, webhook-delivery, [a-z, -]+\\), metrics at http://localhost:${port}/metrics$`)),
    );
    expect(first.length).toBeLessThanOrEqual(12);
    expect(first.join('\n')).not.toMatch(/dependencies initialized|successfully started/);
    // a second worker on the same metrics port cannot listen there
    const second = start('src/worker.ts', { METRICS_PORT: String(port) });
    expect(await second.exited).toBe(3);
    expect(second.lines.filter((l) => /cannot listen/.test(l))).toEqual([
      `worker cannot listen on 127.0.0.1:${port} (METRICS_PORT=${port}): the port is in use by another process; choose another METRICS_PORT`,
    ]);
    expect(second.lines.join('\n')).not.toMatch(NOISE);
  });

  it('Redis missing: one line per attempt naming REDIS_URL, with back-off; it starts once Redis comes; an outage later is reported the same way and recovered from', async () => {
    const redisPort = await freePort();
    const apiPort = await freePort();
    const base = `http://127.0.0.1:${apiPort}`;
    const api = start('src/main.ts', { PORT: String(apiPort), REDIS_URL: `redis://127.0.0.1:${redisPort}` });
    const tried = `Redis not reachable at redis://127.0.0.1:${redisPort} (REDIS_URL): `;
    await waitFor(() => api.lines.filter((l) => msgOf(l).startsWith(tried)).length >= 3, { what: 'three attempts at Redis', timeoutMs: 60_000 });
    // every line so far is one of those attempts: no stack trace, no ioredis complaint
    const waiting = api.lines.filter(Boolean);
    expect(waiting.every((l) => msgOf(l).startsWith(tried))).toBe(true);
    expect(waiting.map(msgOf).slice(0, 3)).toEqual([
      expect.stringMatching(/ECONNREFUSED.*; retrying in 1 s \(attempt 1\)$/),
      expect.stringMatching(/; retrying in 2 s \(attempt 2\)$/),
      expect.stringMatching(/; retrying in 4 s \(attempt 3\)$/),
    ]);
    expect(await health(base)).toBe(0);

    // Redis comes: the API starts and serves
    const redis = new PrivateRedis(redisPort);
    redises.push(redis);
    await redis.start();
    await waitFor(async () => (await health(base)) === 200, { what: 'the API answering once Redis is there', timeoutMs: 60_000 });
    expect(api.lines.map(msgOf)).toEqual(
      expect.arrayContaining([`Redis reachable at redis://127.0.0.1:${redisPort} (REDIS_URL); starting`, `API on http://localhost:${apiPort}, docs at http://localhost:${apiPort}/docs`]),
    );

    // Redis goes away while the API serves: one line per reconnection attempt, no stack traces
    const mark = api.lines.length;
    await redis.stop();
    await waitFor(() => api.lines.slice(mark).filter((l) => msgOf(l).startsWith(tried)).length >= 3, { what: 'three reconnection attempts', timeoutMs: 30_000 });
    expect(await health(base)).toBe(503);
    await redis.start();
    await waitFor(async () => (await health(base)) === 200, { what: 'the API healthy again', timeoutMs: 30_000 });
    // the line is written when the connection is ready again, which may come just after the first ping answers
    await waitFor(() => api.lines.slice(mark).some((l) => msgOf(l).startsWith('Redis reachable again')), { what: 'the recovery line', timeoutMs: 10_000 });
    const during = api.lines.slice(mark).filter(Boolean);
    expect(during.join('\n')).not.toMatch(NOISE);
    expect(during.map(msgOf)).toContain(`Redis reachable again at redis://127.0.0.1:${redisPort} (REDIS_URL)`);
    // the outage lines are the reconnection attempts (and the health checks' refusals), not one per queue or per connection
    const attempts = during.filter((l) => msgOf(l).startsWith(tried)).length;
    expect(during.filter((l) => !msgOf(l).startsWith(tried) && !/\/health/.test(l) && !/reachable again/.test(l))).toEqual([]);
    expect(attempts).toBeLessThan(12);
  }, 150_000);

  it('PostgreSQL missing: one line per attempt naming DATABASE_URL (the password hidden), with back-off', async () => {
    const pgPort = await freePort();
    const url = `postgres://someone:s3cret@127.0.0.1:${pgPort}/course_platform`;
    const api = start('src/main.ts', { PORT: String(await freePort()), DATABASE_URL: url, APP_DATABASE_URL: '' });
    const tried = `PostgreSQL not reachable at postgres://someone:***@127.0.0.1:${pgPort}/course_platform (DATABASE_URL): `;
    await waitFor(() => api.lines.filter((l) => msgOf(l).startsWith(tried)).length >= 2, { what: 'two attempts at PostgreSQL', timeoutMs: 30_000 });
    const lines = api.lines.filter(Boolean);
    expect(lines.every((l) => msgOf(l).startsWith(tried))).toBe(true);
    expect(lines.join('\n')).not.toContain('s3cret');
    expect(api.child.exitCode).toBeNull();
  });

  it('the migrate step says in one line what it did', async () => {
    const db = await cloneDatabase();
    dbs.push(db);
    const migrate = run('src/core/database/migrate.ts', { DATABASE_URL: dbUrl(db), APP_DATABASE_URL: '' });
    procs.push(migrate);
    expect(await migrate.exited).toBe(0);
    expect(migrate.lines.filter(Boolean).map(msgOf)).toEqual(['database up to date']);
  });

  it('a refused request is logged with its reason', async () => {
    const lines: any[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        cb();
      },
    });
    const app = await startTestApp({ LOG_LEVEL: 'info' }, { logDestination: sink });
    try {
      const org = await app.newOrg();
      const token = await app.tokenFor(org);
      await app.get('/v2/students', { headers: { 'x-request-id': 'why-401' } });
      await app.post('/v2/students', { data: { type: 'student', attributes: { email: 'not-an-email' } } }, { token, headers: { 'x-request-id': 'why-400' } });
      const l401 = await waitFor(() => lines.find((l) => l.request_id === 'why-401'), { what: 'the 401 line' });
      expect(l401).toMatchObject({ status: 401, msg: 'request refused', reason: expect.stringMatching(/credentials/i) });
      const l400 = await waitFor(() => lines.find((l) => l.request_id === 'why-400'), { what: 'the 400 line' });
      expect(l400).toMatchObject({ status: 400, msg: 'request refused', reason: expect.stringContaining('"data"') });
    } finally {
      await app.close();
    }
  });
});

describe('supported Node.js versions (package.json engines)', () => {
  it('every installed package declares support for the lowest version of each supported line', () => {
    const pkg = require('../../package.json');
    const lock = require('../../package-lock.json').packages as Record<string, { version: string; engines?: { node?: string }; dev?: boolean }>;
    const range: string = pkg.engines.node;
    expect(semver.satisfies(process.version, range)).toBe(true);
    // the first version of each line the range admits: 20.19.0, 22.13.0, 24.0.0
    const lowest = range.split('||').map((r) => semver.minVersion(r.trim())!.version);
    const misfits: string[] = [];
    for (const [name, meta] of Object.entries(lock)) {
      const wants = meta.engines?.node;
      if (!name || !wants) continue;
      for (const v of lowest) if (!semver.satisfies(v, wants)) misfits.push(`${name}@${meta.version} wants node ${wants}, not ${v}`);
    }
    expect(misfits).toEqual([]);
  });
});
