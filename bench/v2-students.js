#!/usr/bin/env node
'use strict';
/**
 * /v2 students: the real API against a bare Fastify + pg server that runs the SAME SQL, with
 * autocannon, for five operations: read one, list a keyset page of 100, batch-create 100 (without
 * and with a fresh Idempotency-Key per request), batch-update 100. Also counts the SQL statements the API sends per request of each kind. Plain Node,
 * CommonJS; runs on the compiled code (`npm run bench` builds first and runs it as `v2-students`).
 *
 *   npm run bench -- v2-students
 *   npm run build && node bench/v2-students.js [--duration 10] [--connections 50] [--students 10000] [--only list] [--json]
 *     [--cpu-prof DIR]   (CPU profile of the API child of the throughput runs, written to DIR when it stops)
 *   BENCH_DURATION=5 BENCH_CONNECTIONS=20 node bench/v2-students.js
 *
 * One run:
 *  1. a throw-away database `cp_bench_students_<random>` (created, migrated, dropped at the end) and a
 *     unique REDIS_PREFIX (keys removed at the end); an organization made by the CLI's code, a token
 *     with students:read + students:write, `--students` students seeded through POST /v2/students/,
 *     then VACUUM ANALYZE users (without statistics the planner takes the fresh table for nearly
 *     empty: the list sorts all of the organization's rows and the update plans collapse under load);
 *  2. SQL statements per request: a first API child with DATABASE_LOG_QUERIES=true (TypeORM logs
 *     every statement to its stdout as `query: ...`); one request of each kind after a warm-up
 *     request, the `query:` lines written meanwhile counted; then one read after AUTH_CACHE_SECONDS
 *     idle (authentication cache expired). Also checks that each statement of the bare server below
 *     appears verbatim in that log. That child is stopped before the throughput runs;
 *  3. throughput: the API (dist/, NODE_ENV=production, LOG_LEVEL=warn, no query logging) and, in
 *     another child process, a bare Fastify + pg Pool of the same size (DATABASE_POOL_SIZE) serving
 *     the same statements (copied from students.service.ts / TypeORM's generated SQL; no auth, no
 *     validation, no presentation; the organization id is fixed at start), and a second bare server,
 *     the same code with every statement a pg named (prepared) statement (BARE_PREPARED=1): the
 *     API prepares its read and list (StudentsService), so both bare variants are reported. For
 *     each operation, API, bare, bare prepared: 2 s warm-up, then `--duration` s with
 *     `--connections` connections.
 *     Batch create sends 100 fresh emails per request (autocannon setupRequest); batch update sends
 *     100 existing students per request, rotating over disjoint slices of the seeded students so that
 *     concurrent requests rarely wait for each other's row locks (with 10,000 students, 100 slices for
 *     50 connections).
 * Every answer must be 200 (a 207 means some batch item failed): anything else is reported and the
 * exit code is 1.
 */
const { createHash, randomUUID } = require('node:crypto');
const os = require('node:os');
const path = require('node:path');

const { ROOT, startChild, stopChild, freePort, waitFor, runAutocannon, fmt, benchWorld } = require('./lib');

// ---------------------------------------------------------------------------------------------
// The SQL. Read and list are the fixed statements of StudentsService.get and StudentsService.list
// (first page, no filter); create and update are the raw statements of createMany / updateMany. The
// bench checks each against the API's log.
// ---------------------------------------------------------------------------------------------

const STUDENT_COLUMNS =
  'id, organization_id, email, first_name, last_name, external_id, is_inactive, is_anonymized, sso_provider, password_changed_at, deactivated_at, anonymized_at, created_at, updated_at';
const NOW = `date_trunc('milliseconds', now())`;

const SQL_READ = `SELECT ${STUDENT_COLUMNS} FROM users WHERE id = $1 AND organization_id = $2`;

// the limit is a parameter ($1, size + 1) and the organization comes last, as StudentsService binds them
const SQL_LIST = `SELECT ${STUDENT_COLUMNS} FROM users WHERE organization_id = $2 ORDER BY created_at ASC, id ASC LIMIT $1`;

const SQL_CREATE = `INSERT INTO users (id, organization_id, email, first_name, last_name, external_id)
         SELECT v.id, $6::uuid, v.email, v.first_name, v.last_name, v.external_id
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[]) AS v(id, email, first_name, last_name, external_id)
         ON CONFLICT (organization_id, lower(email)) DO NOTHING
         RETURNING ${STUDENT_COLUMNS}`;

const SQL_UPDATE = `UPDATE users u SET
            first_name = COALESCE(v.first_name, u.first_name),
            last_name = COALESCE(v.last_name, u.last_name),
            is_inactive = COALESCE(v.is_inactive, u.is_inactive),
            deactivated_at = CASE WHEN v.is_inactive IS TRUE AND NOT u.is_inactive THEN ${NOW}
                                  WHEN v.is_inactive IS FALSE THEN NULL
                                  ELSE u.deactivated_at END,
            updated_at = ${NOW}
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::boolean[]) AS v(id, first_name, last_name, is_inactive)
          WHERE u.id = v.id AND u.organization_id = $5
            AND NOT u.is_anonymized AND u.sso_provider IS NULL
            AND (NOT u.is_inactive OR (v.is_inactive IS FALSE AND v.first_name IS NULL AND v.last_name IS NULL))
        RETURNING ${STUDENT_COLUMNS.split(', ')
          .map((c) => `u.${c}`)
          .join(', ')}`;

// The two statements of a keyed write (core/idempotency/idempotency.service.ts CLAIM and COMPLETE,
// `$org` bound last as bindOrg binds it): the claim before the create, the store of the answer after.
const SQL_CLAIM = `WITH claim AS (
           INSERT INTO idempotency_keys AS k (organization_id, lookup, claim_id, fingerprint, expires_at, owner)
           VALUES ($7, $1, $2, $3, now() + make_interval(secs => $4), $6)
           ON CONFLICT (organization_id, lookup) DO UPDATE
              SET claim_id = EXCLUDED.claim_id, fingerprint = EXCLUDED.fingerprint, status = NULL, headers = NULL, body = NULL, sealed = false,
                  created_at = now(), expires_at = EXCLUDED.expires_at, owner = EXCLUDED.owner, committed_at = NULL, answer_ref = NULL
            WHERE k.expires_at <= now()
               OR (k.status IS NULL AND k.committed_at IS NULL
                   AND (k.created_at < now() - make_interval(secs => $5) OR pg_try_advisory_xact_lock(k.owner)))
           RETURNING 1
         )
         SELECT true AS claimed, NULL::bytea AS fingerprint, NULL::smallint AS status, NULL::jsonb AS headers, NULL::bytea AS body, NULL::boolean AS sealed,
                NULL::uuid AS claim_id, NULL::jsonb AS answer_ref, false AS lost FROM claim
         UNION ALL
         SELECT false, k.fingerprint, k.status, k.headers, k.body, k.sealed, k.claim_id, k.answer_ref,
                (k.status IS NULL AND k.committed_at IS NOT NULL
                 AND (k.created_at < now() - make_interval(secs => $5) OR coalesce(pg_try_advisory_xact_lock(k.owner), false))) FROM idempotency_keys k
          WHERE k.organization_id = $7 AND k.lookup = $1 AND NOT EXISTS (SELECT 1 FROM claim)`;
const SQL_COMPLETE = `UPDATE idempotency_keys SET status = $3, headers = $4, body = $5, sealed = $6 WHERE organization_id = $7 AND lookup = $1 AND claim_id = $2`;

/** Copy of students.service.ts uuidV5 (the external_id of a created student). */
const EXTERNAL_ID_NAMESPACE = '5b0e8c1e-3f5e-4d8a-9a57-6c1f2b7c9d10';
function uuidV5(namespace, name) {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const h = createHash('sha1').update(ns).update(name, 'utf8').digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * `node bench/v2-students.js --serve-bare PORT` (env BARE_DATABASE_URL, BARE_POOL_SIZE, BARE_ORG,
 * BARE_PREPARED): the baseline. Same statements, same pool size, same request bodies (JSON:API
 * envelopes), rows answered as they come from pg. BARE_PREPARED=1: every statement as a pg named
 * (prepared) statement, the second bare variant.
 */
async function serveBare(port) {
  const { Pool } = require('pg');
  const raw = new Pool({ connectionString: process.env.BARE_DATABASE_URL, max: Number(process.env.BARE_POOL_SIZE) });
  const names = new Map([
    [SQL_READ, 'bare_read'],
    [SQL_LIST, 'bare_list'],
    [SQL_CREATE, 'bare_create'],
    [SQL_UPDATE, 'bare_update'],
    [SQL_CLAIM, 'bare_claim'],
    [SQL_COMPLETE, 'bare_complete'],
  ]);
  const pool = process.env.BARE_PREPARED === '1' ? { query: (text, values) => raw.query({ name: names.get(text), text, values }) } : raw;
  const org = process.env.BARE_ORG;
  const app = require('fastify')({ logger: false, bodyLimit: 1024 * 1024 });
  app.get('/students/:id', async (req, reply) => {
    const { rows } = await pool.query(SQL_READ, [req.params.id, org]);
    if (!rows.length) return reply.code(404).send({ errors: [{ status: '404' }] });
    return { data: rows[0] };
  });
  app.get('/students', async (req) => {
    const size = Number(req.query.size ?? 25);
    const { rows } = await pool.query(SQL_LIST, [size + 1, org]);
    return { data: rows.slice(0, size), has_more: rows.length > size };
  });
  app.post('/students', async (req, reply) => {
    const items = req.body.data;
    // with an Idempotency-Key: the same claim and store as the API (the key's lookup and the
    // request's fingerprint as SHA-256, the answer stored as its bytes), around the same create
    const key = req.headers['idempotency-key'];
    let claim;
    if (typeof key === 'string') {
      claim = { lookup: createHash('sha256').update(`bench:POST:/students:${key}`).digest(), id: randomUUID() };
      const fingerprint = createHash('sha256').update(JSON.stringify(req.body)).digest();
      const [row] = (await pool.query(SQL_CLAIM, [claim.lookup, claim.id, fingerprint, 86400, 60, '1', org])).rows;
      if (!row?.claimed) return reply.code(409).send({ errors: [{ status: '409' }] });
    }
    const ids = items.map(() => randomUUID());
    // the organization comes last: scoped(ds, org) binds it after the caller's parameters
    const { rows } = await pool.query(SQL_CREATE, [
      ids,
      items.map((i) => i.attributes.email.toLowerCase()),
      items.map((i) => i.attributes.first_name ?? ''),
      items.map((i) => i.attributes.last_name ?? ''),
      ids.map((id) => uuidV5(EXTERNAL_ID_NAMESPACE, id)),
      org,
    ]);
    if (!claim) return { data: rows };
    const body = Buffer.from(JSON.stringify({ data: rows }));
    await pool.query(SQL_COMPLETE, [claim.lookup, claim.id, 200, { 'content-type': 'application/json; charset=utf-8' }, body, false, org]);
    return reply.type('application/json; charset=utf-8').send(body);
  });
  app.patch('/students', async (req) => {
    const items = req.body.data;
    const { rows } = await pool.query(SQL_UPDATE, [
      items.map((i) => i.id),
      items.map((i) => i.attributes.first_name ?? null),
      items.map((i) => i.attributes.last_name ?? null),
      items.map((i) => i.attributes.is_inactive ?? null),
      org,
    ]);
    return { data: rows };
  });
  app.get('/', async () => ({ ok: true }));
  await app.listen({ port, host: '127.0.0.1' });
}

// ---------------------------------------------------------------------------------------------
// Operations: the request each target gets. `s` holds the seeded students ({ id, uuid }).
// ---------------------------------------------------------------------------------------------

const BATCH = 100;
const json = { 'content-type': 'application/json' };

function createBody(prefix, n) {
  const data = [];
  for (let i = 0; i < BATCH; i++) {
    data.push({ type: 'students', attributes: { email: `${prefix}-${n}-${i}@bench.test`, first_name: `First${i}`, last_name: `Last${n}` } });
  }
  return JSON.stringify({ data });
}

function updateBody(students, slice, n, useUuid) {
  const data = [];
  const start = (slice * BATCH) % students.length;
  for (let i = 0; i < BATCH; i++) {
    const s = students[(start + i) % students.length];
    data.push({ type: 'students', id: useUuid ? s.uuid : s.id, attributes: { first_name: `Upd${n}`, last_name: `L${i}` } });
  }
  return JSON.stringify({ data });
}

const OPERATIONS = [
  {
    name: 'GET /v2/students/{id}',
    key: 'read',
    // rotate over the seeded students
    api: (st, n) => ({ method: 'GET', path: `/v2/students/${st.students[n % st.students.length].id}` }),
    bare: (st, n) => ({ method: 'GET', path: `/students/${st.students[n % st.students.length].uuid}` }),
  },
  {
    name: 'GET /v2/students/?page[size]=100',
    key: 'list',
    api: () => ({ method: 'GET', path: '/v2/students/?page[size]=100' }),
    bare: () => ({ method: 'GET', path: '/students?size=100' }),
  },
  {
    name: 'POST /v2/students/ (100 items)',
    key: 'create',
    api: (st, n) => ({ method: 'POST', path: '/v2/students/', headers: json, body: createBody(`a${st.run}`, n) }),
    bare: (st, n) => ({ method: 'POST', path: '/students', headers: json, body: createBody(`b${st.run}`, n) }),
  },
  {
    // the same batch create with a fresh Idempotency-Key per request; the bare server runs the same
    // claim and store around its create (the issue's baseline: the same SQL)
    name: 'POST /v2/students/ (100 items, Idempotency-Key)',
    key: 'create-idem',
    api: (st, n) => ({ method: 'POST', path: '/v2/students/', headers: { ...json, 'idempotency-key': `bench-${st.run}-${n}` }, body: createBody(`k${st.run}`, n) }),
    bare: (st, n) => ({ method: 'POST', path: '/students', headers: { ...json, 'idempotency-key': `bare-${st.run}-${n}` }, body: createBody(`c${st.run}`, n) }),
  },
  {
    name: 'PATCH /v2/students/ (100 items)',
    key: 'update',
    api: (st, n) => ({ method: 'PATCH', path: '/v2/students/', headers: json, body: updateBody(st.students, n, n, false) }),
    bare: (st, n) => ({ method: 'PATCH', path: '/students', headers: json, body: updateBody(st.students, n, n, true) }),
  },
];

// ---------------------------------------------------------------------------------------------
// Machinery (as bench/http.js)
// ---------------------------------------------------------------------------------------------

/** Node options of a profiled API child: the profile is written at exit, so SIGTERM exits at once (0). */
const PROFILE_ARGS = (dir) => ['--cpu-prof', '--cpu-prof-dir', dir, '--import', 'data:text/javascript,process.prependListener("SIGTERM",()=>process.exit(0))'];

function parseArgs(argv) {
  const opts = {
    duration: Number(process.env.BENCH_DURATION ?? 10),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
    students: 10000,
    only: null,
    json: false,
    cpuProf: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--duration') opts.duration = Number(argv[++i]);
    else if (a === '--connections') opts.connections = Number(argv[++i]);
    else if (a === '--students') opts.students = Number(argv[++i]);
    else if (a === '--only') opts.only = argv[++i];
    else if (a === '--json') opts.json = true;
    else if (a === '--cpu-prof') opts.cpuProf = path.resolve(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  if (!(opts.students >= BATCH)) throw new Error(`--students must be at least ${BATCH}`);
  return opts;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The statements in a chunk of the logging child's stdout: one `query: <sql> -- PARAMETERS: ...` entry each (SQL may span lines). */
function loggedStatements(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('query failed: ')) out.push({ failed: true, sql: line.slice('query failed: '.length) });
    else if (line.startsWith('query: ')) out.push({ failed: false, sql: line.slice('query: '.length) });
    else if (out.length && !line.startsWith('{') && !line.startsWith('error:')) out[out.length - 1].sql += `\n${line}`;
  }
  return out.map((s) => ({ ...s, sql: s.sql.replace(/ -- PARAMETERS: [\s\S]*$/, '') }));
}

const norm = (sql) => sql.replace(/\s+/g, ' ').trim();

// ---------------------------------------------------------------------------------------------

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const ops = OPERATIONS.filter((o) => !opts.only || o.key === opts.only || o.name.includes(opts.only));

  // compiled code (npm run bench builds first)
  const { decodeId } = require(path.join(ROOT, 'dist/src/core/ids/ids.js'));

  const { run, env, config, org, orgUuid, dbUrl, children, startApi: startWorldApi, cleanup, load0 } = await benchWorld('students', 'Bench Students Org');
  let failed = false;
  try {
    /** Start an API child; `logQueries` pipes its stdout to count statements. */
    const startApi = (logQueries) => startWorldApi(logQueries, opts.cpuProf && !logQueries ? PROFILE_ARGS(opts.cpuProf) : []);
    const call = async (url, method, p, body, headers = {}) => {
      const res = await fetch(url + p, {
        method,
        headers: body === undefined ? headers : { ...json, ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };

    // --- 1. SQL statements per request (API child with query logging) -------------------------
    const counting = await startApi(true);
    /** A token with students:read + students:write from that API child (its PUBLIC_URL is the issuer). */
    const tokenFrom = async (url) => {
      const res = await call(url, 'POST', '/v2/auth/token', { client_id: org.client_id, client_secret: org.client_secret, scope: 'students:read students:write' });
      if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { authorization: `Bearer ${res.body.access_token}` };
    };
    let auth = await tokenFrom(counting.url);

    // seed through the API (100 per request); collect public ids and uuids
    const st = { run, students: [] };
    for (let n = 0; st.students.length < opts.students; n++) {
      const r = await call(counting.url, 'POST', '/v2/students/', createBody(`seed${run}`, n), auth);
      if (r.status !== 200) throw new Error(`seeding failed: ${r.status} ${JSON.stringify(r.body).slice(0, 500)}`);
      for (const d of r.body.data) st.students.push({ id: d.id, uuid: decodeId('student', d.id) });
    }
    // planner statistics for the seeded table, as a table in use has them (autovacuum would ANALYZE
    // it within a minute or so; without them the first statements plan for an empty table)
    {
      const { Client } = require('pg');
      const c = new Client({ connectionString: dbUrl.toString() });
      await c.connect();
      await c.query('VACUUM ANALYZE users').finally(() => c.end());
    }
    // wait for the seeding's log lines, then measure on a quiet process
    await sleep(500);

    const sqlCounts = {};
    const sqlSeen = {};
    const counted = async (req) => {
      const before = counting.child.output.length;
      const r = await call(counting.url, req.method, req.path, req.body, { ...(req.headers ?? {}), ...auth });
      await sleep(300);
      return { r, statements: loggedStatements(counting.child.output.slice(before)) };
    };
    process.stdout.write(`\nSQL statements per request (API with DATABASE_LOG_QUERIES=true; ${opts.students} students seeded):\n`);
    let k = 1_000_000;
    for (const op of ops) {
      await counted(op.api(st, k++)); // warm-up: caches, prepared paths
      const { r, statements } = await counted(op.api(st, k++));
      if (r.status !== 200) {
        failed = true;
        process.stdout.write(`  !! ${op.name}: answered ${r.status} ${JSON.stringify(r.body).slice(0, 300)}\n`);
      }
      sqlCounts[op.key] = statements.length;
      sqlSeen[op.key] = statements;
      process.stdout.write(`  ${op.name}: ${statements.length}\n`);
      for (const s of statements) process.stdout.write(`      ${s.failed ? 'FAILED ' : ''}${norm(s.sql).slice(0, 110)}${norm(s.sql).length > 110 ? ' ...' : ''}\n`);
    }
    // authentication cache miss: after AUTH_CACHE_SECONDS the client state is read again
    if (ops[0]) {
      await sleep(config.AUTH_CACHE_SECONDS * 1000 + 500);
      const { statements } = await counted(ops[0].api(st, k++));
      sqlCounts.authMiss = statements.length;
      process.stdout.write(`  ${ops[0].name} after ${config.AUTH_CACHE_SECONDS} s idle (auth cache expired): ${statements.length}\n`);
      for (const s of statements) process.stdout.write(`      ${norm(s.sql).slice(0, 110)}\n`);
    }
    // the bare server must run what the API runs
    const expect = { read: [SQL_READ], list: [SQL_LIST], create: [SQL_CREATE], 'create-idem': [SQL_CLAIM, SQL_CREATE, SQL_COMPLETE], update: [SQL_UPDATE] };
    for (const op of ops) {
      const same = expect[op.key].every((sql) => sqlSeen[op.key].some((s) => norm(s.sql) === norm(sql)));
      process.stdout.write(`  bare ${op.key} statement(s) found verbatim in the API's log: ${same ? 'yes' : 'NO'}\n`);
      if (!same) failed = true;
    }
    await stopChild(counting.child);

    // --- 2. throughput: API (no query logging) and the bare server ------------------------------
    const api = await startApi(false);
    auth = await tokenFrom(api.url);
    const barePort = await freePort();
    const bareEnv = { ...process.env, BARE_DATABASE_URL: dbUrl.toString(), BARE_POOL_SIZE: String(config.DATABASE_POOL_SIZE), BARE_ORG: orgUuid };
    const bare = startChild([__filename, '--serve-bare', String(barePort)], bareEnv);
    children.push(bare);
    await waitFor(`http://127.0.0.1:${barePort}/`, bare, 'the bare server');
    const bareUrl = `http://127.0.0.1:${barePort}`;
    // the second bare variant: the same server with every statement prepared (pg named queries)
    const preparedPort = await freePort();
    const barePrepared = startChild([__filename, '--serve-bare', String(preparedPort)], { ...bareEnv, BARE_PREPARED: '1' });
    children.push(barePrepared);
    await waitFor(`http://127.0.0.1:${preparedPort}/`, barePrepared, 'the bare server (prepared)');
    const barePreparedUrl = `http://127.0.0.1:${preparedPort}`;

    process.stdout.write(
      `\n${opts.connections} connections, 2 s warm-up + ${opts.duration} s per run, Node ${process.version}, ` +
        `pool ${config.DATABASE_POOL_SIZE} connections each, load average at start ${load0.map((l) => l.toFixed(2)).join(' ')}\n\n`,
    );
    const results = [];
    let n = 0;
    for (const op of ops) {
      const row = { name: op.name, key: op.key, sql: sqlCounts[op.key] };
      for (const target of ['api', 'bare', 'bare_prepared']) {
        const url = target === 'api' ? api.url : target === 'bare' ? bareUrl : barePreparedUrl;
        const make = target === 'api' ? op.api : op.bare;
        const first = make(st, n);
        const headers = target === 'api' ? { ...(first.headers ?? {}), ...auth } : first.headers;
        const ac = (duration) => ({
          url,
          connections: opts.connections,
          duration,
          requests: [
            {
              method: first.method,
              path: first.path,
              headers,
              // a fresh path/body per request (unique emails, rotating ids and slices)
              setupRequest: (req) => {
                const r = make(st, n++);
                return { ...req, path: r.path, body: r.body, headers: r.headers ? { ...req.headers, ...r.headers } : req.headers };
              },
            },
          ],
        });
        await runAutocannon(ac(2));
        const r = await runAutocannon(ac(opts.duration));
        const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([c, v]) => [c, v.count]));
        const bad = Object.entries(statuses).filter(([c]) => c !== '200');
        row[target] = {
          rps: r.requests.average,
          p50: r.latency.p50,
          p99: r.latency.p99,
          requests: r.requests.total,
          errors: r.errors + r.timeouts,
          statuses,
          eventLoop: r.eventLoop ?? null,
          cpuUs: r.cpu ? r.cpu.usPerRequest : null,
        };
        if (bad.length || r.errors || r.timeouts) failed = true;
        process.stdout.write(
          `  ${op.name} [${target}]: ${fmt(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms` +
            `${r.eventLoop ? `, event-loop delay p99 ${r.eventLoop.p99} ms, max ${r.eventLoop.max} ms` : ''}` +
            `${r.eventLoop?.gc ? `, GC ${r.eventLoop.gc.count} pauses (${r.eventLoop.gc.major} major) ${r.eventLoop.gc.totalMs} ms, longest ${r.eventLoop.gc.maxMs} ms` : ''}` +
            `${r.cpu ? `, server CPU ${r.cpu.usPerRequest} us/request` : ''}` +
            `${bad.length || r.errors || r.timeouts ? `  (!! statuses ${JSON.stringify(statuses)}, ${r.errors} errors, ${r.timeouts} timeouts)` : ''}\n`,
        );
      }
      results.push(row);
    }
    const load1 = os.loadavg();

    process.stdout.write(
      `\nload average at the end ${load1.map((l) => l.toFixed(2)).join(' ')}\n\n` +
        '| operation | API req/s | bare req/s | ratio | bare prepared req/s | ratio vs prepared | API p50 / p99 ms | bare p50 / p99 ms | bare prepared p50 / p99 ms | SQL statements per request |\n' +
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n',
    );
    for (const r of results) {
      const bp = r.bare_prepared;
      process.stdout.write(
        `| ${r.name} | ${fmt(r.api.rps)} | ${fmt(r.bare.rps)} | ${(r.api.rps / r.bare.rps).toFixed(2)}x | ${fmt(bp.rps)} | ${(r.api.rps / bp.rps).toFixed(2)}x | ` +
          `${r.api.p50} / ${r.api.p99} | ${r.bare.p50} / ${r.bare.p99} | ${bp.p50} / ${bp.p99} | ${r.sql} |\n`,
      );
    }
    if (opts.json) process.stdout.write(`\n${JSON.stringify({ load: [load0, load1], sqlCounts, results }, null, 2)}\n`);
    if (failed) {
      process.stderr.write('\nnon-200 answers, errors or SQL mismatches above\n');
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
