#!/usr/bin/env node
/* eslint-disable */
'use strict';
/**
 * Cost at scale: the same reads and writes on a large organization and on one 100 times smaller,
 * through the real API, against a bare Fastify + pg server replaying the API's own statements on the
 * large world, with the EXPLAIN (ANALYZE, BUFFERS) of every statement on the large world and a check
 * that no statement scans a large table sequentially.
 *
 *   npm run bench -- scale                                   both worlds at scale 1 (1,000,000 and 10,000 learners)
 *   BENCH_SCALE=0.1 npm run bench -- scale                   both worlds at 1/10 (100,000 and 1,000 learners)
 *   npm run build && node bench/scale.js [--scale 0.01] [--world both|large|small] [--reseed] [--explain-only]
 *                                        [--only students] [--duration 3] [--connections 20] [--json]
 *   BENCH_SCALE_RESEED=1 (or --reseed)                       seed the worlds again (drop the cached templates first)
 *
 * The worlds (bench/scale/seed.js): seeded once into a template database cp_bench_scale_v<seed
 * version>_<learners>u (kept, its organization's credentials in the database comment), reused by
 * every later run (pending migrations, e.g. a new index, are applied to the template first). Each
 * run works on a copy (CREATE DATABASE ... TEMPLATE, dropped at the end), so that its writes never
 * change the cached world. Drop a template by hand to reclaim its disk: `DROP DATABASE cp_bench_scale_v2_1000000u`.
 *
 * Per world:
 *  1. SQL statements per request: an API child with DATABASE_LOG_QUERIES=true, every scenario once to
 *     warm up, then once more with its statements kept (the bare server's script);
 *  2. EXPLAIN (ANALYZE, BUFFERS) of every statement (a write inside BEGIN ... ROLLBACK; a statement
 *     that cannot run again as recorded, e.g. an INSERT of rows that now exist, gets a plain EXPLAIN),
 *     printed for the large world, and a check: any Seq Scan over a table of more than 10,000 rows
 *     is flagged (exit code 1);
 *  3. latency and throughput: autocannon against the API (p50 / p99), and on the large world against
 *     the bare server, which replays the recorded statements of the scenario on one pooled
 *     connection (transaction statements included; a batch create with fresh e-mail addresses and
 *     ids per request). The course completion consumes one learner per request (a bounded number of
 *     requests, not seconds) and has no bare run (bench/progress.js has its bare ratio).
 * The last line is the JSON document bench/run.js reads: a row per scenario with the large world's
 * API and bare figures, plus `small` (the small world's API figures) and `scale_ratio_p50/p99`.
 */
const { randomBytes, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ROOT, startChild, stopChild, freePort, waitFor, runAutocannon, dropBenchDb, dropRedisPrefix, fmt, loggedStatements } = require('./lib');
const { parseArgs, main } = require('./replay');
const { ensureTemplate, sizes: sizesOf } = require('./scale/seed');

const LARGE_TABLE_ROWS = 10_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const norm = (sql) => sql.replace(/\s+/g, ' ').trim();
const TX = /^\s*(START TRANSACTION|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i;
/** a generated id (bench/scale/seed.js sid) */
const sid = (t, n) => `${t.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const T = { users: 1, courses: 3, lessons: 4, published: 5, enrollments: 6, lessonProgress: 8, statements: 9, groups: 10 };
const LESSONS_PER_COURSE = 7;

// ---------------------------------------------------------------------------------------------
// The bare server: `node bench/scale.js --serve-bare PORT` (env BARE_DATABASE_URL, BARE_POOL_SIZE, BARE_SCRIPT)
// ---------------------------------------------------------------------------------------------

async function serveBare(port) {
  const { Pool } = require('pg');
  const pool = new Pool({ connectionString: process.env.BARE_DATABASE_URL, max: Number(process.env.BARE_POOL_SIZE) });
  const script = JSON.parse(fs.readFileSync(process.env.BARE_SCRIPT, 'utf8'));
  const app = require('fastify')({ logger: false, bodyLimit: 4 * 1024 * 1024 });
  let seq = 0;
  const handler = async (req, reply) => {
    const s = script[req.params.key];
    if (!s) return reply.code(404).send({ detail: 'Not found.' });
    let statements = s.statements;
    if (s.rotate) {
      // a batch update: the recorded students replaced by the next block of students (as the API run does)
      const block = s.rotate.blocks[seq++ % s.rotate.blocks.length];
      let text = JSON.stringify(statements);
      s.rotate.from.forEach((id, i) => (text = text.split(id).join(block[i])));
      statements = JSON.parse(text);
    }
    if (s.fresh) {
      // a batch create: the recorded e-mail marker and the recorded new ids, fresh per request
      const n = ++seq;
      let text = JSON.stringify(statements).split(s.fresh.marker).join(`${s.fresh.marker}b${process.pid}x${n}`);
      for (const id of s.fresh.ids) text = text.split(id).join(randomUUID());
      statements = JSON.parse(text);
    }
    const client = await pool.connect();
    const results = [];
    try {
      for (const st of statements) results.push((await client.query(st.sql, st.params)).rows);
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
    return { results };
  };
  app.route({ method: ['GET', 'POST', 'PATCH', 'PUT'], url: '/run/:key', handler });
  app.get('/', async () => ({ ok: true }));
  await app.listen({ port, host: '127.0.0.1' });
}

// ---------------------------------------------------------------------------------------------
// The scenarios of a world
// ---------------------------------------------------------------------------------------------

function scenarios(s, w) {
  const { encodeId } = require(path.join(ROOT, 'dist/src/core/ids/ids.js'));
  const mid = (count) => Math.floor(count / 2);
  const student = (u) => encodeId('student', sid(T.users, u));
  const page = 'page%5Bsize%5D=100';
  const u = mid(s.users);
  const course = mid(s.courses);
  const agent = encodeURIComponent(JSON.stringify({ mbox: `mailto:learner${u}@scale.example` }));
  const activity = encodeURIComponent(`https://scale.example/activities/${mid(s.activities)}`);
  // two of the 20 domains of the course (published course p = 4 course + j on domain p % 20)
  const domains = [0, 1].map((j) => w.domainNames[(4 * course + j) % 20]).join(',');
  const lists = [
    ['students', 'students', T.users, 'users', s.users, 'student'],
    ['enrollments', 'enrollments', T.enrollments, 'enrollments', s.enrollments, 'enrollment'],
    ['courses', 'courses', T.courses, 'courses', s.courses, 'course'],
    ['published', 'published-courses', T.published, 'published_courses', s.publishedCourses, 'publishedCourse'],
    ['groups', 'groups', T.groups, 'groups', s.groups, 'group'],
    ['lesson-progress', 'lesson-progress', T.lessonProgress, 'lesson_progress', null, 'lessonProgress'],
  ];
  const list = [];
  for (const [key, route, t, table, count, type] of lists) {
    list.push({ key, name: `GET /v2/${route}/?page[size]=100`, path: `/v2/${route}/?${page}` });
    list.push({
      key: `${key}-deep`,
      name: `GET /v2/${route}/?page[size]=100, page[cursor] halfway`,
      path: `/v2/${route}/?${page}`,
      deep: { table, t, n: count === null ? mid(s.enrollments) * LESSONS_PER_COURSE : mid(count) },
    });
    if (count !== null) list.push({ key: `${key}-id`, name: `GET /v2/${route}/{id}`, path: `/v2/${route}/${encodeId(type, sid(t, mid(count)))}` });
  }
  list.push(
    { key: 'students-email', name: 'GET /v2/students/?filter[email]=...', path: `/v2/students/?filter%5Bemail%5D=${encodeURIComponent(`Learner${u}@scale.example`)}` },
    { key: 'students-updated', name: 'GET /v2/students/?filter[updated_since]=...&page[size]=100', path: `/v2/students/?${page}&filter%5Bupdated_since%5D=2026-05-31T00:00:00Z` },
    { key: 'students-inactive', name: 'GET /v2/students/?filter[is_inactive]=true&page[size]=100', path: `/v2/students/?${page}&filter%5Bis_inactive%5D=true` },
    { key: 'enrollments-status', name: 'GET /v2/enrollments/?filter[progress_status]=completed&page[size]=100', path: `/v2/enrollments/?${page}&filter%5Bprogress_status%5D=completed` },
    { key: 'enrollments-student', name: 'GET /v2/enrollments/?filter[student.email]=...', path: `/v2/enrollments/?filter%5Bstudent.email%5D=${encodeURIComponent(`learner${u}@scale.example`)}` },
    {
      key: 'analytics',
      name: 'GET /v2/analytics/courses/{id}?filter[domains]=(2 of 20)',
      path: `/v2/analytics/courses/${encodeId('course', sid(T.courses, course))}?filter%5Bdomains%5D=${encodeURIComponent(domains)}`,
    },
    { key: 'learner-courses', name: "GET /v1/users/{id}/published-courses (a learner's courses with progress)", path: `/v1/users/${student(u)}/published-courses?page_size=100` },
    { key: 'catalog', name: 'catalog search (search=kubernetes security)', path: `/v1/domains/${w.domainName}/published-courses?search=kubernetes%20security`, auth: 'basic' },
    { key: 'catalog-rare', name: 'catalog search, one rare term', path: `/v1/domains/${w.domainName}/published-courses?search=${mid(s.courses)}`, auth: 'basic' },
    { key: 'xapi-agent', name: 'GET /xapi/statements?agent=', path: `/xapi/statements?agent=${agent}`, auth: 'lrs' },
    { key: 'xapi-activity', name: 'GET /xapi/statements?activity=', path: `/xapi/statements?activity=${activity}`, auth: 'lrs' },
    { key: 'xapi-since', name: 'GET /xapi/statements?since= (the last 1%)', path: `/xapi/statements?since=${encodeURIComponent(w.since)}`, auth: 'lrs' },
    {
      key: 'xapi-agent-since',
      name: 'GET /xapi/statements?agent=&activity=&since=',
      path: `/xapi/statements?agent=${agent}&activity=${encodeURIComponent(`https://scale.example/activities/${u % s.activities}`)}&since=2024-01-01T00:00:00Z`,
      auth: 'lrs',
    },
  );
  // writes
  const createBody = (prefix, n) =>
    JSON.stringify({ data: Array.from({ length: 100 }, (_, i) => ({ type: 'students', attributes: { email: `${prefix}-${n}-${i}@bench.test`, first_name: `First${i}`, last_name: `Last${n}` } })) });
  // 100 existing learners per request, block n of up to 50 blocks from the second quarter of the table (no two requests in flight on the same rows)
  const blockCount = Math.min(50, Math.floor(s.users / 2 / 100));
  const blockOf = (n) => Array.from({ length: 100 }, (_, i) => Math.floor(s.users / 4) + (n % blockCount) * 100 + i);
  const updateBody = (n) => JSON.stringify({ data: blockOf(n).map((k, i) => ({ type: 'students', id: student(k), attributes: { first_name: `Renamed${i}`, last_name: `Scale${n}` } })) });
  // learner k of the second half: enrollment 3k + 1 has 6 of 7 lessons completed and the 7th viewed (bench/scale/seed.js)
  const completing = (k) => encodeId('lessonProgress', sid(T.lessonProgress, (3 * k + 1) * LESSONS_PER_COURSE + 6));
  const learners = Math.max(0, s.users - u - 1);
  list.push(
    { key: 'create', name: 'POST /v2/students/ (100 items)', method: 'POST', write: true, body: (n) => createBody(`zzrec${w.run}zz`, n), fresh: `zzrec${w.run}zz` },
    {
      key: 'update',
      name: 'PATCH /v2/students/ (100 items)',
      method: 'PATCH',
      write: true,
      path: '/v2/students/',
      body: (n) => updateBody(n),
      rotate: (n) => ({ from: blockOf(n).map((k) => sid(T.users, k)), blocks: Array.from({ length: blockCount }, (_, b) => blockOf(b).map((k) => sid(T.users, k))) }),
    },
    {
      key: 'complete',
      name: 'PUT /v1/lesson-progress/{id} (completes a course)',
      method: 'PUT',
      write: true,
      pathOf: (n) => `/v1/lesson-progress/${completing(u + n)}`,
      body: () => JSON.stringify({ completed_at: '2026-06-01T00:00:00Z' }),
      consumes: learners,
      noBare: true,
    },
  );
  for (const sc of list) if (sc.key === 'create') sc.path = '/v2/students/';
  return list;
}

// ---------------------------------------------------------------------------------------------
// One world
// ---------------------------------------------------------------------------------------------

async function runWorld(label, scale, opts) {
  const { Client } = require('pg');
  const { loadConfig } = require(path.join(ROOT, 'dist/src/core/config/config.js'));
  const { signPayload } = require(path.join(ROOT, 'dist/src/core/crypto/crypto.js'));
  const out = (t) => process.stdout.write(t);
  out(`\n=== ${label} world (scale ${scale}) ===\n`);
  const tpl = await ensureTemplate({ scale, reseed: opts.reseed, log: out });
  const s = tpl.sizes;
  const base = loadConfig(process.env);
  const run = randomBytes(4).toString('hex');
  // --in-place: the template itself (no copy: for an EXPLAIN-only look at a large world when disk is short; its few writes stay)
  const dbName = opts.inPlace ? tpl.name : `cp_bench_scale_run_${run}`;
  const urlOf = (db) => {
    const x = new URL(base.DATABASE_URL);
    x.pathname = `/${db}`;
    return x.toString();
  };
  const admin = new Client({ connectionString: urlOf('postgres') });
  await admin.connect();
  const t0 = Date.now();
  if (!opts.inPlace) {
    // FILE_COPY (a checkpoint, then the files) for a large template; WAL_LOG (no checkpoint) for a small one
    const { rows: sz } = await admin.query(`SELECT pg_database_size($1)::bigint AS b FROM pg_database WHERE datname = $1`, [tpl.name]);
    await admin.query(`CREATE DATABASE "${dbName}" TEMPLATE "${tpl.name}" STRATEGY ${Number(sz[0].b) > 2 ** 30 ? 'FILE_COPY' : 'WAL_LOG'}`);
  }
  await admin.end();
  const copySeconds = (Date.now() - t0) / 1000;
  out(opts.inPlace ? `in place: ${dbName}\n` : `copy of the template for this run: ${dbName} in ${copySeconds.toFixed(1)} s\n`);
  const redisPrefix = `cpbench_${run}`;
  const scriptFile = path.join(os.tmpdir(), `cp-bench-scale-${run}.json`);
  const children = [];
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    APP_SECRET: tpl.meta.appSecret,
    DATABASE_URL: urlOf(dbName),
    DATABASE_LOG_QUERIES: 'false',
    REDIS_PREFIX: redisPrefix,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    HOST: '127.0.0.1',
  };
  const config = loadConfig(env);
  const db = new Client({ connectionString: urlOf(dbName) });
  await db.connect();
  const result = {
    label,
    scale,
    sizes: s,
    template: { name: tpl.name, size: tpl.meta.size, seedSeconds: tpl.meta.seedSeconds, reused: tpl.reused },
    copySeconds,
    rows: [],
    plans: [],
    seqScans: [],
    buffers: {},
  };
  let failed = false;
  try {
    const org = tpl.meta.org;
    const orgId = org.orgId;
    const { rows: doms } = await db.query(`SELECT name FROM domains WHERE organization_id = $1 ORDER BY created_at, id`, [orgId]);
    const { rows: since } = await db.query(`SELECT stored FROM lrs_statements WHERE organization_id = $1 AND seq = $2`, [orgId, Math.floor(s.statements * 0.99)]);
    const w = { run, domainName: org.domain_name, domainNames: doms.map((d) => d.name), since: new Date(since[0].stored).toISOString() };
    const list = scenarios(s, w).filter((sc) => !opts.only || sc.key.startsWith(opts.only));

    const startApi = async (logQueries) => {
      const port = await freePort();
      const child = startChild(['dist/src/main.js'], { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, DATABASE_LOG_QUERIES: String(logQueries) }, logQueries);
      children.push(child);
      const url = `http://127.0.0.1:${port}`;
      await waitFor(`${url}/health`, child, 'the API');
      const tok = await fetch(`${url}/v2/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: org.client_id, client_secret: org.client_secret }),
      });
      const body = await tok.json();
      if (tok.status !== 200) throw new Error(`token request failed: ${tok.status} ${JSON.stringify(body)}`);
      return { child, url, bearer: `Bearer ${body.access_token}` };
    };
    const api0 = await startApi(true);
    // an LRS key of the organization (the run's copy)
    const keyRes = await fetch(`${api0.url}/v1/lrs-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${org.api_key}:`).toString('base64')}` },
      body: '{}',
    });
    if (keyRes.status !== 201) throw new Error(`POST /v1/lrs-keys answered ${keyRes.status}`);
    const lrsKey = await keyRes.json();
    const headersOf = (sc, api) => ({
      ...(sc.body ? { 'content-type': 'application/json' } : {}),
      ...(sc.auth === 'lrs'
        ? { authorization: `Basic ${Buffer.from(`${lrsKey.key}:${lrsKey.secret}`).toString('base64')}`, 'x-experience-api-version': '1.0.3' }
        : sc.auth === 'basic'
          ? { authorization: `Basic ${Buffer.from(`${org.api_key}:`).toString('base64')}` }
          : { authorization: api.bearer }),
    });
    const call = async (api, sc, n) => {
      const res = await fetch(api.url + (sc.pathOf ? sc.pathOf(n) : sc.path), { method: sc.method ?? 'GET', headers: headersOf(sc, api), body: sc.body ? sc.body(n) : undefined });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };

    // deep cursors: the first page's cursor, moved to the row halfway through the table (signed with the world's secret)
    for (const sc of list.filter((x) => x.deep)) {
      const first = await call(api0, sc, 0);
      const next = first.body?.links?.next;
      const cursor = first.body?.next_cursor ?? (next ? new URL(next).searchParams.get('page[cursor]') : null);
      if (!cursor) throw new Error(`${sc.path}: no next page (${first.status}: ${JSON.stringify(first.body).slice(0, 300)})`);
      const payload = JSON.parse(Buffer.from(cursor.slice(0, cursor.lastIndexOf('.')), 'base64url').toString());
      const { rows } = await db.query(`SELECT created_at FROM ${sc.deep.table} WHERE id = $1`, [sid(sc.deep.t, sc.deep.n)]);
      const deep = signPayload(tpl.meta.appSecret, 'cursor', { ...payload, t: new Date(rows[0].created_at).toISOString(), id: sid(sc.deep.t, sc.deep.n) });
      sc.path = `${sc.path}&page%5Bcursor%5D=${encodeURIComponent(deep)}`;
    }

    // --- 1. statements per request ----------------------------------------------------------------
    out('\nSQL statements per request (API with DATABASE_LOG_QUERIES=true):\n');
    const script = {};
    // in place, the recorded writes take learners no earlier run took
    let writeN = opts.inPlace ? 2000 + Math.floor(Math.random() * 10_000) : 0;
    for (const sc of list) {
      const warm = await call(api0, sc, writeN++);
      await sleep(200);
      const before = api0.child.output.length;
      const n = writeN++;
      const res = await call(api0, sc, n);
      await sleep(300);
      const statements = loggedStatements(api0.child.output.slice(before)).filter((x) => !x.sql.includes('/* unscoped: the client of a verified token'));
      if (warm.status >= 300 || res.status >= 300 || statements.some((x) => x.failed)) {
        throw new Error(`${sc.name}: ${warm.status} / ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
      }
      const size = Array.isArray(res.body) ? res.body.length : Array.isArray(res.body?.data) ? res.body.data.length : Array.isArray(res.body?.statements) ? res.body.statements.length : 1;
      script[sc.key] = { statements: statements.map(({ sql, params }) => ({ sql, params })) };
      if (sc.rotate) script[sc.key].rotate = sc.rotate(n);
      if (sc.fresh) {
        const { decodeId } = require(path.join(ROOT, 'dist/src/core/ids/ids.js'));
        script[sc.key].fresh = { marker: sc.fresh, ids: (res.body.data ?? []).map((d) => decodeId('student', d.id)).filter(Boolean) };
      }
      sc.sql = statements.length;
      sc.answer = `${res.status}, ${size} object(s)`;
      out(`  ${sc.name}: ${statements.length} statement(s), ${sc.answer}\n`);
      for (const x of statements) out(`      ${norm(x.sql).slice(0, 140)}${norm(x.sql).length > 140 ? ' ...' : ''}\n`);
    }
    fs.writeFileSync(scriptFile, JSON.stringify(script));
    await stopChild(api0.child);

    // --- 2. plans ------------------------------------------------------------------------------------
    const { rows: rel } = await db.query(`SELECT relname, reltuples::bigint AS n FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace`);
    const tuples = Object.fromEntries(rel.map((r) => [r.relname, Number(r.n)]));
    const seen = new Set();
    for (const sc of list) {
      for (const st of script[sc.key].statements) {
        if (TX.test(st.sql) || /^\s*SET\b/i.test(st.sql)) continue;
        const k = `${norm(st.sql)} ${JSON.stringify(st.params)}`;
        if (seen.has(k) && !sc.write) continue;
        seen.add(k);
        let plan;
        let executed = true;
        await db.query('BEGIN');
        try {
          plan = (await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${st.sql}`, st.params)).rows.map((r) => r['QUERY PLAN']).join('\n');
          await db.query('ROLLBACK');
        } catch (e) {
          await db.query('ROLLBACK');
          executed = false;
          plan = `(not executed: ${e.message})\n${(await db.query(`EXPLAIN ${st.sql}`, st.params).catch((e2) => ({ rows: [{ 'QUERY PLAN': `EXPLAIN failed: ${e2.message}` }] }))).rows.map((r) => r['QUERY PLAN']).join('\n')}`;
        }
        const scans = [...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]).filter((t) => (tuples[t] ?? 0) > LARGE_TABLE_ROWS);
        // the pages the statement touched: the root node's Buffers line (the first one, before Planning)
        const root = /Buffers: shared((?: \w+=\d+)+)/.exec(plan.split('\nPlanning')[0]);
        const buffers = root ? [...root[1].matchAll(/(hit|read)=(\d+)/g)].reduce((a, m) => a + Number(m[2]), 0) : 0;
        result.buffers[sc.key] = (result.buffers[sc.key] ?? 0) + buffers;
        result.plans.push({ scenario: sc.key, sql: norm(st.sql), executed, plan, seqScans: scans, buffers });
        for (const t of scans) result.seqScans.push({ scenario: sc.key, table: t, rows: tuples[t], sql: norm(st.sql).slice(0, 200) });
      }
    }
    if (opts.printPlans) {
      out(`\nEXPLAIN (ANALYZE, BUFFERS) of every statement on the ${label} world (${result.plans.length} distinct):\n`);
      for (const p of result.plans) out(`\n-- [${p.scenario}] ${p.sql.slice(0, 300)}${p.sql.length > 300 ? ' ...' : ''}\n${p.plan}\n`);
    }
    out(
      `\nsequential scans over a table of more than ${fmt(LARGE_TABLE_ROWS)} rows on the ${label} world: ${
        result.seqScans.length ? `\n${result.seqScans.map((x) => `  FLAGGED [${x.scenario}] Seq Scan on ${x.table} (${fmt(x.rows)} rows): ${x.sql}`).join('\n')}` : 'none'
      }\n`,
    );
    if (opts.explainOnly) return result;

    // --- 3. latency and throughput ------------------------------------------------------------------
    const api = await startApi(false);
    let bareUrl = null;
    if (opts.bare) {
      const barePort = await freePort();
      const bare = startChild([__filename, '--serve-bare', String(barePort)], {
        ...process.env,
        BARE_DATABASE_URL: urlOf(dbName),
        BARE_POOL_SIZE: String(config.DATABASE_POOL_SIZE),
        BARE_SCRIPT: scriptFile,
      });
      children.push(bare);
      bareUrl = `http://127.0.0.1:${barePort}`;
      await waitFor(`${bareUrl}/`, bare, 'the bare server');
    }
    const measure = async (o) => {
      const r = await runAutocannon(o);
      const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([c, v]) => [c, v.count]));
      if (Object.keys(statuses).some((c) => !/^2/.test(c)) || r.errors || r.timeouts) failed = true;
      return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, cpuUs: r.cpu?.usPerRequest, eventLoop: r.eventLoop ?? undefined, statuses };
    };
    let consumed = opts.inPlace ? writeN + 100 : 1000; // learners used by the recording above: the measured ones start after them
    let phase = 0; // fresh e-mail addresses per run of a batch create
    for (const sc of list) {
      const row = { key: sc.key, name: sc.name, sql: sc.sql };
      for (const target of ['api', ...(bareUrl && !sc.noBare ? ['bare'] : [])]) {
        const headers = target === 'api' ? headersOf(sc, api) : sc.body ? { 'content-type': 'application/json' } : {};
        const o = (duration, amount) => {
          let n = 0;
          const base0 = sc.consumes !== undefined ? consumed : ++phase * 1_000_000;
          const base = { url: target === 'api' ? api.url : bareUrl, connections: opts.connections, headers, ...(amount ? { amount } : { duration }) };
          const p = () => (target === 'api' ? (sc.pathOf ? sc.pathOf(base0 + n) : sc.path) : `/run/${sc.key}`);
          if (!sc.body) return { ...base, url: base.url + p() };
          return {
            ...base,
            requests: [
              {
                method: sc.method,
                setupRequest: (req) => {
                  n++;
                  return { ...req, path: p(), body: sc.body(base0 + n) };
                },
              },
            ],
          };
        };
        if (sc.consumes !== undefined) {
          // one learner per request: a bounded number of requests, warm-up included
          const amount = Math.min(500, Math.floor((sc.consumes - consumed) / 2));
          if (amount < 50) {
            row[target] = null;
            continue;
          }
          await runAutocannon(o(0, Math.floor(amount / 5)));
          consumed += Math.floor(amount / 5) + 1;
          row[target] = await measure(o(0, amount));
          consumed += amount + 1;
        } else {
          await runAutocannon(o(1));
          row[target] = await measure(o(opts.duration));
        }
      }
      result.rows.push(row);
    }
    await stopChild(api.child);
    return result;
  } finally {
    await db.end();
    await Promise.all(children.map(stopChild));
    fs.rmSync(scriptFile, { force: true });
    if (!opts.inPlace) await dropBenchDb(urlOf('postgres'), dbName).catch((e) => out(`could not drop ${dbName}: ${e.message}\n`));
    await dropRedisPrefix(base.REDIS_URL, redisPrefix).catch(() => {});
    if (failed) {
      process.stderr.write(`${label} world: some answers were not 2xx\n`);
      process.exitCode = 1;
    }
  }
}

async function scale() {
  const opts = parseArgs(
    process.argv.slice(2),
    {
      connections: 20,
      scale: Number(process.env.BENCH_SCALE ?? 1),
      world: process.env.BENCH_SCALE_WORLD ?? 'both',
      reseed: process.env.BENCH_SCALE_RESEED === '1',
      explainOnly: false,
      bare: true,
      printPlans: true,
      only: null,
    },
    (a, next, o) => {
      if (a === '--scale') o.scale = Number(next());
      else if (a === '--world') o.world = next();
      else if (a === '--reseed') o.reseed = true;
      else if (a === '--explain-only') o.explainOnly = true;
      else if (a === '--no-bare') o.bare = false;
      else if (a === '--in-place') o.inPlace = true;
      else if (a === '--no-plans') o.printPlans = false;
      else if (a === '--only') o.only = next();
      else return false;
      return true;
    },
  );
  const load0 = os.loadavg();
  const worlds = [];
  if (opts.world !== 'small') worlds.push(await runWorld('large', opts.scale, opts));
  if (opts.world !== 'large') worlds.push(await runWorld('small', opts.scale / 100, { ...opts, bare: false, printPlans: opts.world === 'small' }));
  const large = worlds.find((x) => x.label === 'large');
  const small = worlds.find((x) => x.label === 'small');

  // the deterministic part: pages read per request (EXPLAIN BUFFERS of the scenario's statements) on each world
  out('\nPages (shared buffers hit + read) per request, summed over the EXPLAIN (ANALYZE, BUFFERS) of its statements:\n\n| scenario | large | small | large/small |\n|---|---:|---:|---:|\n');
  for (const k of Object.keys((large ?? small).buffers)) {
    const a = large?.buffers[k];
    const b = small?.buffers[k];
    out(`| ${k} | ${a ?? '-'} | ${b ?? '-'} | ${a && b ? `${(a / b).toFixed(2)}x` : '-'} |\n`);
  }
  out('\n| scenario | SQL | large p50 / p99 ms | small p50 / p99 ms | large/small p50 | large/small p99 | large API req/s | bare req/s | API/bare | bare p99 ms | p99 API/bare |\n');
  out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n');
  const keys = (large ?? small).rows.map((r) => r.key);
  const results = [];
  const r2 = (x) => (Number.isFinite(x) ? Math.round(x * 100) / 100 : null);
  for (const k of keys) {
    const L = large?.rows.find((r) => r.key === k);
    const S = small?.rows.find((r) => r.key === k);
    const ratio = (a, b) => (a && b ? a / b : NaN);
    const f = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : '-');
    const lp = L?.api;
    const sp = S?.api;
    out(
      `| ${(L ?? S).name} | ${(L ?? S).sql} | ${lp ? `${lp.p50} / ${lp.p99}` : '-'} | ${sp ? `${sp.p50} / ${sp.p99}` : '-'} | ${f(ratio(lp?.p50, sp?.p50))} | ${f(ratio(lp?.p99, sp?.p99))} | ${lp ? fmt(lp.rps) : '-'} | ${L?.bare ? fmt(L.bare.rps) : '-'} | ${f(ratio(lp?.rps, L?.bare?.rps))} | ${L?.bare ? L.bare.p99 : '-'} | ${f(ratio(lp?.p99, L?.bare?.p99))} |\n`,
    );
    results.push({
      name: `${(L ?? S).name} [${large ? fmt(large.sizes.users) : '-'} vs ${small ? fmt(small.sizes.users) : '-'} learners]`,
      api: lp ?? sp,
      bare: L?.bare ?? undefined,
      small: sp,
      scale_ratio_p50: r2(ratio(lp?.p50, sp?.p50)),
      scale_ratio_p99: r2(ratio(lp?.p99, sp?.p99)),
      goal: 'large/small <= 1.5x, API/bare >= 0.8x',
    });
  }
  const seqScans = worlds.flatMap((x) => x.seqScans.map((y) => ({ world: x.label, ...y })));
  out(
    `\nload average at start ${load0.map((l) => l.toFixed(2)).join(' ')}, at end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (2 cores; a load above ~4 means other work shared the machine)\n`,
  );
  for (const x of worlds)
    out(`${x.label} world: template ${x.template.name} (${x.template.size}, ${x.template.reused ? 'reused' : `seeded in ${x.template.seedSeconds} s`}), copied in ${x.copySeconds.toFixed(1)} s\n`);
  out(`sequential scans over large tables: ${seqScans.length ? `${seqScans.length} FLAGGED` : 'none'}\n`);
  if (seqScans.length) process.exitCode = 1;
  if (opts.json) process.stdout.write(`${JSON.stringify({ results, worlds: worlds.map(({ plans, rows, ...x }) => x), seqScans })}\n`);
}

const out = (t) => process.stdout.write(t);

if (require.main === module) {
  if (process.argv[2] === '--serve-bare') main(() => serveBare(Number(process.argv[3])));
  else main(scale);
}
