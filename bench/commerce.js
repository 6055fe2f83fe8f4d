#!/usr/bin/env node
'use strict';
/**
 * Checkout under contention (issue 11): `--checkouts` (200) parallel POST /v1/purchases of ONE
 * offer, every one with ONE promo code whose max_uses (`--uses`, 150) is below the number of
 * checkouts, so some are refused (400 on promo_code). Each buyer is new (by email): a checkout
 * creates the user, the purchase, applies the discount and, since the code takes 100% off, the
 * price is 0 so the purchase succeeds at once: its use counts (conditional UPDATE, a use counts
 * per successful purchase since issue 25 item 5) and the course is granted, in one transaction.
 *
 *   npm run bench -- commerce
 *   npm run build && node bench/commerce.js [--checkouts 200] [--uses 150] [--json]
 *
 * Reports checkouts/s, latency p50/p99/max, lock waits (sampled from pg_locks every 5 ms while the
 * checkouts run: the most sessions seen waiting at once, and how many samples saw any), and the
 * final counts, which must match exactly: 201s = uses taken = purchases with the code, 400s =
 * checkouts - max_uses, no other answer. A mismatch exits 1.
 *
 * One run: a throw-away database `cp_bench_commerce_<random>` (created, migrated, dropped at the
 * end) and a unique REDIS_PREFIX; an organization made by the CLI's code; everything else through
 * the API (course, lesson, publication, price, pool, pool offer, code) against dist/ in production
 * mode.
 */
const { randomBytes } = require('node:crypto');
const os = require('node:os');
const path = require('node:path');
const { ROOT, startChild, stopChild, freePort, waitFor, dropBenchDb, dropRedisPrefix, fmt } = require('./lib');

function parseArgs(argv) {
  const o = { checkouts: 200, uses: 150, json: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--json') o.json = true;
    else if (argv[i] === '--checkouts') o.checkouts = Number(argv[++i]);
    else if (argv[i] === '--uses') o.uses = Number(argv[++i]);
  }
  return o;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { loadConfig } = require(path.join(ROOT, 'dist/src/core/config/config.js'));
  const { migrate } = require(path.join(ROOT, 'dist/src/core/database/database.js'));
  const { runCli } = require(path.join(ROOT, 'dist/src/cli.js'));
  const { decodeId } = require(path.join(ROOT, 'dist/src/core/ids/ids.js'));
  const { Client } = require('pg');

  const base = loadConfig(process.env);
  const run = randomBytes(4).toString('hex');
  const dbName = `cp_bench_commerce_${run}`;
  const dbUrl = new URL(base.DATABASE_URL);
  dbUrl.pathname = `/${dbName}`;
  const adminUrl = new URL(base.DATABASE_URL);
  adminUrl.pathname = '/postgres';
  const redisPrefix = `cpbench_${run}`;
  let child;
  const cleanup = async () => {
    await stopChild(child);
    await dropBenchDb(adminUrl.toString(), dbName).catch((e) => process.stderr.write(`could not drop ${dbName}: ${e.message}\n`));
    await dropRedisPrefix(base.REDIS_URL, redisPrefix).catch(() => undefined);
  };
  process.once('SIGINT', () => cleanup().then(() => process.exit(130)));

  let failed = false;
  try {
    const env = {
      ...process.env,
      NODE_ENV: 'production',
      APP_SECRET: randomBytes(32).toString('hex'),
      DATABASE_URL: dbUrl.toString(),
      DATABASE_LOG_QUERIES: 'false',
      REDIS_PREFIX: redisPrefix,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      HOST: '127.0.0.1',
      // 200 requests queue for the pool's connections at once: let them wait (the default 5 s would
      // turn the tail of the queue into 503s, which is the outage answer, not what is measured)
      DATABASE_CONNECT_TIMEOUT_MS: '60000',
    };
    const config = loadConfig(env);
    await migrate(config);
    const org = await runCli(['create-org', '--name', 'Bench Commerce Org'], config);
    const port = await freePort();
    child = startChild(['dist/src/main.js'], { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
    const url = `http://127.0.0.1:${port}`;
    await waitFor(`${url}/health`, child, 'the API');
    const auth = { authorization: `Basic ${Buffer.from(`${org.api_key}:`).toString('base64')}`, 'content-type': 'application/json' };
    const call = async (method, p, body) => {
      const res = await fetch(url + p, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const must = (r, what) => {
      if (r.status !== 200 && r.status !== 201) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`);
      return r.body;
    };
    const course = must(await call('POST', '/v1/courses', { title: 'Bench course', short_description: 'S', enforce_sequential_navigation: false }), 'course');
    must(await call('POST', '/v1/lessons', { course_id: course.id, order: 1, title: 'L', type: 'HTML' }), 'lesson');
    const pc = must(await call('POST', `/v1/domains/${org.domain_name}/published-courses`, { course: { id: course.id }, slug: 'bench' }), 'publish');
    const offer = pc.offer.id;
    must(await call('PATCH', `/v1/offers/${offer}`, { price_cents: 10000 }), 'price');
    const pool = must(await call('POST', '/v1/promo-code-pools', { name: 'Bench', starts_at: '2026-01-01T00:00:00Z', discount_type: 'PERCENT_OFF', percent_off: 100 }), 'pool');
    must(await call('POST', `/v1/promo-code-pools/${pool.id}/offers`, { id: offer }), 'pool offer');
    const code = must(await call('POST', '/v1/promo-codes', { code: 'BENCH20', max_uses: opts.uses, promo_code_pool_id: pool.id }), 'code');
    // warm the API (JIT, pools, auth cache) on another offer-less read
    for (let i = 0; i < 20; i++) await call('GET', `/v1/offers/${offer}`);

    const db = new Client({ connectionString: dbUrl.toString() });
    await db.connect();
    let sampling = true;
    let maxWaiting = 0;
    let samples = 0;
    let samplesWaiting = 0;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`);
        samples++;
        if (rows[0].n > 0) samplesWaiting++;
        maxWaiting = Math.max(maxWaiting, rows[0].n);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();

    const latencies = [];
    const statuses = new Map();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: opts.checkouts }, async (_, i) => {
        const s = performance.now();
        const r = await call('POST', '/v1/purchases', { user: { email: `buyer-${i}@bench.test`, first_name: 'B', last_name: String(i) }, offer_id: offer, promo_code: 'BENCH20' });
        latencies.push(performance.now() - s);
        const key = r.status === 400 ? `400 ${Object.keys(r.body ?? {}).join(',')}` : String(r.status);
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;
    sampling = false;
    await sampler;

    const orgUuid = decodeId('organization', org.organization_id);
    const counts = (
      await db.query(
        `SELECT (SELECT count(*)::int FROM purchases WHERE organization_id = $1) AS purchases,
                (SELECT count(*)::int FROM purchases WHERE organization_id = $1 AND promo_code = 'BENCH20') AS with_code,
                (SELECT use_count FROM promo_codes WHERE organization_id = $1 AND code = 'BENCH20') AS use_count,
                (SELECT count(*)::int FROM users WHERE organization_id = $1 AND email LIKE '%@bench.test') AS buyers`,
        [orgUuid],
      )
    ).rows[0];
    await db.end();
    latencies.sort((a, b) => a - b);
    const ok = statuses.get('201') ?? 0;
    const refused = statuses.get('400 promo_code') ?? 0;
    const expected = Math.min(opts.uses, opts.checkouts);
    const exact = ok === expected && refused === opts.checkouts - expected && ok + refused === opts.checkouts && counts.purchases === ok && counts.with_code === ok && counts.use_count === ok;
    if (!exact) failed = true;
    const report = {
      checkouts: opts.checkouts,
      max_uses: opts.uses,
      seconds: Number(elapsed.toFixed(3)),
      checkouts_per_s: Number((opts.checkouts / elapsed).toFixed(1)),
      latency_ms: { p50: Number(pct(latencies, 50).toFixed(1)), p99: Number(pct(latencies, 99).toFixed(1)), max: Number(latencies[latencies.length - 1].toFixed(1)) },
      lock_waits: { max_waiting_at_once: maxWaiting, samples_with_waiters: samplesWaiting, samples },
      answers: Object.fromEntries(statuses),
      final: { ...counts, code_id: code.id },
      counts_match: exact,
      cpus: os.cpus().length,
    };
    if (opts.json) process.stdout.write(JSON.stringify(report) + '\n');
    else {
      process.stdout.write(
        `${opts.checkouts} parallel checkouts of one offer with one promo code (max_uses ${opts.uses}):\n` +
          `  ${fmt(report.checkouts_per_s, 1)} checkouts/s over ${report.seconds} s; latency p50 ${report.latency_ms.p50} ms, p99 ${report.latency_ms.p99} ms, max ${report.latency_ms.max} ms\n` +
          `  lock waits: at most ${maxWaiting} sessions waiting at once; ${samplesWaiting} of ${samples} samples saw a waiter\n` +
          `  answers: ${[...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')}\n` +
          `  final: ${counts.purchases} purchases, ${counts.with_code} with the code, use_count ${counts.use_count}, ${counts.buyers} buyers created -> ${exact ? 'counts match' : 'MISMATCH'}\n`,
      );
    }
  } catch (e) {
    failed = true;
    process.stderr.write(`${e.stack ?? e}\n`);
  } finally {
    await cleanup();
  }
  process.exit(failed ? 1 : 0);
}

main();
