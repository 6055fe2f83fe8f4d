/* eslint-disable */
'use strict';
/**
 * Helpers shared by the benchmark scripts: child processes for the servers under test, free ports,
 * readiness, autocannon, and cleaning up the throw-away database and Redis keys of a run.
 */
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

// ---------------------------------------------------------------------------------------------
// Event-loop delay of the API processes (src/main.ts eventLoopProbe). Every API child (a child
// running dist/src/main.js) gets EVENT_LOOP_STATS=ipc and an IPC channel; runAutocannon aimed at an
// API child's port resets its window before the run and reads it after (result.eventLoop), and
// stopChild reads the child's whole-lifetime figures. With BENCH_EVENT_LOOP_FILE set (bench/run.js
// sets it), every reading is also appended there as one JSON line, so the runner can report the
// event-loop delay of scenarios that never ask for it themselves.
// ---------------------------------------------------------------------------------------------

const apiChildren = new Map(); // port -> child
const servers = new Map(); // port -> any server child (API or bare)

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuMsOf(pid) {
  try {
    const stat = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields 14 and 15 (utime, stime) counted from 1; f[0] is field 3
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

function isApiChild(args) {
  return args.some((a) => typeof a === 'string' && /dist\/src\/main\.js$/.test(a));
}

let probeSeq = 0;
function askEventLoop(child, what) {
  return new Promise((resolve) => {
    if (!child.connected) return resolve(null);
    const id = ++probeSeq;
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      resolve(null);
    }, 2000);
    const onMessage = (m) => {
      if (m && m.eventLoop === what && m.id === id) {
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(m);
      }
    };
    child.on('message', onMessage);
    try {
      child.send({ eventLoop: what, id });
    } catch {
      clearTimeout(timer);
      resolve(null);
    }
  });
}

function recordEventLoop(entry) {
  const file = process.env.BENCH_EVENT_LOOP_FILE;
  if (!file) return;
  require('node:fs').appendFileSync(file, `${JSON.stringify({ bench: path.basename(process.argv[1] || ''), ...entry })}\n`);
}

const round2 = (x) => Math.round(x * 100) / 100;
const summary = (h) =>
  h
    ? {
        p50: round2(h.p50),
        p99: round2(h.p99),
        max: round2(h.max),
        samples: h.samples,
        ...(h.gc ? { gc: { count: h.gc.count, totalMs: round2(h.gc.totalMs), maxMs: round2(h.gc.maxMs), major: h.gc.major } } : {}),
      }
    : null;

/** Start `node <args>` in the project root; with captureStdout its output collects in child.output. */
function startChild(args, env, captureStdout = false) {
  const api = isApiChild(args);
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: api ? { ...env, EVENT_LOOP_STATS: 'ipc' } : env,
    stdio: ['ignore', captureStdout ? 'pipe' : 'inherit', 'inherit', ...(api ? ['ipc'] : [])],
  });
  if (api) {
    // the channel must not keep this process alive either
    child.channel?.unref?.();
    if (env && env.PORT) {
      apiChildren.set(String(env.PORT), child);
      child.once('exit', () => apiChildren.get(String(env.PORT)) === child && apiChildren.delete(String(env.PORT)));
    }
    child.benchPort = env && env.PORT;
  }
  // any server child (API or bare) is found by the port it serves: env PORT, or the argument after --serve-*
  const served = args.find((a, i) => i > 0 && /^--serve/.test(String(args[i - 1]))) ?? (api && env && env.PORT ? String(env.PORT) : undefined);
  if (served) {
    servers.set(String(served), child);
    child.once('exit', () => servers.get(String(served)) === child && servers.delete(String(served)));
  }
  if (captureStdout) {
    child.output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => (child.output += d));
  }
  return child;
}

async function stopChild(child) {
  if (child && child.connected && child.exitCode === null && child.signalCode === null) {
    const m = await askEventLoop(child, 'read');
    if (m) recordEventLoop({ kind: 'lifetime', port: child.benchPort, eventLoop: summary(m.lifetime) });
  }
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Wait until `url` answers 2xx; fails if the child exits first or after 60 s. */
async function waitFor(url, child, what) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up at ${url}`);
}

function portOf(url) {
  try {
    return new URL(url).port;
  } catch {
    return '';
  }
}

/**
 * autocannon; when `opts.url` is an API child's, result.eventLoop holds that process's event-loop
 * delay over the run (ms: p50, p99, max), also recorded for bench/run.js.
 */
async function runAutocannon(opts) {
  const autocannon = require('autocannon');
  const child = apiChildren.get(portOf(opts.url));
  const server = servers.get(portOf(opts.url));
  if (child) await askEventLoop(child, 'reset');
  const cpu0 = server ? cpuMsOf(server.pid) : null;
  const result = await new Promise((resolve, reject) => {
    autocannon(opts, (err, r) => (err ? reject(err) : resolve(r)));
  });
  // the server's CPU per answered request: what the load of other processes moves least
  const cpu1 = server ? cpuMsOf(server.pid) : null;
  if (cpu0 !== null && cpu1 !== null && result.requests.total > 0) {
    result.cpu = { ms: cpu1 - cpu0, usPerRequest: Math.round(((cpu1 - cpu0) * 1000) / result.requests.total) };
  }
  if (child) {
    const m = await askEventLoop(child, 'read');
    result.eventLoop = m ? summary(m.window) : null;
    const first = opts.requests && opts.requests[0];
    recordEventLoop({
      kind: 'run',
      port: portOf(opts.url),
      method: (first && first.method) || opts.method || 'GET',
      path: (first && first.path) || new URL(opts.url).pathname,
      duration: opts.duration,
      amount: opts.amount,
      rps: result.requests && result.requests.average,
      eventLoop: result.eventLoop,
      cpu: result.cpu,
    });
  }
  return result;
}

async function dropBenchDb(adminUrl, name) {
  const { Client } = require('pg');
  const c = new Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await c.end();
  }
}

/** Remove the keys a run wrote under its Redis prefix (rate limits, queues). */
async function dropRedisPrefix(url, prefix) {
  const Redis = require('ioredis');
  const redis = new Redis(url);
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

function fmt(n, digits = 0) {
  return Number(n).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** The statements (and their parameters) in a chunk of the stdout of an API child started with DATABASE_LOG_QUERIES=true (TypeORM's query log). */
function loggedStatements(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('query failed: ')) out.push({ failed: true, raw: line.slice('query failed: '.length) });
    else if (line.startsWith('query: ')) out.push({ failed: false, raw: line.slice('query: '.length) });
    else if (out.length && !line.startsWith('{') && !line.startsWith('error:')) out[out.length - 1].raw += `\n${line}`;
  }
  return out.map((s) => {
    const at = s.raw.indexOf(' -- PARAMETERS: ');
    return at < 0 ? { failed: s.failed, sql: s.raw.trim(), params: [] } : { failed: s.failed, sql: s.raw.slice(0, at), params: JSON.parse(s.raw.slice(at + ' -- PARAMETERS: '.length)) };
  });
}
/**
 * The world of a scenario that runs API children on its own data: a throw-away database
 * `cp_bench_<name>_<random>` (created and migrated), a unique REDIS_PREFIX, an organization made by
 * the CLI's code and a file name for a recorded script. `startApi(logQueries, nodeArgs)` starts an API
 * child (dist/, NODE_ENV=production, LOG_LEVEL=warn unless BENCH_LOG_LEVEL; `nodeArgs` before the
 * script, e.g. --cpu-prof) on it and waits for /health;
 * `cleanup()` stops the children and drops the database, the Redis keys and the script file (also
 * on SIGINT, and at once if the world cannot be built). `envExtra`: settings of the API children.
 */
async function benchWorld(name, orgName, envExtra = {}) {
  const { randomBytes } = require('node:crypto');
  const fs = require('node:fs');
  const os = require('node:os');
  const { loadConfig } = require(path.join(ROOT, 'dist/src/core/config/config.js'));
  const { migrate } = require(path.join(ROOT, 'dist/src/core/database/database.js'));
  const { runCli } = require(path.join(ROOT, 'dist/src/cli.js'));
  const { decodeId } = require(path.join(ROOT, 'dist/src/core/ids/ids.js'));

  const base = loadConfig(process.env);
  const run = randomBytes(4).toString('hex');
  const dbName = `cp_bench_${name}_${run}`;
  const dbUrl = new URL(base.DATABASE_URL);
  dbUrl.pathname = `/${dbName}`;
  const adminUrl = new URL(base.DATABASE_URL);
  adminUrl.pathname = '/postgres';
  const redisPrefix = `cpbench_${run}`;
  const scriptFile = path.join(os.tmpdir(), `cp-bench-${name}-${run}.json`);
  const load0 = os.loadavg();

  const children = [];
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    await Promise.all(children.map(stopChild));
    fs.rmSync(scriptFile, { force: true });
    await dropBenchDb(adminUrl.toString(), dbName).catch((e) => process.stderr.write(`could not drop ${dbName}: ${e.message}\n`));
    await dropRedisPrefix(base.REDIS_URL, redisPrefix).catch((e) => process.stderr.write(`could not remove ${redisPrefix}:* keys: ${e.message}\n`));
  };
  process.once('SIGINT', () => cleanup().then(() => process.exit(130)));

  const env = {
    ...process.env,
    NODE_ENV: 'production',
    APP_SECRET: randomBytes(32).toString('hex'),
    DATABASE_URL: dbUrl.toString(),
    DATABASE_LOG_QUERIES: 'false',
    REDIS_PREFIX: redisPrefix,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    HOST: '127.0.0.1',
    ...envExtra,
  };
  try {
    const config = loadConfig(env);
    await migrate(config);
    const org = await runCli(['create-org', '--name', orgName], config);
    const startApi = async (logQueries, nodeArgs = []) => {
      const port = await freePort();
      const child = startChild([...nodeArgs, 'dist/src/main.js'], { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, DATABASE_LOG_QUERIES: String(logQueries) }, logQueries);
      children.push(child);
      const url = `http://127.0.0.1:${port}`;
      await waitFor(`${url}/health`, child, 'the API');
      return { child, url };
    };
    return { run, base, env, config, org, orgUuid: decodeId('organization', org.organization_id), dbUrl, scriptFile, children, startApi, cleanup, load0 };
  } catch (e) {
    await cleanup();
    throw e;
  }
}

module.exports = { ROOT, startChild, stopChild, freePort, waitFor, runAutocannon, dropBenchDb, dropRedisPrefix, fmt, loggedStatements, benchWorld };
