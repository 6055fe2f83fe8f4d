#!/usr/bin/env node
/* eslint-disable */
/**
 * Webhook delivery throughput: deliveries per second from the outbox to a local receiver, with
 * the worker at its default concurrency (WORKER_CONCURRENCY).
 *
 *   npm run build && node bench/webhooks.js [--events 20000] [--urls 1]
 *
 * A throw-away database (created and migrated here, dropped at the end) gets one organization,
 * `--urls` webhooks (each on its own URL of one receiver) and `--events` pending outbox events;
 * then the worker (the real worker module, in this process) is started and the clock runs until
 * every delivery is SUCCEEDED (the receiver's count is polled, then the database). The receiver runs in a child process (its own core), answers 200 and
 * checks nothing but counts; the relay, the BullMQ jobs, the signed POSTs and the attempt records
 * are all the production code paths. Reads DATABASE_URL / REDIS_URL like the app (defaults local).
 * Besides the worker's CPU per delivery it reports the receiver's, the PostgreSQL backends' of this
 * database and Redis's (see otherCpu): their sum is what one delivery costs the machine.
 */
require('reflect-metadata');
const { fork } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const path = require('node:path');

const dist = path.resolve(__dirname, '..', 'dist');
const { loadConfig } = require(path.join(dist, 'src/core/config/config'));
const { migrate } = require(path.join(dist, 'src/core/database/database'));
const { encrypt } = require(path.join(dist, 'src/core/crypto/crypto'));
const { createWorker } = require(path.join(dist, 'src/worker'));
const { Client } = require('pg');

function arg(name, def) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}

async function main() {
  if (process.argv.includes('--receiver')) return receiver();
  const EVENTS = arg('events', 20000);
  const URLS = arg('urls', 1);
  const base = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/course_platform');
  const dbName = `cp_bench_webhooks_${Date.now()}_${randomBytes(3).toString('hex')}`;
  base.pathname = `/${dbName}`;
  const config = loadConfig(process.env, {
    DATABASE_URL: base.toString(),
    REDIS_PREFIX: `cpbench_${randomBytes(4).toString('hex')}`,
    ALLOW_PRIVATE_URLS: true,
    LOG_LEVEL: 'silent',
    WEBHOOK_RELAY_INTERVAL_MS: 200,
  });
  const admin = new URL(base);
  admin.pathname = '/postgres';

  const rx = fork(__filename, ['--receiver'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((res) => rx.once('message', (m) => res(m.port)));
  let worker;
  const db = new Client({ connectionString: config.DATABASE_URL });
  try {
    await migrate(config);
    await db.connect();
    const [{ id: orgId }] = (await db.query(`INSERT INTO organizations (name) VALUES ('Bench webhooks') RETURNING id`)).rows;
    for (let u = 0; u < URLS; u++) {
      await db.query(`INSERT INTO webhooks (organization_id, target_url, secret) VALUES ($1, $2, $3)`, [
        orgId,
        `http://127.0.0.1:${port}/hook/${u}`,
        encrypt(config.APP_SECRET, 'whsec_' + randomBytes(24).toString('base64')),
      ]);
    }
    await db.query(
      `INSERT INTO outbox_events (organization_id, event_type, payload, created_at)
       SELECT $1, 'COURSE_ENROLLMENT',
              jsonb_build_object('id', 'evt_bench' || g, 'event_type', 'COURSE_ENROLLMENT', 'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'user', jsonb_build_object('id', 'stu_' || g, 'email', 'learner' || g || '@example.com', 'first_name', 'Ada', 'last_name', 'Lovelace'),
                'course', jsonb_build_object('id', 'crs_1', 'published_course_id', 'pcs_1', 'title', 'Benchmarks 101', 'url', 'https://d.test/bench'),
                'domain', jsonb_build_object('id', 'dom_1', 'name', 'd.test')),
              now() + g * interval '1 microsecond'
         FROM generate_series(1, $2) g`,
      [orgId, EVENTS],
    );
    await db.query('ANALYZE');
    const total = EVENTS * URLS;
    process.stdout.write(`webhooks bench: ${EVENTS} events x ${URLS} URL(s) = ${total} deliveries, WORKER_CONCURRENCY=${config.WORKER_CONCURRENCY}\n`);

    const redis0 = await redisCpuMs(config);
    const t0 = Date.now();
    const cpu0 = process.cpuUsage();
    worker = await createWorker(config);
    await worker.init();
    let done = 0;
    let firstAt = 0;
    let lastLog = t0;
    // the receiver's count is polled (no load on PostgreSQL); the database only once every POST has arrived
    const receivedCount = () =>
      new Promise((res) => {
        rx.once('message', (m) => res(m.count));
        rx.send('count');
      });
    while (done < total) {
      await new Promise((r) => setTimeout(r, 100));
      const got = await receivedCount();
      if (!firstAt && got > 0) firstAt = Date.now();
      done = got < total ? Math.min(got, total - 1) : (await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'SUCCEEDED'`)).rows[0].n;
      if (Date.now() - lastLog > 2000) {
        lastLog = Date.now();
        process.stdout.write(`  ${done}/${total} after ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
      }
      if (Date.now() - t0 > 600_000) throw new Error('bench did not finish within 10 minutes');
    }
    const endAt = Date.now();
    const cpu = process.cpuUsage(cpu0);
    const others = await otherCpu(db, dbName, rx, config);
    const elapsed = (endAt - t0) / 1000;
    const received = await receivedCount();
    const failed = (await db.query(`SELECT count(*)::int AS n FROM webhook_attempts WHERE http_status IS DISTINCT FROM 200`)).rows[0].n;
    const lat = (await db.query(`SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY latency_ms) AS p FROM webhook_attempts`)).rows[0].p;
    const load = require('node:os')
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    const result = {
      deliveries: total,
      received,
      failed_attempts: failed,
      seconds: Number(elapsed.toFixed(2)),
      deliveries_per_second: Math.round(total / elapsed),
      // from the first delivery to the last (leaves out the worker's start-up)
      steady_deliveries_per_second: Math.round(total / ((endAt - firstAt) / 1000)),
      first_delivery_after_ms: firstAt - t0,
      post_latency_ms_p50: lat[0],
      post_latency_ms_p99: lat[1],
      worker_concurrency: config.WORKER_CONCURRENCY,
      // CPU time of the worker process (user + system) per delivery: the rate one free core allows
      worker_cpu_ms_per_delivery: Number(((cpu.user + cpu.system) / 1000 / total).toFixed(3)),
      worker_cpu_bound_deliveries_per_second: Math.round(total / ((cpu.user + cpu.system) / 1e6)),
      // the rest of the work per delivery (see otherCpu): receiver, PostgreSQL backends of this database, Redis
      receiver_cpu_ms_per_delivery: Number((others.receiverMs / total).toFixed(3)),
      postgres_cpu_ms_per_delivery: Number((others.postgresMs / total).toFixed(3)),
      redis_cpu_ms_per_delivery: Number(((others.redisMs - redis0) / total).toFixed(3)),
      total_cpu_ms_per_delivery: Number(((cpu.user + cpu.system) / 1000 / total + (others.receiverMs + others.postgresMs + others.redisMs - redis0) / total).toFixed(3)),
      load_average: load,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    if (worker) await worker.close();
    await db.end().catch(() => undefined);
    rx.kill();
    await dropRedisKeys(config).catch(() => undefined);
    const c = new Client({ connectionString: admin.toString() });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await c.end();
  }
}

/**
 * CPU used by the other processes of a delivery: the receiver (its own process.cpuUsage), the
 * PostgreSQL backends connected to this run's database (utime + stime from /proc, read while they
 * are still connected; includes the bench's own polling, a few statements a second), and Redis
 * (INFO cpu, the whole server: other users of the same Redis count too).
 */
async function otherCpu(db, dbName, rx, config) {
  const receiverMs = await new Promise((res) => {
    rx.once('message', (m) => res(m.cpuMs));
    rx.send('cpu');
  });
  const fs = require('node:fs');
  const tick = 100; // USER_HZ
  const pids = (await db.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, [dbName])).rows.map((r) => r.pid);
  let postgresMs = 0;
  for (const pid of pids) {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      postgresMs += ((Number(f[11]) + Number(f[12])) * 1000) / tick;
    } catch {
      /* not readable here: left out */
    }
  }
  return { receiverMs, postgresMs, redisMs: await redisCpuMs(config) };
}

async function redisCpuMs(config) {
  const Redis = require('ioredis');
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
  try {
    const info = await redis.info('cpu');
    const v = (k) => Number((info.match(new RegExp(`${k}:([0-9.]+)`)) || [])[1] || 0);
    return (v('used_cpu_sys') + v('used_cpu_user')) * 1000;
  } finally {
    redis.disconnect();
  }
}

/** Remove this run's Redis keys (its own REDIS_PREFIX). */
async function dropRedisKeys(config) {
  const Redis = require('ioredis');
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.REDIS_PREFIX}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** The receiver process: 200 to every POST, counting them. */
function receiver() {
  const http = require('node:http');
  let count = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.keepAliveTimeout = 5000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('message', (m) => {
    if (m === 'count') process.send({ count });
    if (m === 'cpu') {
      const c = process.cpuUsage();
      process.send({ cpuMs: (c.user + c.system) / 1000 });
    }
  });
}

main().then(
  () => process.argv.includes('--receiver') || process.exit(0),
  (err) => {
    process.stderr.write(`${err && err.stack ? err.stack : err}\n`);
    process.exit(1);
  },
);
