#!/usr/bin/env node
'use strict';
/**
 * The /v2 reads beside students (issue 16 item 1: "every /v2 read, list and batch operation at 0.8x
 * of bare or better, p99 within 1.5x"): a page of 100 and one object by id of courses, lessons,
 * published courses, enrollments, groups and certificates, through the real API against a bare
 * Fastify + pg server that runs the SAME SQL, with autocannon. (Students, with their batch writes
 * and prepared statements, are bench/v2-students.js.)
 *
 *   npm run bench -- v2-reads
 *   npm run build && node bench/v2-reads.js [--rows 2000] [--duration 3] [--connections 20] [--only courses] [--json]
 *
 * One run:
 *  1. a throw-away database `cp_bench_v2reads_<random>` (created, migrated, dropped at the end) and
 *     a unique REDIS_PREFIX; an organization made by the CLI's code (a token from its client);
 *     `--rows` courses (3 lessons each) published on its domain, `--rows` learners each enrolled in
 *     one course, `--rows` / 10 groups (at least 100) of 10 members, a certificate per enrollment, written with SQL
 *     (the rows, not their creation, are measured here), then VACUUM ANALYZE.
 *  2. SQL statements per request: an API child with DATABASE_LOG_QUERIES=true; each read once to
 *     warm up (the token's verification is cached after it), then once more, the statements written
 *     meanwhile counted AND kept, with their parameters, as the bare server's script.
 *  3. throughput: the API (dist/, NODE_ENV=production, LOG_LEVEL=warn, no query logging) and, in
 *     another child process, a bare Fastify + pg Pool of the same size that replays the script of
 *     the read one statement after another and answers every row of every statement as JSON: no
 *     auth, no validation, no presentation: what the database work alone allows.
 * Every answer must be 200: anything else is reported and the exit code is 1.
 */
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ROOT, startChild, stopChild, freePort, waitFor, runAutocannon, dropBenchDb, dropRedisPrefix, fmt, loggedStatements } = require('./lib');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const norm = (sql) => sql.replace(/\s+/g, ' ').trim();

/** `node bench/v2-reads.js --serve-bare PORT` (env BARE_DATABASE_URL, BARE_POOL_SIZE, BARE_SCRIPT: a JSON file). */
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

function parseArgs(argv) {
  const opts = { rows: 2000, duration: Number(process.env.BENCH_SECONDS ?? process.env.BENCH_DURATION ?? 3), connections: 20, only: null, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--rows') opts.rows = Number(argv[++i]);
    else if (a === '--duration' || a === '--seconds') opts.duration = Number(argv[++i]);
    else if (a === '--connections') opts.connections = Number(argv[++i]);
    else if (a === '--only') opts.only = argv[++i];
    else if (a === '--json') opts.json = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { loadConfig } = require(path.join(ROOT, 'dist/src/core/config/config.js'));
  const { migrate } = require(path.join(ROOT, 'dist/src/core/database/database.js'));
  const { runCli } = require(path.join(ROOT, 'dist/src/cli.js'));
  const { decodeId, encodeId } = require(path.join(ROOT, 'dist/src/core/ids/ids.js'));
  const { Client } = require('pg');

  const base = loadConfig(process.env);
  const run = randomBytes(4).toString('hex');
  const dbName = `cp_bench_v2reads_${run}`;
  const dbUrl = new URL(base.DATABASE_URL);
  dbUrl.pathname = `/${dbName}`;
  const adminUrl = new URL(base.DATABASE_URL);
  adminUrl.pathname = '/postgres';
  const redisPrefix = `cpbench_${run}`;
  const scriptFile = path.join(os.tmpdir(), `cp-bench-v2reads-${run}.json`);

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

  const load0 = os.loadavg();
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
    };
    const config = loadConfig(env);
    await migrate(config);
    const org = await runCli(['create-org', '--name', 'Bench v2 reads'], config);
    const orgId = decodeId('organization', org.organization_id);

    // --- 1. fixtures ---------------------------------------------------------------------------
    const t0 = Date.now();
    const db = new Client({ connectionString: dbUrl.toString() });
    await db.connect();
    const [{ id: domainId }] = (await db.query(`SELECT id FROM domains WHERE name = $1 AND organization_id = $2`, [org.domain_name, orgId])).rows;
    const n = opts.rows;
    await db.query(
      `INSERT INTO courses (organization_id, title, short_description, long_description_html)
       SELECT $1, 'Course ' || g, 'About course ' || g, '<p>Course ' || g || ' in depth.</p>' FROM generate_series(1, $2) g`,
      [orgId, n],
    );
    await db.query(
      `INSERT INTO lessons (organization_id, course_id, title, type, "order")
       SELECT c.organization_id, c.id, 'Lesson ' || i, 'HTML', i FROM courses c, generate_series(1, 3) i WHERE c.organization_id = $1`,
      [orgId],
    );
    await db.query(`INSERT INTO published_courses (organization_id, course_id, domain_id, slug) SELECT organization_id, id, $2, 'c-' || id FROM courses WHERE organization_id = $1`, [orgId, domainId]);
    await db.query(
      `INSERT INTO users (organization_id, email, first_name, last_name) SELECT $1, 'u' || g || '@example.test', 'First' || (g % 50), 'Last' || (g % 97) FROM generate_series(1, $2) g`,
      [orgId, n],
    );
    await db.query(`INSERT INTO domain_users (organization_id, domain_id, user_id) SELECT organization_id, $2, id FROM users WHERE organization_id = $1`, [orgId, domainId]);
    // learner k enrolled in course k, started and completed, with a certificate
    await db.query(
      `INSERT INTO enrollments (organization_id, user_id, published_course_id, course_id, started_at, completed_at)
       SELECT u.organization_id, u.id, pc.id, pc.course_id, now(), now()
         FROM (SELECT id, organization_id, row_number() OVER (ORDER BY created_at, id) AS k FROM users WHERE organization_id = $1) u
         JOIN (SELECT id, course_id, row_number() OVER (ORDER BY created_at, id) AS k FROM published_courses WHERE organization_id = $1) pc ON pc.k = u.k`,
      [orgId],
    );
    await db.query(
      `INSERT INTO certificates (organization_id, user_id, course_id, published_course_id, domain_id, enrollment_id, code, issued_at, score_as_percent)
       SELECT organization_id, user_id, course_id, published_course_id, $2, id, 'CERT-' || replace(id::text, '-', ''), now(), 100 FROM enrollments WHERE organization_id = $1`,
      [orgId, domainId],
    );
    await db.query(`INSERT INTO groups (organization_id, name) SELECT $1, 'Group ' || g FROM generate_series(1, $2) g`, [orgId, Math.max(100, Math.floor(n / 10))]);
    await db.query(
      `INSERT INTO group_memberships (organization_id, group_id, user_id)
       SELECT u.organization_id, g.id, u.id
         FROM (SELECT id, organization_id, row_number() OVER (ORDER BY created_at, id) AS k FROM users WHERE organization_id = $1) u
         JOIN (SELECT id, row_number() OVER (ORDER BY created_at, id) - 1 AS k FROM groups WHERE organization_id = $1) g ON g.k = (u.k - 1) / 10`,
      [orgId],
    );
    await db.query('VACUUM ANALYZE');
    const idOf = async (table, type) => encodeId(type, (await db.query(`SELECT id FROM ${table} WHERE organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET $2`, [orgId, Math.floor(n / 20)])).rows[0].id);
    const ids = {
      course: await idOf('courses', 'course'),
      lesson: await idOf('lessons', 'lesson'),
      publishedCourse: await idOf('published_courses', 'publishedCourse'),
      enrollment: await idOf('enrollments', 'enrollment'),
      group: await idOf('groups', 'group'),
      certificate: await idOf('certificates', 'certificate'),
    };
    await db.end();
    process.stdout.write(`fixtures in ${((Date.now() - t0) / 1000).toFixed(1)} s (${n} courses, ${3 * n} lessons, ${n} learners, enrollments and certificates, ${Math.max(100, Math.floor(n / 10))} groups)\n`);

    const page = 'page%5Bsize%5D=100';
    const reads = [
      { key: 'courses', name: 'GET /v2/courses/?page[size]=100', path: `/v2/courses/?${page}` },
      { key: 'course', name: 'GET /v2/courses/{id}', path: `/v2/courses/${ids.course}` },
      { key: 'lessons', name: 'GET /v2/lessons/?page[size]=100', path: `/v2/lessons/?${page}` },
      { key: 'lesson', name: 'GET /v2/lessons/{id}', path: `/v2/lessons/${ids.lesson}` },
      { key: 'published', name: 'GET /v2/published-courses/?page[size]=100', path: `/v2/published-courses/?${page}` },
      { key: 'published1', name: 'GET /v2/published-courses/{id}', path: `/v2/published-courses/${ids.publishedCourse}` },
      { key: 'enrollments', name: 'GET /v2/enrollments/?page[size]=100', path: `/v2/enrollments/?${page}` },
      { key: 'enrollment', name: 'GET /v2/enrollments/{id}', path: `/v2/enrollments/${ids.enrollment}` },
      { key: 'groups', name: 'GET /v2/groups/?page[size]=100', path: `/v2/groups/?${page}` },
      { key: 'group', name: 'GET /v2/groups/{id}', path: `/v2/groups/${ids.group}` },
      { key: 'certificates', name: 'GET /v2/certificates/?page[size]=100', path: `/v2/certificates/?${page}` },
      { key: 'certificate', name: 'GET /v2/certificates/{id}', path: `/v2/certificates/${ids.certificate}` },
    ].filter((r) => !opts.only || r.key.startsWith(opts.only));

    const startApi = async (logQueries) => {
      const port = await freePort();
      const child = startChild(['dist/src/main.js'], { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, DATABASE_LOG_QUERIES: String(logQueries) }, logQueries);
      children.push(child);
      const url = `http://127.0.0.1:${port}`;
      await waitFor(`${url}/health`, child, 'the API');
      // a token from this child (its PUBLIC_URL is the issuer), every scope of the organization's client
      const res = await fetch(`${url}/v2/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: org.client_id, client_secret: org.client_secret }),
      });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(body)}`);
      return { child, url, auth: { authorization: `Bearer ${body.access_token}` } };
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
      const statements = loggedStatements(api0.child.output.slice(before));
      if (res.status !== 200 || statements.some((s) => s.failed)) throw new Error(`${r.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      script[r.key] = statements.map(({ sql, params }) => ({ sql, params }));
      sqlCounts[r.key] = statements.length;
      const size = Array.isArray(res.body.data) ? res.body.data.length : 1;
      if (Array.isArray(res.body.data) && size !== 100) throw new Error(`${r.path}: a page of ${size}, not 100`);
      process.stdout.write(`  ${r.name}: ${statements.length} statement(s), ${size} object(s)\n`);
      for (const s of statements) process.stdout.write(`      ${norm(s.sql).slice(0, 110)}${norm(s.sql).length > 110 ? ' ...' : ''}\n`);
    }
    fs.writeFileSync(scriptFile, JSON.stringify(script));
    await stopChild(api0.child);

    // --- 3. throughput -------------------------------------------------------------------------
    const api = await startApi(false);
    const barePort = await freePort();
    const bare = startChild([__filename, '--serve-bare', String(barePort)], { ...process.env, BARE_DATABASE_URL: dbUrl.toString(), BARE_POOL_SIZE: String(config.DATABASE_POOL_SIZE), BARE_SCRIPT: scriptFile });
    children.push(bare);
    await waitFor(`http://127.0.0.1:${barePort}/`, bare, 'the bare server');
    const bareUrl = `http://127.0.0.1:${barePort}`;
    process.stdout.write(`\nNode ${process.version}, pool ${config.DATABASE_POOL_SIZE} connections each, ${opts.connections} connections, load average at start ${load0.map((l) => l.toFixed(2)).join(' ')}\n\n`);

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
    process.stdout.write(`\nload average at end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
    if (opts.json) process.stdout.write(`${JSON.stringify({ results })}\n`);
  } finally {
    await cleanup();
  }
  if (failed) {
    process.stderr.write('some answers were not 200\n');
    process.exitCode = 1;
  }
}

if (process.argv[2] === '--serve-bare') {
  serveBare(Number(process.argv[3])).catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
