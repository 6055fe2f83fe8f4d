#!/usr/bin/env node
'use strict';
/**
 * Graded quiz attempts (issue 12): the real API against a bare Fastify + pg server that runs the
 * SAME SQL, with autocannon. `--learners` learners (500) each submit one graded attempt at a
 * `--questions`-question quiz (50: multiple choice, multiple answer and fill in the blank in turn,
 * every answer right) with POST /v1/quizzes/{quiz_id}/attempts, `--connections` (50) in parallel,
 * one request per learner. Every attempt passes, so every request also completes the quiz lesson
 * and the course: the attempt, lesson and course progress, the enrollment's dates, a certificate,
 * QUIZ_COMPLETION, LESSON_COMPLETION and COURSE_COMPLETION in the outbox, one transaction.
 *
 *   npm run bench -- quizzes
 *   npm run build && node bench/quizzes.js [--learners 500] [--questions 50] [--connections 50] [--json]
 *
 * One run (as bench/progress.js does):
 *  1. a throw-away database `cp_bench_quizzes_<random>` (migrated, dropped at the end) and a unique
 *     REDIS_PREFIX; an organization made by the CLI's code; every fixture through the API: the quiz
 *     and its questions, a course whose only lesson is the QUIZ lesson linking it, its publication,
 *     the learners (bulk-create), their enrollments (/v2/enrollments/) and their lesson progress
 *     (a learner's lessons read makes it); a second course with a 5-question quiz for the statement
 *     count; then VACUUM ANALYZE.
 *  2. SQL statements per attempt: an API child with DATABASE_LOG_QUERIES=true; one attempt at the
 *     5-question quiz and one at the big quiz (each after a warm-up attempt of another learner),
 *     counted; the big one's statements, with their parameters, are the bare server's script. The
 *     two counts must be equal (they do not grow with the number of questions): exit code 1 otherwise.
 *  3. throughput: the API (dist/, NODE_ENV=production, LOG_LEVEL=warn) and a bare Fastify + pg Pool
 *     of the same size replaying the script per request on one pooled connection, the recorded
 *     learner's ids (user, enrollment, course and lesson progress, public id, e-mail) rewritten to
 *     the request's learner and any other per-request uuid (the attempt's) fresh. No auth, no
 *     validation, no grading, no presentation: what the database work alone allows.
 * Every answer must be 201: anything else is reported and the exit code is 1.
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

/** The learner-specific values of a recorded script: learner X's value -> learner Y's. */
const LEARNER_KEYS = ['lp', 'user', 'cp', 'enrollment', 'email', 'userPublic'];

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

/** `node bench/quizzes.js --serve-bare PORT` (env BARE_DATABASE_URL, BARE_POOL_SIZE, BARE_SCRIPT: a JSON file). */
async function serveBare(port) {
  const { Pool } = require('pg');
  const pool = new Pool({ connectionString: process.env.BARE_DATABASE_URL, max: Number(process.env.BARE_POOL_SIZE) });
  const script = JSON.parse(fs.readFileSync(process.env.BARE_SCRIPT, 'utf8'));
  const constants = new Set(script.constants);
  const byLearner = new Map(script.learners.map((l) => [l.userPublic, l]));
  const app = require('fastify')({ logger: false });
  app.post('/attempts/:user', async (req, reply) => {
    const to = byLearner.get(req.params.user);
    if (!to) return reply.code(404).send({ detail: 'Not found.' });
    const map = rewriter(script.attempt.learner, to, constants);
    const client = await pool.connect();
    try {
      for (const s of script.attempt.statements) await client.query(s.sql, map(s.params));
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
    return reply.code(201).send({ user: req.params.user });
  });
  app.get('/', async () => ({ ok: true }));
  await app.listen({ port, host: '127.0.0.1' });
}

function parseArgs(argv) {
  const opts = { learners: 500, questions: 50, connections: Number(process.env.BENCH_CONNECTIONS ?? 50), json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--learners') opts.learners = Number(argv[++i]);
    else if (a === '--questions') opts.questions = Number(argv[++i]);
    else if (a === '--connections') opts.connections = Number(argv[++i]);
    else if (a === '--json') opts.json = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

const norm = (sql) => sql.replace(/\s+/g, ' ').trim();
const QUESTION_KINDS = [
  { type: 'MULTIPLE_CHOICE', answers: [{ answer_text: '4', correct: true }, { answer_text: '5' }, { answer_text: '22' }] },
  { type: 'MULTIPLE_ANSWER', answers: [{ answer_text: '2', correct: true }, { answer_text: '3' }, { answer_text: '4', correct: true }] },
  { type: 'FILL_IN_THE_BLANK', answers: [{ answer_text: 'Paris' }, { answer_text: 'Lutetia' }] },
];

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const WARM = 20;
  const { decodeId, encodeId } = require(path.join(ROOT, 'dist/src/core/ids/ids.js'));
  const { Client } = require('pg');

  const { run, env, config, org, orgUuid, dbUrl, scriptFile, children, startApi, cleanup, load0 } = await benchWorld('quizzes', 'Bench Quizzes Org');
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
    /** A quiz of n questions, a course whose only lesson is its QUIZ lesson, published; the right answers of every question. */
    const quizCourse = async (n) => {
      const quiz = must(await a('POST', '/v1/quizzes', { name: `Bench quiz ${n} ${run}`, passing_percentage_correct: 80 }), 'quiz');
      const answers = [];
      for (let i = 0; i < n; i++) {
        const kind = QUESTION_KINDS[i % QUESTION_KINDS.length];
        const q = must(await a('POST', '/v1/quiz-questions', { quiz: quiz.id, html: `<p>Question ${i + 1}</p>`, ...kind }), 'question');
        answers.push(q.type === 'FILL_IN_THE_BLANK' ? { question_id: q.id, text: 'paris' } : { question_id: q.id, answer_ids: q.answers.filter((x) => x.correct).map((x) => x.id) });
      }
      const course = must(await a('POST', '/v1/courses', { title: `Bench quiz course ${n}`, short_description: 'S', enforce_sequential_navigation: false }), 'course');
      must(await a('POST', '/v1/lessons', { course_id: course.id, order: 1, title: 'The quiz', type: 'QUIZ', content_quiz_id: quiz.id }), 'lesson');
      const pc = must(await a('POST', `/v1/domains/${domain}/published-courses`, { course: { id: course.id }, slug: `q-${randomBytes(5).toString('hex')}` }), 'publish');
      return { quiz: quiz.id, pc: pc.id, answers };
    };
    const learners = async (n, prefix) => {
      const emails = Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(5, '0')}@bench.test`);
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
    const big = await quizCourse(opts.questions);
    const small = await quizCourse(5);
    // learners: api (measured), bare (measured), api warm-up, bare warm-up, 2 for the statement counts
    const total = 2 * opts.learners + 2 * WARM + 2;
    const emails = await learners(total, `learner-${run}`);
    await enrollAll(big.pc, emails);
    await enrollAll(small.pc, emails.slice(-2));
    const rows = (
      await db.query(
        `SELECT u.id AS user, u.email, e.id AS enrollment FROM users u JOIN enrollments e ON e.user_id = u.id AND e.organization_id = u.organization_id
          WHERE u.organization_id = $1 AND e.published_course_id = $2 ORDER BY u.email`,
        [orgUuid, decodeId('publishedCourse', big.pc)],
      )
    ).rows;
    // the lesson progress rows, as a learner's lessons read makes them
    await inChunks(rows, 25, async (r) => must(await a('GET', `/v1/users/${encodeId('student', r.user)}/published-courses/${big.pc}/lessons`), 'lessons'));
    const lps = new Map(
      (
        await db.query(
          `SELECT lp.id, lp.user_id, lp.course_progress_id FROM lesson_progress lp JOIN course_progress cp ON cp.id = lp.course_progress_id WHERE lp.organization_id = $1 AND cp.published_course_id = $2`,
          [orgUuid, decodeId('publishedCourse', big.pc)],
        )
      ).rows.map((r) => [r.user_id, r]),
    );
    const all = rows.map((r) => {
      const lp = lps.get(r.user);
      return { lp: lp.id, user: r.user, cp: lp.course_progress_id, enrollment: r.enrollment, email: r.email, userPublic: encodeId('student', r.user) };
    });
    const sets = {
      api: all.slice(0, opts.learners),
      bare: all.slice(opts.learners, 2 * opts.learners),
      apiWarm: all.slice(2 * opts.learners, 2 * opts.learners + WARM),
      bareWarm: all.slice(2 * opts.learners + WARM, 2 * opts.learners + 2 * WARM),
      count: all.slice(2 * opts.learners + 2 * WARM),
    };
    await db.query('VACUUM ANALYZE');
    const constants = new Set(
      (
        await db.query(
          `SELECT id FROM organizations UNION ALL SELECT id FROM domains UNION ALL SELECT id FROM courses UNION ALL SELECT id FROM lessons
           UNION ALL SELECT id FROM published_courses UNION ALL SELECT id FROM quizzes UNION ALL SELECT id FROM questions`,
        )
      ).rows.map((r) => r.id),
    );
    await db.end();
    process.stdout.write(`fixtures through the API in ${((Date.now() - setup0) / 1000).toFixed(1)} s\n`);
    await sleep(500);

    // --- 2. SQL statements per attempt, kept as the bare server's script ------------------------------
    const attemptBody = (c, l) => ({ user: { id: l.userPublic }, published_course_id: c.pc, answers: c.answers });
    const counted = async (c, l) => {
      const before = api0.child.output.length;
      const r = await call(api0.url, 'POST', `/v1/quizzes/${c.quiz}/attempts`, attemptBody(c, l), auth);
      await sleep(300);
      const stmts = loggedStatements(api0.child.output.slice(before));
      // the authentication cache's refresh of the token's client (AUTH_CACHE_SECONDS) is not the operation's work
      const refresh = stmts.filter((st) => st.sql.startsWith('/* unscoped: the client of a verified token'));
      return { r, statements: stmts.filter((st) => !refresh.includes(st)) };
    };
    const show = (name, statements) => {
      process.stdout.write(`  ${name}: ${statements.length}\n`);
      for (const s of statements) process.stdout.write(`      ${s.failed ? 'FAILED ' : ''}${norm(s.sql).slice(0, 110)}${norm(s.sql).length > 110 ? ' ...' : ''}\n`);
    };
    process.stdout.write('\nSQL statements per attempt (API with DATABASE_LOG_QUERIES=true):\n');
    const [x, y] = sets.count;
    // warm-ups (first statement texts, caches), then the counted attempts
    await counted(small, y);
    const smallRun = await counted(small, x);
    await counted(big, y);
    const bigRun = await counted(big, x);
    for (const [name, res] of [
      ['5 questions', smallRun],
      [`${opts.questions} questions`, bigRun],
    ]) {
      if (res.r.status !== 201 || res.r.body.passed !== true || res.statements.some((s) => s.failed))
        throw new Error(`counted attempt (${name}): ${res.r.status} ${JSON.stringify(res.r.body).slice(0, 300)}`);
    }
    show(`POST /v1/quizzes/{id}/attempts, ${opts.questions} questions (passes, completes the course)`, bigRun.statements);
    process.stdout.write(`  the same at a 5-question quiz: ${smallRun.statements.length}\n`);
    if (smallRun.statements.length !== bigRun.statements.length) {
      process.stdout.write('  !! the statement count grows with the number of questions\n');
      failed = true;
    }
    const script = { constants: [...constants], learners: [...sets.bare, ...sets.bareWarm], attempt: { learner: x, statements: bigRun.statements.map(({ sql, params }) => ({ sql, params })) } };
    fs.writeFileSync(scriptFile, JSON.stringify(script));
    await stopChild(api0.child);

    // --- 3. throughput -----------------------------------------------------------------------------------
    const api = await startApi(false);
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

    const measure = async (o) => {
      const r = await runAutocannon(o);
      const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([c, v]) => [c, v.count]));
      if (Object.keys(statuses).some((c) => c !== '201') || r.errors || r.timeouts) failed = true;
      return {
        rps: r.requests.total / r.duration,
        p50: r.latency.p50,
        p99: r.latency.p99,
        requests: r.requests.total,
        seconds: r.duration,
        statuses,
        errors: r.errors + r.timeouts,
        eventLoop: r.eventLoop,
      };
    };
    const row = { name: `POST /v1/quizzes/{id}/attempts, ${opts.questions}-question quiz, ${opts.learners} learners, ${opts.connections} in parallel`, key: 'attempt', sql: bigRun.statements.length };
    for (const target of ['api', 'bare']) {
      const url = target === 'api' ? api.url : bareUrl;
      const run1 = async (list) => {
        let i = 0;
        const next = () => {
          const l = list[i++ % list.length];
          return target === 'api'
            ? { method: 'POST', path: `/v1/quizzes/${big.quiz}/attempts`, headers: { ...json, ...auth }, body: JSON.stringify(attemptBody(big, l)) }
            : { method: 'POST', path: `/attempts/${l.userPublic}`, headers: json, body: '{}' };
        };
        return measure({ url, connections: Math.min(opts.connections, list.length), amount: list.length, requests: [{ ...next(), setupRequest: (req) => ({ ...req, ...next() }) }] });
      };
      await run1(target === 'api' ? sets.apiWarm : sets.bareWarm);
      row[target] = await run1(target === 'api' ? sets.api : sets.bare);
    }

    // every learner of the measured runs passed once: one attempt, one certificate, one QUIZ_COMPLETION each
    const c2 = new Client({ connectionString: dbUrl.toString() });
    await c2.connect();
    const [chk] = (
      await c2.query(
        `SELECT (SELECT count(*)::int FROM quiz_attempts WHERE organization_id = $1 AND quiz_id = $2) AS attempts,
                (SELECT count(*)::int FROM certificates WHERE organization_id = $1) AS certificates,
                (SELECT count(*)::int FROM outbox_events WHERE organization_id = $1 AND event_type = 'QUIZ_COMPLETION') AS quiz_events`,
        [orgUuid, decodeId('quiz', big.quiz)],
      )
    ).rows;
    await c2.end();
    const expected = 2 * opts.learners + 2 * WARM + 2;
    process.stdout.write(
      `attempts: ${chk.attempts}, certificates: ${chk.certificates} (expected ${expected} and ${expected + 2}), QUIZ_COMPLETION events: ${chk.quiz_events} (expected ${expected + 2})\n`,
    );
    if (chk.attempts !== expected || chk.certificates !== expected + 2 || chk.quiz_events !== expected + 2) failed = true;

    const load1 = os.loadavg();
    process.stdout.write(
      `load average at the end ${load1.map((l) => l.toFixed(2)).join(' ')}\n\n` +
        '| scenario | API req/s | bare req/s | ratio | API p50 / p99 ms | bare p50 / p99 ms | SQL statements per request |\n' +
        '|---|---:|---:|---:|---:|---:|---:|\n' +
        `| ${row.name} | ${fmt(row.api.rps)} | ${fmt(row.bare.rps)} | ${(row.api.rps / row.bare.rps).toFixed(2)}x | ${row.api.p50} / ${row.api.p99} | ${row.bare.p50} / ${row.bare.p99} | ${row.sql} |\n`,
    );
    for (const t of ['api', 'bare']) {
      if (Object.keys(row[t].statuses).some((c) => c !== '201') || row[t].errors) process.stdout.write(`  !! [${t}]: statuses ${JSON.stringify(row[t].statuses)}, ${row[t].errors} errors\n`);
    }
    if (opts.json) process.stdout.write(`\n${JSON.stringify({ load: [load0, load1], sqlCounts: { attempt: row.sql, attempt5: smallRun.statements.length }, results: [row] }, null, 2)}\n`);
    if (failed) {
      process.stderr.write('\nnon-201 answers, errors, a growing statement count or missing completions above\n');
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
