#!/usr/bin/env node
'use strict';
/**
 * Live-training registrations under contention (issue 13): the real API against a bare Fastify + pg
 * server that runs the SAME SQL. `--registrations` (1,000) POST /v1/vilt-session-registrations, all
 * sent at once (one connection each), by distinct learners, in two shapes:
 *   - one session: every registration for ONE session of `--seats` (50) seats: 50 accepted, the
 *     rest refused with 400 on vilt_session (every request queues on that session's row lock);
 *   - many sessions: registrations / seats sessions of `--seats` seats each, the registrations spread
 *     evenly so every session fills exactly (contention per session, none across sessions).
 * Each accepted registration, in one transaction: the session and enrollment reads, the learner's
 * lesson progress, then one statement taking the seat by the conditional UPDATE (the session row's
 * lock, held to the commit) with the registration row, the invitation's mail record and the
 * meetings, then VILT_EVENT_REGISTRATION in the outbox; after the commit the mail job goes to Redis (no worker runs)
 * and the registration is read back.
 *
 *   npm run bench -- training
 *   npm run build && node bench/training.js [--registrations 1000] [--seats 50] [--json]
 *
 * One run (as bench/quizzes.js does):
 *  1. a throw-away database `cp_bench_training_<random>` (migrated, dropped at the end) and a unique
 *     REDIS_PREFIX; an organization made by the CLI's code; every fixture through the API: a course
 *     whose only lesson is a VILT lesson, published; the learners (bulk-create), their enrollments
 *     (/v2/enrollments/) and lesson progress (a learner's lessons read makes it); the sessions
 *     (/v1/ilt-sessions, one per run and target, each with `--seats` seats); then VACUUM ANALYZE. The
 *     learners are shared: API and bare server register them into sessions of their own.
 *  2. SQL statements per registration: an API child with DATABASE_LOG_QUERIES=true; one accepted
 *     registration (after a warm-up one) counted, its statements with their parameters kept as the
 *     bare server's script, and one refused registration (a full session) counted.
 *  3. throughput: the API (dist/, NODE_ENV=production, LOG_LEVEL=warn) and a bare Fastify + pg Pool of
 *     the same size (DATABASE_POOL_SIZE) replaying the script per request on one pooled connection:
 *     the recorded learner's ids (user, enrollment, course and lesson progress, public id, e-mail)
 *     and session rewritten to the request's, the ids the INSERTs return carried into the statements
 *     that use them, any other per-request uuid fresh; a session full at the opening read, or no
 *     row from the seat UPDATE (then the API's check that the session still exists), rolls back and
 *     answers 400, as the API does. No auth, no validation, no presentation, no Redis.
 *     Each target: a warm-up of 100 registrations into a session of `--seats`, then the two shapes.
 * Final counts must match exactly for every session of both targets: accepted = min(attempts,
 * seats) = registrations rows = registration_count, the rest 400 on vilt_session, no other answer,
 * and one VILT_EVENT_REGISTRATION per accepted API registration; no session holds more than its
 * seats. A mismatch exits 1.
 */
const { randomUUID } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ROOT, startChild, stopChild, freePort, waitFor, fmt, loggedStatements, benchWorld } = require('./lib');

const json = { 'content-type': 'application/json' };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The statement that takes the seat (with the registration, the mail record and the meetings). */
const SEAT_UPDATE = /^WITH seat AS \( UPDATE vilt_sessions SET registration_count = registration_count \+ 1/;
/** The session read that opens a registration: a full session is refused there, before any write. */
const SESSION_READ = /^SELECT s\.id, s\.lesson_id, s\.seats_total, s\.registration_count/;
const norm = (sql) => sql.replace(/\s+/g, ' ').trim();
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** The learner-specific values of a recorded script (learner X's value -> learner Y's), and the session. */
const KEYS = ['lp', 'user', 'cp', 'enrollment', 'email', 'userPublic', 'session', 'sessionPublic'];

/** A function rewriting a recorded parameter list for another learner and session (`ids`: recorded id -> this request's). */
function rewriter(from, to, constants, ids) {
  const exact = new Map(KEYS.map((k) => [from[k], to[k]]));
  const fresh = new Map();
  const str = (s) => {
    if (exact.has(s)) return exact.get(s);
    if (ids.has(s)) return ids.get(s);
    if (UUID.test(s)) {
      if (constants.has(s)) return s;
      if (!fresh.has(s)) fresh.set(s, randomUUID());
      return fresh.get(s);
    }
    let out = s;
    for (const [a, b] of exact) if (a && a.length >= 8 && out.includes(a)) out = out.split(a).join(b);
    for (const [a, b] of ids) if (out.includes(a)) out = out.split(a).join(b);
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

/**
 * `node bench/training.js --serve-bare PORT` (env BARE_DATABASE_URL, BARE_POOL_SIZE, BARE_SCRIPT):
 * POST /register/:userPublic/:session replays the recorded registration for that learner and session.
 */
async function serveBare(port) {
  const { Pool } = require('pg');
  const pool = new Pool({ connectionString: process.env.BARE_DATABASE_URL, max: Number(process.env.BARE_POOL_SIZE), connectionTimeoutMillis: 120_000 });
  const script = JSON.parse(fs.readFileSync(process.env.BARE_SCRIPT, 'utf8'));
  const constants = new Set(script.constants);
  const byLearner = new Map(script.learners.map((l) => [l.userPublic, l]));
  const app = require('fastify')({ logger: false });
  app.post('/register/:user/:session', async (req, reply) => {
    const learner = byLearner.get(req.params.user);
    if (!learner) return reply.code(404).send({ detail: 'Not found.' });
    const to = { ...learner, session: req.params.session, sessionPublic: script.sessions[req.params.session] };
    const ids = new Map();
    const map = rewriter(script.registration.learner, to, constants, ids);
    const { pre, tx, post } = script.registration;
    // the reads before the transaction, side by side on the pool (as the API sends them); a full session ends there
    const reads = await Promise.all(pre.map((s) => pool.query(s.sql, map(s.params))));
    const opening = reads[pre.findIndex((s) => s.precheck)].rows[0];
    if (opening && opening.seats_total !== null && opening.registration_count >= opening.seats_total) {
      return reply.code(400).send({ vilt_session: ['This session has no seats left.'] });
    }
    const client = await pool.connect();
    try {
      for (const s of tx) {
        const params = map(s.params);
        const r = await client.query(s.sql, params);
        if (s.seat && r.rowCount === 0) {
          // no row from the seat statement: the API tells a deleted session from a full one with one more read
          await client.query(`SELECT 1 FROM vilt_sessions WHERE id = $1 AND organization_id = $2`, [params[0], params[1]]);
          await client.query('ROLLBACK');
          return reply.code(400).send({ vilt_session: ['This session has no seats left.'] });
        }
        // an id the seat statement returned: the recorded one stands for it in the statements after
        if (s.returns && r.rows[0]) for (const [k, rec] of Object.entries(s.returns)) ids.set(rec, r.rows[0][k]);
      }
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
    for (const s of post) await pool.query(s.sql, map(s.params));
    return reply.code(201).send({ user: req.params.user });
  });
  app.get('/', async () => ({ ok: true }));
  await app.listen({ port, host: '127.0.0.1' });
}

function parseArgs(argv) {
  const opts = { registrations: 1000, seats: 50, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--registrations') opts.registrations = Number(argv[++i]);
    else if (a === '--seats') opts.seats = Number(argv[++i]);
    else if (a === '--json') opts.json = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const WARM = 100;
  const many = Math.ceil(opts.registrations / opts.seats);
  const { decodeId, encodeId } = require(path.join(ROOT, 'dist/src/core/ids/ids.js'));
  const { Client } = require('pg');

  const { run, env, config, org, orgUuid, dbUrl, scriptFile, children, startApi, cleanup, load0 } = await benchWorld('training', 'Bench Training Org', {
    // a thousand requests queue for the pool's connections at once: let them wait (the default 5 s
    // would turn the tail of the queue into 503s, the outage answer, which is not what is measured)
    DATABASE_CONNECT_TIMEOUT_MS: '120000',
  });
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
    const setup0 = Date.now();
    const course = must(await a('POST', '/v1/courses', { title: 'Bench live training', short_description: 'S', enforce_sequential_navigation: false }), 'course');
    const lesson = must(await a('POST', '/v1/lessons', { course_id: course.id, order: 1, title: 'Live session', type: 'VILT' }), 'lesson');
    const pc = must(await a('POST', `/v1/domains/${domain}/published-courses`, { course: { id: course.id }, slug: `t-${run}` }), 'publish');
    // learners: the measured registrations, the warm-ups, 3 for the statement counts (shared by API and bare)
    const total = Math.max(opts.registrations, WARM) + 3;
    const emails = Array.from({ length: total }, (_, i) => `learner-${run}-${String(i).padStart(5, '0')}@bench.test`);
    for (let i = 0; i < total; i += 1000) {
      must(await a('POST', `/v1/domains/${domain}/users/bulk-create`, { users: emails.slice(i, i + 1000).map((email) => ({ email, first_name: 'Ada', last_name: 'Lovelace' })) }), 'bulk-create');
    }
    for (let i = 0; i < total; i += 100) {
      const r = await a('POST', '/v2/enrollments/', { published_course_id: pc.id, data: emails.slice(i, i + 100).map((email) => ({ type: 'enrollments', attributes: { email } })) });
      if (r.status !== 200) throw new Error(`enroll: ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`);
    }
    const db = new Client({ connectionString: dbUrl.toString() });
    await db.connect();
    const rows = (
      await db.query(
        `SELECT u.id AS user, u.email, e.id AS enrollment FROM users u JOIN enrollments e ON e.user_id = u.id AND e.organization_id = u.organization_id
          WHERE u.organization_id = $1 AND e.published_course_id = $2 ORDER BY u.email`,
        [orgUuid, decodeId('publishedCourse', pc.id)],
      )
    ).rows;
    await inChunks(rows, 25, async (r) => must(await a('GET', `/v1/users/${encodeId('student', r.user)}/published-courses/${pc.id}/lessons`), 'lessons'));
    const lps = new Map(
      (
        await db.query(
          `SELECT lp.id, lp.user_id, lp.course_progress_id FROM lesson_progress lp JOIN course_progress cp ON cp.id = lp.course_progress_id AND cp.organization_id = lp.organization_id WHERE lp.organization_id = $1 AND cp.published_course_id = $2`,
          [orgUuid, decodeId('publishedCourse', pc.id)],
        )
      ).rows.map((r) => [r.user_id, r]),
    );
    const learners = rows.map((r) => {
      const lp = lps.get(r.user);
      return {
        lp: lp.id,
        user: r.user,
        cp: lp.course_progress_id,
        enrollment: r.enrollment,
        enrollmentPublic: encodeId('enrollment', r.enrollment),
        email: r.email,
        userPublic: encodeId('student', r.user),
      };
    });
    const newSession = async (name, seats = opts.seats) => {
      const s = must(
        await a('POST', '/v1/ilt-sessions', {
          instructor_email: 'Ina Instructor <ina@bench.test>',
          lesson: lesson.id,
          display_name: name,
          starts_at: '2027-05-10T14:00:00Z',
          ends_at: '2027-05-10T15:30:00Z',
          timezone: 'Europe/Berlin',
          location: 'Room 7',
          seats_total: seats,
        }),
        'session',
      );
      return { public: s.vilt_session.id, uuid: decodeId('viltSession', s.vilt_session.id) };
    };
    const sessions = { count: await newSession('count'), full: await newSession('full', 0) };
    for (const t of ['api', 'bare']) {
      sessions[`${t}Warm`] = await newSession(`${t} warm-up`);
      sessions[`${t}One`] = await newSession(`${t} one session`);
      sessions[`${t}Many`] = [];
      for (let i = 0; i < many; i++) sessions[`${t}Many`].push(await newSession(`${t} session ${i + 1}`));
    }
    await db.query('VACUUM ANALYZE');
    const constants = new Set(
      (
        await db.query(
          `SELECT id FROM organizations UNION ALL SELECT id FROM domains UNION ALL SELECT id FROM courses UNION ALL SELECT id FROM lessons
           UNION ALL SELECT id FROM published_courses UNION ALL SELECT id FROM vilt_session_events`,
        )
      ).rows.map((r) => r.id),
    );
    process.stdout.write(`fixtures through the API in ${((Date.now() - setup0) / 1000).toFixed(1)} s (${total} learners, ${4 + 2 * many} sessions of ${opts.seats} seats)\n`);
    await sleep(500);

    // --- 2. SQL statements per registration, kept as the bare server's script ------------------------------
    const register = (url, headers, s, l) => call(url, 'POST', '/v1/vilt-session-registrations', { vilt_session: { id: s.public }, enrollment_id: l.enrollmentPublic }, headers);
    const counted = async (s, l) => {
      const before = api0.child.output.length;
      const r = await register(api0.url, auth, s, l);
      await sleep(300);
      const stmts = loggedStatements(api0.child.output.slice(before));
      // the authentication cache's refresh of the token's client (AUTH_CACHE_SECONDS) is not the operation's work
      return { r, statements: stmts.filter((st) => !st.sql.startsWith('/* unscoped: the client of a verified token')) };
    };
    const show = (name, statements) => {
      process.stdout.write(`  ${name}: ${statements.length}\n`);
      for (const s of statements) process.stdout.write(`      ${s.failed ? 'FAILED ' : ''}${norm(s.sql).slice(0, 110)}${norm(s.sql).length > 110 ? ' ...' : ''}\n`);
    };
    process.stdout.write('\nSQL statements per registration (API with DATABASE_LOG_QUERIES=true):\n');
    const [x, y, z] = learners.slice(-3);
    await counted(sessions.count, y); // warm-up
    const accepted = await counted(sessions.count, x);
    if (accepted.r.status !== 201 || accepted.statements.some((s) => s.failed)) throw new Error(`counted registration: ${accepted.r.status} ${JSON.stringify(accepted.r.body).slice(0, 300)}`);
    show('POST /v1/vilt-session-registrations, accepted', accepted.statements);
    // a session without seats (seats_total 0): a refused registration
    const refused = await counted(sessions.full, z);
    if (refused.r.status !== 400) throw new Error(`refused registration: ${refused.r.status} ${JSON.stringify(refused.r.body).slice(0, 300)}`);
    show(
      'the same, refused (no seat left: 400 on vilt_session)',
      refused.statements.filter((s) => !s.failed),
    );
    // the script: the recorded learner and session; the ids the INSERTs return
    const regId = decodeId('viltRegistration', accepted.r.body.id);
    const statements = accepted.statements.map(({ sql, params }) => {
      const s = { sql, params };
      if (SEAT_UPDATE.test(norm(sql))) s.seat = true;
      if (SESSION_READ.test(norm(sql))) s.precheck = true;
      // the seat statement's mail ids (one per meeting) appear in no later statement
      if (s.seat) s.returns = { registration_id: regId };
      return s;
    });
    if (!statements.some((s) => s.seat) || !statements.some((s) => s.precheck)) throw new Error('the session read or the seat UPDATE is not in the recorded statements');
    const sessionNames = {};
    for (const s of [sessions.bareWarm, sessions.bareOne, ...sessions.bareMany]) sessionNames[s.uuid] = s.public;
    // the statements before START TRANSACTION (the reads), the transaction, and those after COMMIT
    const begin = statements.findIndex((st) => norm(st.sql) === 'START TRANSACTION');
    const commit = statements.findIndex((st) => norm(st.sql) === 'COMMIT');
    if (begin < 0 || commit < begin || !statements.slice(0, begin).some((st) => st.precheck)) throw new Error('unexpected statement order of a registration');
    const script = {
      constants: [...constants],
      learners,
      sessions: sessionNames,
      registration: {
        learner: { ...x, session: sessions.count.uuid, sessionPublic: sessions.count.public },
        pre: statements.slice(0, begin),
        tx: statements.slice(begin, commit + 1),
        post: statements.slice(commit + 1),
      },
    };
    fs.writeFileSync(scriptFile, JSON.stringify(script));
    await stopChild(api0.child);
    await db.end();

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

    /** Every registration at once (one connection each); latencies, answers, wall time. */
    const fire = async (target, pairs) => {
      const latencies = [];
      const answers = {};
      const t0 = performance.now();
      await Promise.all(
        pairs.map(async ([s, l]) => {
          const t1 = performance.now();
          const r = target === 'api' ? await register(api.url, auth, s, l) : await call(bareUrl, 'POST', `/register/${l.userPublic}/${s.uuid}`, {});
          latencies.push(performance.now() - t1);
          const key = r.status === 400 ? `400 ${Object.keys(r.body ?? {}).join(',')}` : String(r.status);
          answers[key] = (answers[key] ?? 0) + 1;
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      latencies.sort((p, q) => p - q);
      return {
        rps: pairs.length / seconds,
        p50: Number(pct(latencies, 50).toFixed(1)),
        p99: Number(pct(latencies, 99).toFixed(1)),
        max: Number(latencies[latencies.length - 1].toFixed(1)),
        seconds: Number(seconds.toFixed(3)),
        answers,
      };
    };
    const measured = learners.slice(0, opts.registrations);
    const shapes = [
      { key: 'one', name: `${opts.registrations} parallel registrations into ONE session of ${opts.seats} seats`, sessions: (t) => [sessions[`${t}One`]] },
      { key: 'many', name: `${opts.registrations} parallel registrations into ${many} sessions of ${opts.seats} seats`, sessions: (t) => sessions[`${t}Many`] },
    ];
    const results = [];
    for (const shape of shapes) results.push({ name: shape.name, key: shape.key });
    for (const target of ['api', 'bare']) {
      await fire(
        target,
        learners.slice(0, WARM).map((l) => [sessions[`${target}Warm`], l]),
      );
      for (const [i, shape] of shapes.entries()) {
        const ss = shape.sessions(target);
        results[i][target] = await fire(
          target,
          measured.map((l, k) => [ss[k % ss.length], l]),
        );
      }
    }

    // --- 4. final counts: exact, per session -------------------------------------------------------------
    const c2 = new Client({ connectionString: dbUrl.toString() });
    await c2.connect();
    const per = new Map(
      (
        await c2.query(
          `SELECT s.id, s.seats_total, s.registration_count, (SELECT count(*)::int FROM vilt_session_registrations r WHERE r.organization_id = s.organization_id AND r.session_id = s.id) AS registrations
             FROM vilt_sessions s WHERE s.organization_id = $1`,
          [orgUuid],
        )
      ).rows.map((r) => [r.id, r]),
    );
    // one VILT_EVENT_REGISTRATION per registration of every session (the bare server writes the same events)
    const events = new Map(
      (
        await c2.query(`SELECT payload->'vilt_session'->>'id' AS session, count(*)::int AS n FROM outbox_events WHERE organization_id = $1 AND event_type = 'VILT_EVENT_REGISTRATION' GROUP BY 1`, [
          orgUuid,
        ])
      ).rows.map((r) => [decodeId('viltSession', r.session), r.n]),
    );
    const overfull = [...per.values()].filter((s) => s.registration_count > s.seats_total || s.registrations > s.seats_total);
    await c2.end();
    const checks = [];
    for (const target of ['api', 'bare']) {
      const warm = per.get(sessions[`${target}Warm`].uuid);
      const exp = Math.min(WARM, opts.seats);
      checks.push({ what: `${target} warm-up session`, ok: warm.registrations === exp && warm.registration_count === exp });
      for (const [i, shape] of shapes.entries()) {
        const ss = shape.sessions(target);
        const attempts = ss.map((_, k) => measured.filter((__, j) => j % ss.length === k).length);
        const expected = attempts.map((n) => Math.min(n, opts.seats));
        const sum = expected.reduce((p, q) => p + q, 0);
        const got = ss.map((s) => per.get(s.uuid));
        const ans = results[i][target].answers;
        const ok =
          got.every((g, k) => g.registrations === expected[k] && g.registration_count === expected[k]) &&
          (ans['201'] ?? 0) === sum &&
          (ans['400 vilt_session'] ?? 0) === opts.registrations - sum &&
          Object.keys(ans).every((k) => k === '201' || k === '400 vilt_session');
        results[i][target].accepted = ans['201'] ?? 0;
        results[i][target].refused = ans['400 vilt_session'] ?? 0;
        results[i][target].counts_match = ok;
        checks.push({ what: `${target} ${shape.key}`, ok });
      }
    }
    const eventGaps = [...per.values()].filter((x) => (events.get(x.id) ?? 0) !== x.registrations);
    checks.push({ what: 'one VILT_EVENT_REGISTRATION per registration, in every session', ok: eventGaps.length === 0 && events.size > 0 });
    checks.push({ what: 'no session holds more than its seats', ok: overfull.length === 0 });
    const countsMatch = checks.every((c) => c.ok);
    if (!countsMatch) failed = true;

    const load1 = os.loadavg();
    process.stdout.write(
      `load average at the end ${load1.map((l) => l.toFixed(2)).join(' ')}\n\n` +
        '| scenario | API registrations/s | bare registrations/s | ratio | API p50 / p99 / max ms | bare p50 / p99 / max ms | accepted / refused (API, bare) | SQL statements per registration (accepted / refused) |\n' +
        '|---|---:|---:|---:|---:|---:|---|---:|\n' +
        results
          .map(
            (r) =>
              `| ${r.name} | ${fmt(r.api.rps, 1)} | ${fmt(r.bare.rps, 1)} | ${(r.api.rps / r.bare.rps).toFixed(2)}x | ${r.api.p50} / ${r.api.p99} / ${r.api.max} | ${r.bare.p50} / ${r.bare.p99} / ${r.bare.max} | ` +
              `${r.api.accepted} / ${r.api.refused}, ${r.bare.accepted} / ${r.bare.refused} | ${accepted.statements.length} / ${refused.statements.filter((s) => !s.failed).length} |`,
          )
          .join('\n') +
        '\n\n' +
        checks.map((c) => `  ${c.ok ? 'ok ' : '!! '} ${c.what}`).join('\n') +
        `\n  final counts ${countsMatch ? 'match' : 'MISMATCH'}\n`,
    );
    if (opts.json) {
      process.stdout.write(
        `\n${JSON.stringify(
          {
            load: [load0, load1],
            sqlCounts: { accepted: accepted.statements.length, refused: refused.statements.filter((s) => !s.failed).length },
            counts_match: countsMatch,
            results: results.map((r) => ({
              name: r.name,
              api: { rps: r.api.rps, p50: r.api.p50, p99: r.api.p99 },
              bare: { rps: r.bare.rps, p50: r.bare.p50, p99: r.bare.p99 },
              goal: `registrations/s; ${r.api.accepted} accepted / ${r.api.refused} refused; counts ${r.api.counts_match && r.bare.counts_match && countsMatch ? 'match' : 'MISMATCH'}, no session over its seats`,
              detail: r,
            })),
          },
          null,
          2,
        )}\n`,
      );
    }
    if (failed) {
      process.stderr.write('\nfinal counts do not match (see above)\n');
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
    process.stderr.write(`${e.stack ?? e}\n`);
    process.exit(1);
  });
}
