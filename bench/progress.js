#!/usr/bin/env node
'use strict';
/**
 * Learners' progress (issue 10): the real API against a bare Fastify + pg server that runs the SAME
 * SQL, with autocannon, for two scenarios:
 *
 *  1. `complete`: `--learners` learners (1,000) each complete the only (required) lesson of a course
 *     with PUT /v1/lesson-progress/{id}, `--connections` (50) in parallel, one request per learner.
 *     Every request completes a course: lesson progress, course progress, the enrollment's dates,
 *     a certificate, LESSON_COMPLETION and COURSE_COMPLETION in the outbox, one transaction.
 *  2. `courses`: GET /v1/users/{id}/published-courses?page_size=100 for a learner with `--enrollments`
 *     (200) enrollments, `--duration` seconds (3) with 10 connections.
 *
 *   npm run bench -- progress
 *   npm run build && node bench/progress.js [--learners 1000] [--enrollments 200] [--duration 3] [--connections 50] [--only complete|courses] [--json]
 *   node bench/progress.js --only courses --cpu-prof /tmp/prof   # CPU profile of the measured API child (node bench/profile-summary.js /tmp/prof/*.cpuprofile)
 *
 * One run:
 *  1. a throw-away database `cp_bench_progress_<random>` (created, migrated, dropped at the end) and a
 *     unique REDIS_PREFIX (keys removed at the end); an organization made by the CLI's code; every
 *     fixture through the API: the course, its lesson and its publication, the learners
 *     (POST /v1/domains/{d}/users/bulk-create), their enrollments (POST /v2/enrollments/), their
 *     lesson progress (GET /v1/users/{id}/published-courses/{pc}/lessons makes it), the 200 courses
 *     of the second scenario; then VACUUM ANALYZE. Learners are disjoint per target and warm-up:
 *     each completes once.
 *  2. SQL statements per request: an API child with DATABASE_LOG_QUERIES=true (TypeORM logs every
 *     statement and its parameters); one request of each scenario after a warm-up request, the
 *     statements written meanwhile counted AND kept, with their parameters, as the bare server's
 *     script.
 *  3. throughput: the API (dist/, NODE_ENV=production, LOG_LEVEL=warn, no query logging) and, in
 *     another child process, a bare Fastify + pg Pool of the same size that replays that script per
 *     request on one pooled connection (START TRANSACTION ... COMMIT included): the same statement
 *     texts, the parameters of the recorded learner rewritten to the learner of the request (its
 *     user, enrollment, course progress, lesson progress and token ids, public ids and email; a
 *     fresh uuid for any other per-request uuid and a fresh certificate code). No auth, no
 *     validation, no presentation: what the database work alone allows.
 * Every answer must be 200: anything else is reported and the exit code is 1.
 */
const { randomBytes, randomInt, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ROOT, startChild, stopChild, freePort, waitFor, runAutocannon, fmt, loggedStatements, benchWorld } = require('./lib');

const json = { 'content-type': 'application/json' };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CODE = /^[A-HJ-NP-Z2-9]{16}$/;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const COMPLETED_AT = '2026-06-01T00:00:00Z';

// ---------------------------------------------------------------------------------------------
// The bare server: replays a recorded statement script with the parameters of another learner.
// ---------------------------------------------------------------------------------------------

/** The learner-specific values of a recorded script: learner X's value -> learner Y's. */
const LEARNER_KEYS = ['lp', 'token', 'user', 'cp', 'enrollment', 'email', 'userPublic', 'lpPublic', 'tokenPublic', 'enrollmentPublic'];

function rewriter(from, to, constants) {
  const exact = new Map(LEARNER_KEYS.map((k) => [from[k], to[k]]));
  const fresh = new Map();
  const str = (s) => {
    if (exact.has(s)) return exact.get(s);
    if (UUID.test(s)) {
      if (constants.has(s)) return s;
      if (!fresh.has(s)) fresh.set(s, randomUUID());
      return fresh.get(s);
    }
    if (CODE.test(s)) {
      let c = '';
      for (let i = 0; i < 16; i++) c += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
      return c;
    }
    let out = s;
    for (const [a, b] of exact) if (a && a.length >= 8 && out.includes(a)) out = out.split(a).join(b);
    return out;
  };
  const walk = (v) => {
    if (typeof v === 'string') return str(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk;
}

/** `node bench/progress.js --serve-bare PORT` (env BARE_DATABASE_URL, BARE_POOL_SIZE, BARE_SCRIPT: a JSON file). */
async function serveBare(port) {
  const { Pool } = require('pg');
  const pool = new Pool({ connectionString: process.env.BARE_DATABASE_URL, max: Number(process.env.BARE_POOL_SIZE) });
  const script = JSON.parse(fs.readFileSync(process.env.BARE_SCRIPT, 'utf8'));
  const constants = new Set(script.constants);
  const byLearner = new Map(script.learners.map((l) => [l.lpPublic, l]));
  const replay = async (statements, params) => {
    const client = await pool.connect();
    let last;
    try {
      for (const s of statements) last = await client.query(s.sql, params(s.params));
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
    return last;
  };
  const app = require('fastify')({ logger: false });
  app.put('/lesson-progress/:id', async (req, reply) => {
    const to = byLearner.get(req.params.id);
    if (!to) return reply.code(404).send({ detail: 'Not found.' });
    const map = rewriter(script.complete.learner, to, constants);
    await replay(script.complete.statements, (p) => map(p));
    return { id: req.params.id };
  });
  app.get('/user-courses', async () => {
    const r = await replay(script.courses.statements, (p) => p);
    return r.rows; // a bare array, as the API answers it (CONVENTIONS §16)
  });
  app.get('/', async () => ({ ok: true }));
  await app.listen({ port, host: '127.0.0.1' });
}

// ---------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const opts = {
    learners: 1000,
    enrollments: 200,
    duration: Number(process.env.BENCH_DURATION ?? 3),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
    only: null,
    json: false,
    cpuProf: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--learners') opts.learners = Number(argv[++i]);
    else if (a === '--enrollments') opts.enrollments = Number(argv[++i]);
    else if (a === '--duration') opts.duration = Number(argv[++i]);
    else if (a === '--connections') opts.connections = Number(argv[++i]);
    else if (a === '--only') opts.only = argv[++i];
    else if (a === '--json') opts.json = true;
    else if (a === '--cpu-prof') opts.cpuProf = path.resolve(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

const norm = (sql) => sql.replace(/\s+/g, ' ').trim();

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const wanted = (k) => !opts.only || opts.only === k;
  const WARM = 20;
  const { decodeId, encodeId } = require(path.join(ROOT, 'dist/src/core/ids/ids.js'));
  const { Client } = require('pg');

  const { run, env, config, org, orgUuid, dbUrl, scriptFile, children, startApi, cleanup, load0 } = await benchWorld('progress', 'Bench Progress Org');
  let failed = false;
  try {
    const domain = org.domain_name;
    const call = async (url, method, p, body, headers = {}) => {
      const res = await fetch(url + p, { method, headers: body === undefined ? headers : { ...json, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const must = (r, what) => {
      if (r.status !== 200 && r.status !== 201 && r.status !== 202) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`);
      return r.body;
    };
    const tokenFrom = async (url) => {
      const r = must(await call(url, 'POST', '/v2/auth/token', { client_id: org.client_id, client_secret: org.client_secret }), 'token');
      return { authorization: `Bearer ${r.access_token}` };
    };
    const inChunks = async (items, size, fn) => {
      for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
    };

    // --- 1. fixtures, through the API (the logging child; its log is skipped) -----------------------
    const api0 = await startApi(true);
    let auth = await tokenFrom(api0.url);
    const a = (method, p, body) => call(api0.url, method, p, body, auth);
    const publishCourse = async (title) => {
      const course = must(await a('POST', '/v1/courses', { title, short_description: 'S', enforce_sequential_navigation: false }), 'course');
      const lesson = must(await a('POST', '/v1/lessons', { course_id: course.id, order: 1, title: 'Only lesson', type: 'HTML', content_html: '<p>x</p>' }), 'lesson');
      const pc = must(await a('POST', `/v1/domains/${domain}/published-courses`, { course: { id: course.id }, slug: `c-${randomBytes(5).toString('hex')}` }), 'publish');
      return { course: course.id, lesson: lesson.id, pc: pc.id };
    };
    const learners = async (n, prefix) => {
      const emails = Array.from({ length: n }, (_, i) => `${prefix}-${i}@bench.test`);
      for (let i = 0; i < n; i += 1000) {
        must(await a('POST', `/v1/domains/${domain}/users/bulk-create`, { users: emails.slice(i, i + 1000).map((email) => ({ email, first_name: 'Ada', last_name: `L${i}` })) }), 'bulk-create');
      }
      return emails;
    };
    const enrollAll = async (pc, emails) => {
      for (let i = 0; i < emails.length; i += 100) {
        const r = await a('POST', '/v2/enrollments/', { published_course_id: pc, data: emails.slice(i, i + 100).map((email) => ({ type: 'enrollments', attributes: { email } })) });
        if (r.status !== 200) throw new Error(`enroll: ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`);
      }
    };
    const db = new Client({ connectionString: dbUrl.toString() });
    await db.connect();

    const setup0 = Date.now();
    let complete = null;
    if (wanted('complete')) {
      const c = await publishCourse('Bench completion course');
      // learners: api (measured), bare (measured), api warm-up, bare warm-up, 2 for the statement count
      const total = 2 * opts.learners + 2 * WARM + 2;
      const emails = await learners(total, `learner-${run}`);
      await enrollAll(c.pc, emails);
      const rows = (
        await db.query(
          `SELECT u.id AS user, u.email, e.id AS enrollment FROM users u JOIN enrollments e ON e.user_id = u.id AND e.organization_id = u.organization_id
            WHERE u.organization_id = $1 AND e.published_course_id = $2 ORDER BY u.email`,
          [orgUuid, decodeId('publishedCourse', c.pc)],
        )
      ).rows;
      // the lesson progress rows, as a learner's lessons read makes them
      await inChunks(rows, 25, async (r) => must(await a('GET', `/v1/users/${encodeId('student', r.user)}/published-courses/${c.pc}/lessons`), 'lessons'));
      const lps = new Map((await db.query(`SELECT id, progress_token, user_id, course_progress_id FROM lesson_progress WHERE organization_id = $1`, [orgUuid])).rows.map((r) => [r.user_id, r]));
      const all = rows.map((r) => {
        const lp = lps.get(r.user);
        return {
          lp: lp.id,
          token: lp.progress_token,
          user: r.user,
          cp: lp.course_progress_id,
          enrollment: r.enrollment,
          email: r.email,
          userPublic: encodeId('student', r.user),
          lpPublic: encodeId('lessonProgress', lp.id),
          tokenPublic: encodeId('progressToken', lp.progress_token),
          enrollmentPublic: encodeId('enrollment', r.enrollment),
        };
      });
      complete = {
        course: c,
        api: all.slice(0, opts.learners),
        bare: all.slice(opts.learners, 2 * opts.learners),
        apiWarm: all.slice(2 * opts.learners, 2 * opts.learners + WARM),
        bareWarm: all.slice(2 * opts.learners + WARM, 2 * opts.learners + 2 * WARM),
        count: all.slice(2 * opts.learners + 2 * WARM),
      };
    }
    let courses = null;
    if (wanted('courses')) {
      const [email] = await learners(1, `many-${run}`);
      const pcs = [];
      await inChunks(
        Array.from({ length: opts.enrollments }, (_, i) => i),
        10,
        async (i) => pcs.push((await publishCourse(`Bench course ${i}`)).pc),
      );
      await inChunks(pcs, 10, (pc) => enrollAll(pc, [email]));
      const [u] = (await db.query(`SELECT id FROM users WHERE organization_id = $1 AND email = $2`, [orgUuid, email])).rows;
      courses = { user: encodeId('student', u.id), path: `/v1/users/${encodeId('student', u.id)}/published-courses?page_size=100` };
    }
    await db.query('VACUUM ANALYZE');
    const constants = new Set(
      (
        await db.query(`SELECT id FROM organizations UNION ALL SELECT id FROM domains UNION ALL SELECT id FROM courses UNION ALL SELECT id FROM lessons UNION ALL SELECT id FROM published_courses`)
      ).rows.map((r) => r.id),
    );
    await db.end();
    process.stdout.write(`fixtures through the API in ${((Date.now() - setup0) / 1000).toFixed(1)} s\n`);
    await sleep(500);

    // --- 2. SQL statements per request, kept as the bare server's script ------------------------------
    const counted = async (method, p, body) => {
      const before = api0.child.output.length;
      const r = await call(api0.url, method, p, body, auth);
      await sleep(300);
      const all = loggedStatements(api0.child.output.slice(before));
      // the authentication cache's refresh of the token's client (AUTH_CACHE_SECONDS) is not the operation's work: left out of the count and the script
      const refresh = all.filter((st) => st.sql.startsWith('/* unscoped: the client of a verified token'));
      if (refresh.length) process.stdout.write(`  (left out: ${refresh.length} authentication cache refresh statement)\n`);
      return { r, statements: all.filter((st) => !refresh.includes(st)) };
    };
    const script = { constants: [...constants], learners: complete ? [...complete.bare, ...complete.bareWarm] : [], complete: null, courses: null };
    const sqlCounts = {};
    const show = (name, statements) => {
      process.stdout.write(`  ${name}: ${statements.length}\n`);
      for (const s of statements) process.stdout.write(`      ${s.failed ? 'FAILED ' : ''}${norm(s.sql).slice(0, 110)}${norm(s.sql).length > 110 ? ' ...' : ''}\n`);
    };
    process.stdout.write('\nSQL statements per request (API with DATABASE_LOG_QUERIES=true):\n');
    if (complete) {
      const [w0, x] = complete.count;
      const put = (l) => counted('PUT', `/v1/lesson-progress/${l.lpPublic}`, { completed_at: COMPLETED_AT });
      await put(w0);
      const { r, statements } = await put(x);
      if (r.status !== 200 || statements.some((s) => s.failed)) throw new Error(`counted completion: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      sqlCounts.complete = statements.length;
      script.complete = { learner: x, statements: statements.map(({ sql, params }) => ({ sql, params })) };
      show('PUT /v1/lesson-progress/{id} (completes the course)', statements);
    }
    if (courses) {
      await counted('GET', courses.path);
      const { r, statements } = await counted('GET', courses.path);
      if (r.status !== 200 || !Array.isArray(r.body) || r.body.length !== Math.min(100, opts.enrollments)) throw new Error(`counted courses: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      sqlCounts.courses = statements.length;
      script.courses = { statements: statements.map(({ sql, params }) => ({ sql, params })) };
      show(`GET /v1/users/{id}/published-courses?page_size=100 (${opts.enrollments} enrollments)`, statements);
    }
    fs.writeFileSync(scriptFile, JSON.stringify(script));
    await stopChild(api0.child);

    // --- 3. throughput -----------------------------------------------------------------------------------
    // --cpu-prof DIR: the measured API child's CPU profile, written when it stops (SIGTERM exits at once so that it is)
    const prof = opts.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', opts.cpuProf, '--import', 'data:text/javascript,process.prependListener("SIGTERM",()=>process.exit(0))'] : [];
    const api = await startApi(false, prof);
    auth = await tokenFrom(api.url);
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
    process.stdout.write(`\nNode ${process.version}, pool ${config.DATABASE_POOL_SIZE} connections each, load average at start ${load0.map((l) => l.toFixed(2)).join(' ')}\n\n`);

    const measure = async (target, o) => {
      const r = await runAutocannon(o);
      const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([c, v]) => [c, v.count]));
      const bad = Object.entries(statuses).filter(([c]) => c !== '200');
      if (bad.length || r.errors || r.timeouts) failed = true;
      // requests / elapsed: a fixed-amount run lasts a fraction of a second more or less than its last full second
      const rps = r.requests.total / r.duration;
      return { rps, p50: r.latency.p50, p99: r.latency.p99, cpuUs: r.cpu ? r.cpu.usPerRequest : null, requests: r.requests.total, seconds: r.duration, statuses, errors: r.errors + r.timeouts };
    };
    const results = [];
    if (complete) {
      const row = { name: `PUT /v1/lesson-progress/{id}, ${opts.learners} learners completing a course, ${opts.connections} in parallel`, key: 'complete', sql: sqlCounts.complete };
      for (const target of ['api', 'bare']) {
        const url = target === 'api' ? api.url : bareUrl;
        const run1 = async (list) => {
          let i = 0;
          const make = () => {
            const l = list[i++ % list.length];
            return target === 'api' ? `/v1/lesson-progress/${l.lpPublic}` : `/lesson-progress/${l.lpPublic}`;
          };
          const body = JSON.stringify({ completed_at: COMPLETED_AT });
          return measure(target, {
            url,
            connections: Math.min(opts.connections, list.length),
            amount: list.length,
            requests: [{ method: 'PUT', path: make(), headers: { ...json, ...(target === 'api' ? auth : {}) }, body, setupRequest: (req) => ({ ...req, path: make() }) }],
          });
        };
        await run1(target === 'api' ? complete.apiWarm : complete.bareWarm);
        row[target] = await run1(target === 'api' ? complete.api : complete.bare);
      }
      results.push(row);
    }
    if (courses) {
      if (complete) {
        // the completions just measured wrote thousands of rows: settle the tables (as after the
        // fixtures) so that autovacuum does not run into the read measured next, on one side only
        const c1 = new Client({ connectionString: dbUrl.toString() });
        await c1.connect();
        await c1.query('VACUUM ANALYZE');
        await c1.end();
      }
      const row = { name: `GET /v1/users/{id}/published-courses?page_size=100, ${opts.enrollments} enrollments`, key: 'courses', sql: sqlCounts.courses };
      for (const target of ['api', 'bare']) {
        const o = (duration) => ({
          url: target === 'api' ? api.url + courses.path : `${bareUrl}/user-courses`,
          connections: 10,
          duration,
          headers: target === 'api' ? auth : {},
        });
        await runAutocannon(o(1));
        row[target] = await measure(target, o(opts.duration));
      }
      results.push(row);
    }
    // every learner of the measured runs completed once: one certificate and one COURSE_COMPLETION each
    if (complete) {
      const c2 = new Client({ connectionString: dbUrl.toString() });
      await c2.connect();
      const [chk] = (
        await c2.query(
          `SELECT (SELECT count(*)::int FROM certificates WHERE organization_id = $1) AS certificates,
                  (SELECT count(*)::int FROM outbox_events WHERE organization_id = $1 AND event_type = 'COURSE_COMPLETION') AS completions`,
          [orgUuid],
        )
      ).rows;
      await c2.end();
      const expected = 2 * opts.learners + 2 * WARM + 2;
      process.stdout.write(`\ncertificates issued: ${chk.certificates}, COURSE_COMPLETION events: ${chk.completions} (expected ${expected} each: every learner, API and bare)\n`);
      if (chk.certificates !== expected || chk.completions !== expected) failed = true;
    }
    const load1 = os.loadavg();
    process.stdout.write(
      `load average at the end ${load1.map((l) => l.toFixed(2)).join(' ')}\n\n` +
        '| scenario | API req/s | bare req/s | ratio | API p50 / p99 ms | bare p50 / p99 ms | server CPU us/request API / bare | SQL statements per request |\n' +
        '|---|---:|---:|---:|---:|---:|---:|---:|\n',
    );
    for (const r of results) {
      process.stdout.write(
        `| ${r.name} | ${fmt(r.api.rps)} | ${fmt(r.bare.rps)} | ${(r.api.rps / r.bare.rps).toFixed(2)}x | ${r.api.p50} / ${r.api.p99} | ${r.bare.p50} / ${r.bare.p99} | ${r.api.cpuUs ?? '-'} / ${r.bare.cpuUs ?? '-'} | ${r.sql} |\n`,
      );
      for (const t of ['api', 'bare']) {
        const bad = Object.entries(r[t].statuses).filter(([c]) => c !== '200');
        if (bad.length || r[t].errors) process.stdout.write(`  !! ${r.key} [${t}]: statuses ${JSON.stringify(r[t].statuses)}, ${r[t].errors} errors\n`);
      }
    }
    if (opts.json) process.stdout.write(`\n${JSON.stringify({ load: [load0, load1], sqlCounts, results }, null, 2)}\n`);
    if (failed) {
      process.stderr.write('\nnon-200 answers, errors or missing completions above\n');
      process.exitCode = 1;
    }
  } finally {
    await cleanup();
  }
}

if (process.argv[2] === '--serve-bare') {
  serveBare(Number(process.argv[3])).catch((e) => {
    process.stderr.write(`${e.stack}\n`);
    process.exit(1);
  });
} else {
  main().catch((e) => {
    process.stderr.write(`bench failed: ${e.stack ?? e}\n`);
    process.exit(1);
  });
}
