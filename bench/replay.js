#!/usr/bin/env node
'use strict';
/**
 * The frame of the read scenarios measured against a bare server that REPLAYS the API's own
 * statements (bench/v1-catalog.js, bench/v2-reads.js): not a scenario itself (bench/run.js skips it).
 *
 * runReplayScenario(spec) does, for one run:
 *  1. a throw-away database `cp_bench_<spec.db>_<random>` (created, migrated, dropped at the end) and
 *     a unique REDIS_PREFIX; an organization made by the CLI's code; `spec.fixtures(db, ctx)` writes
 *     the rows with SQL (then VACUUM ANALYZE) and answers the reads: [{ key, name, path }];
 *  2. SQL statements per request: an API child with DATABASE_LOG_QUERIES=true; each read once to warm
 *     up (a token's verification is cached after it), then once more, the statements written meanwhile
 *     counted AND kept, with their parameters, as the bare server's script (`spec.check(body, read)`
 *     may refuse an answer);
 *  3. throughput: the API (dist/, NODE_ENV=production, LOG_LEVEL=warn, no query logging) and, in
 *     another child process (`node bench/replay.js --serve-bare PORT`), a bare Fastify + pg Pool of the
 *     same size that replays the script of the read one statement after another and answers every
 *     row of every statement as JSON: no auth, no validation, no presentation.
 * `spec.auth(url, org)` gives the headers a read is sent with (an API key, or a token from that API
 * child). Every answer must be 200: anything else is reported and the exit code is 1.
 */
const fs = require('node:fs');
const os = require('node:os');

const { startChild, stopChild, freePort, waitFor, runAutocannon, fmt, loggedStatements, benchWorld } = require('./lib');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const norm = (sql) => sql.replace(/\s+/g, ' ').trim();

/** The bare server (env BARE_DATABASE_URL, BARE_POOL_SIZE, BARE_SCRIPT: a JSON file of statements per read key). */
async function serveBare(port) {
  const { Pool } = require('pg');
  const pool = new Pool({ connectionString: process.env.BARE_DATABASE_URL, max: Number(process.env.BARE_POOL_SIZE) });
  const script = JSON.parse(fs.readFileSync(process.env.BARE_SCRIPT, 'utf8'));
  const app = require('fastify')({ logger: false });
  app.get('/read/:key', async (req, reply) => {
    const statements = script[req.params.key];
    if (!statements) return reply.code(404).send({ detail: 'Not found.' });
    const results = [];
    for (const s of statements) results.push((await pool.query(s.sql, s.params)).rows);
    return { results };
  });
  app.get('/', async () => ({ ok: true }));
  await app.listen({ port, host: '127.0.0.1' });
}

/** The common flags: --duration/--seconds, --connections, --json; `extra(flag, next)` takes the scenario's own (answers false for an unknown one). */
function parseArgs(argv, defaults, extra = () => false) {
  const opts = { duration: Number(process.env.BENCH_SECONDS ?? process.env.BENCH_DURATION ?? 3), json: false, ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--duration' || a === '--seconds') opts.duration = Number(argv[++i]);
    else if (a === '--connections') opts.connections = Number(argv[++i]);
    else if (a === '--json') opts.json = true;
    else if (!extra(a, () => argv[++i], opts)) throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

async function runReplayScenario(spec) {
  const opts = spec.opts;
  const { Client } = require('pg');
  const world = await benchWorld(spec.db, spec.orgName);
  const { config, org, orgUuid: orgId, dbUrl, scriptFile, children, cleanup, load0 } = world;
  let failed = false;
  try {
    // --- 1. fixtures ---------------------------------------------------------------------------
    const t0 = Date.now();
    const db = new Client({ connectionString: dbUrl.toString() });
    await db.connect();
    const [{ id: domainId }] = (await db.query(`SELECT id FROM domains WHERE name = $1 AND organization_id = $2`, [org.domain_name, orgId])).rows;
    const { reads, summary } = await spec.fixtures(db, { org, orgId, domainId });
    await db.end();
    process.stdout.write(`fixtures in ${((Date.now() - t0) / 1000).toFixed(1)} s${summary ? ` (${summary})` : ''}\n`);

    const startApi = async (logQueries) => {
      const api = await world.startApi(logQueries);
      return { ...api, auth: await spec.auth(api.url, org) };
    };
    const get = async (url, p, headers = {}) => {
      const res = await fetch(url + p, { headers });
      return { status: res.status, body: await res.json() };
    };

    // --- 2. SQL statements per request, kept as the bare server's script --------------------------
    const api0 = await startApi(true);
    const script = {};
    const sqlCounts = {};
    process.stdout.write('\nSQL statements per request (API with DATABASE_LOG_QUERIES=true):\n');
    for (const r of reads) {
      await get(api0.url, r.path, api0.auth);
      await sleep(300);
      const before = api0.child.output.length;
      const res = await get(api0.url, r.path, api0.auth);
      await sleep(300);
      // the client-state read of the authentication cache (AUTH_CACHE_SECONDS, 5 s by default) is not
      // the read's SQL: when the cache lapses during the recording it is left out of the bare script
      const statements = loggedStatements(api0.child.output.slice(before)).filter((s) => !s.sql.includes('/* unscoped: the client of a verified token'));
      if (res.status !== 200 || statements.some((s) => s.failed)) throw new Error(`${r.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      script[r.key] = statements.map(({ sql, params }) => ({ sql, params }));
      sqlCounts[r.key] = statements.length;
      process.stdout.write(`  ${r.name}: ${statements.length} statement(s), ${spec.check(res.body, r)}\n`);
      for (const s of statements) process.stdout.write(`      ${norm(s.sql).slice(0, 110)}${norm(s.sql).length > 110 ? ' ...' : ''}\n`);
    }
    fs.writeFileSync(scriptFile, JSON.stringify(script));
    await stopChild(api0.child);

    // --- 3. throughput -------------------------------------------------------------------------
    const api = await startApi(false);
    const barePort = await freePort();
    const bare = startChild([__filename, '--serve-bare', String(barePort)], {
      ...process.env,
      BARE_DATABASE_URL: dbUrl.toString(),
      BARE_POOL_SIZE: String(config.DATABASE_POOL_SIZE),
      BARE_SCRIPT: scriptFile,
    });
    children.push(bare);
    await waitFor(`http://127.0.0.1:${barePort}/`, bare, 'the bare server');
    const bareUrl = `http://127.0.0.1:${barePort}`;
    process.stdout.write(
      `\nNode ${process.version}, pool ${config.DATABASE_POOL_SIZE} connections each, ${opts.connections} connections, load average at start ${load0.map((l) => l.toFixed(2)).join(' ')}\n\n`,
    );

    const measure = async (o) => {
      const r = await runAutocannon(o);
      const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([c, v]) => [c, v.count]));
      if (Object.keys(statuses).some((c) => c !== '200') || r.errors || r.timeouts) failed = true;
      return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, cpuUs: r.cpu?.usPerRequest, eventLoop: r.eventLoop ?? undefined, statuses };
    };
    const results = [];
    for (const r of reads) {
      const row = { name: r.name, sql: sqlCounts[r.key] };
      for (const target of ['api', 'bare']) {
        const o = (duration) => ({ url: target === 'api' ? api.url + r.path : `${bareUrl}/read/${r.key}`, connections: opts.connections, duration, headers: target === 'api' ? api.auth : {} });
        await runAutocannon(o(1));
        row[target] = await measure(o(opts.duration));
      }
      results.push(row);
    }

    process.stdout.write(
      '| read | API req/s | bare req/s | ratio | API p50 / p99 ms | bare p50 / p99 ms | server CPU us/request API / bare | SQL statements per request |\n' +
        '|---|---:|---:|---:|---:|---:|---:|---:|\n',
    );
    for (const r of results) {
      process.stdout.write(
        `| ${r.name} | ${fmt(r.api.rps)} | ${fmt(r.bare.rps)} | ${(r.api.rps / r.bare.rps).toFixed(2)}x | ${r.api.p50} / ${r.api.p99} | ${r.bare.p50} / ${r.bare.p99} | ${r.api.cpuUs ?? '-'} / ${r.bare.cpuUs ?? '-'} | ${r.sql} |\n`,
      );
      for (const t of ['api', 'bare']) if (Object.keys(r[t].statuses).some((c) => c !== '200')) process.stdout.write(`  ${t}: statuses ${JSON.stringify(r[t].statuses)}\n`);
    }
    process.stdout.write(
      `\nload average at end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n`,
    );
    if (opts.json) process.stdout.write(`${JSON.stringify({ results })}\n`);
  } finally {
    await cleanup();
  }
  if (failed) {
    process.stderr.write('some answers were not 200\n');
    process.exitCode = 1;
  }
}

/** Run a scenario's main, exiting 1 on a throw. */
function main(fn) {
  fn().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

if (require.main === module && process.argv[2] === '--serve-bare') main(() => serveBare(Number(process.argv[3])));

module.exports = { runReplayScenario, parseArgs, main };
