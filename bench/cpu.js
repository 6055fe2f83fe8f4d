#!/usr/bin/env node
/* eslint-disable */
'use strict';
/**
 * CPU per request, in-process, without the network: the API (dist/, production mode) and a bare
 * Fastify serving the same bodies, both driven by fastify.inject in this process, one after the
 * other; process.cpuUsage() over N requests. Of all the figures this one moves least with the
 * machine's load (no socket, no scheduling between a load generator and a server), so it is the
 * one to compare builds with on a shared machine. Also counts the promises created per request (an
 * async-hook round each while the request's logging context, an AsyncLocalStorage, is on).
 *
 *   npm run build && node bench/cpu.js [--json] [--requests 4000] [token|scopes|jwks|student|group ...]
 *
 * A throw-away database `cp_bench_cpu_<random>` (created, migrated, dropped at the end), a unique
 * REDIS_PREFIX, an organization made by the CLI's code.
 */
require('reflect-metadata');
const { randomBytes } = require('node:crypto');
const { createHook } = require('node:async_hooks');
const path = require('node:path');
const { ROOT, dropBenchDb, dropRedisPrefix, fmt } = require('./lib');

const argv = process.argv.slice(2);
const JSON_OUT = argv.includes('--json');
const N = Number(argv[argv.indexOf('--requests') + 1]) || 4000;
const only = argv.filter((a) => !a.startsWith('-') && !/^\d+$/.test(a));

async function measure(f, make) {
  for (let i = 0; i < 1000; i++) {
    const r = await f.inject(make());
    if (r.statusCode !== 200) throw new Error(`${make().url}: ${r.statusCode} ${r.body.slice(0, 300)}`);
  }
  let promises = 0;
  const hook = createHook({ init: (_id, type) => type === 'PROMISE' && promises++ });
  hook.enable();
  for (let i = 0; i < 100; i++) await f.inject(make());
  hook.disable();
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await f.inject(make());
  const c = process.cpuUsage(c0);
  return { cpuUs: Math.round((c.user + c.system) / N), promises: promises / 100 };
}

async function main() {
  const { loadConfig } = require(path.join(ROOT, 'dist/src/core/config/config.js'));
  const { migrate } = require(path.join(ROOT, 'dist/src/core/database/database.js'));
  const { runCli } = require(path.join(ROOT, 'dist/src/cli.js'));
  const { createApp } = require(path.join(ROOT, 'dist/src/app.factory.js'));
  const { SCOPE_CODENAMES, SCOPE_PRESETS, describeScope } = require(path.join(ROOT, 'dist/src/core/auth/scopes.js'));

  const base = loadConfig(process.env);
  const run = randomBytes(4).toString('hex');
  const dbName = `cp_bench_cpu_${run}`;
  const dbUrl = new URL(base.DATABASE_URL);
  dbUrl.pathname = `/${dbName}`;
  const adminUrl = new URL(base.DATABASE_URL);
  adminUrl.pathname = '/postgres';
  const redisPrefix = `cpbench_${run}`;
  let app;
  try {
    const env = {
      ...process.env,
      NODE_ENV: 'production',
      APP_SECRET: randomBytes(32).toString('hex'),
      DATABASE_URL: dbUrl.toString(),
      DATABASE_LOG_QUERIES: 'false',
      REDIS_PREFIX: redisPrefix,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      PUBLIC_URL: 'http://127.0.0.1:1',
    };
    const config = loadConfig(env);
    await migrate(config);
    const org = await runCli(['create-org', '--name', 'Bench CPU Org'], config);
    app = await createApp(config);
    await app.init();
    const f = app.getHttpAdapter().getInstance();
    await f.ready();

    const catalog = JSON.stringify({ data: SCOPE_CODENAMES.map((c) => ({ type: 'scopes', id: c, attributes: describeScope(c) })), meta: { presets: SCOPE_PRESETS } });

    const tokenBody = JSON.stringify({ client_id: org.client_id, client_secret: org.client_secret });
    const tokenReq = () => ({ method: 'POST', url: '/v2/auth/token', headers: { 'content-type': 'application/json' }, payload: tokenBody });
    const token = JSON.parse((await f.inject(tokenReq())).body).access_token;
    // one student, read through the API and by a bare route running the same statement on its own pg pool
    const made = await f.inject({
      method: 'POST',
      url: '/v2/students/',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: JSON.stringify({ data: [{ type: 'students', attributes: { email: `cpu-${run}@bench.test`, first_name: 'C', last_name: 'P' } }] }),
    });
    const studentId = JSON.parse(made.body).data[0].id;
    const madeGroup = await f.inject({
      method: 'POST',
      url: '/v2/groups/',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: JSON.stringify({ data: [{ type: 'groups', attributes: { name: `cpu-${run}` } }] }),
    });
    const groupId = JSON.parse(madeGroup.body).data[0].id;
    const { decodeId } = require(path.join(ROOT, 'dist/src/core/ids/ids.js'));
    const { Pool } = require('pg');
    const bare = require('fastify')({ logger: false });
    const pool = new Pool({ connectionString: dbUrl.toString(), max: 2 });
    const orgUuid = decodeId('organization', org.organization_id);
    const STUDENT_SQL =
      'SELECT id, organization_id, email, first_name, last_name, external_id, is_inactive, is_anonymized, sso_provider, password_changed_at, deactivated_at, anonymized_at, created_at, updated_at FROM users WHERE id = $1 AND organization_id = $2';
    bare.get('/', async () => ({ hello: 'world' }));
    // the token endpoint's own work without the framework: the JSON body parsed, the client's secret
    // checked against a keyed hash, one ES256 signature over the same claims (a key of its own)
    {
      const c = require('node:crypto');
      const { privateKey } = c.generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const macKey = c.randomBytes(32);
      const mac = (id, secret) => c.createHmac('sha256', macKey).update(id).update('\0').update(secret).digest();
      const known = mac(org.client_id, org.client_secret);
      const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: 'bench' })).toString('base64url');
      const scope = [...SCOPE_CODENAMES].join(' ');
      bare.post('/token', (req, reply) => {
        const { client_id, client_secret } = req.body;
        if (!c.timingSafeEqual(mac(client_id, client_secret), known)) return reply.code(401).send({ error: 'invalid_client' });
        const iat = Math.floor(Date.now() / 1000);
        const payload = { sub: client_id, client_id, org: orgUuid, scope, cid: orgUuid, jti: c.randomUUID(), iat, exp: iat + 3600, aud: config.PUBLIC_URL, iss: config.PUBLIC_URL };
        const input = `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
        const sig = c.sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
        reply
          .header('Cache-Control', 'no-store')
          .header('Pragma', 'no-cache')
          .send({ access_token: `${input}.${sig.toString('base64url')}`, token_type: 'Bearer', expires_in: 3600, scope });
      });
    }
    bare.get('/catalog', async (_req, reply) => reply.type('application/vnd.api+json').send(catalog));
    bare.get('/student/:id', async (req) => ({ data: (await pool.query({ name: 'read', text: STUDENT_SQL, values: [req.params.id, orgUuid] })).rows[0] }));
    const GROUP_SQL = 'SELECT id, name, category_id, rule_email_domains, send_course_enrollment_email, created_at, updated_at FROM groups WHERE id = $1 AND organization_id = $2';
    bare.get('/group/:id', async (req) => ({ data: (await pool.query({ name: 'group', text: GROUP_SQL, values: [req.params.id, orgUuid] })).rows[0] }));
    await bare.ready();
    const cases = [
      { key: 'jwks', name: 'GET /.well-known/jwks.json (public)', api: () => ({ method: 'GET', url: '/.well-known/jwks.json' }), bare: ['hello-world', () => ({ method: 'GET', url: '/' })] },
      {
        key: 'scopes',
        name: 'GET /v2/scopes/ (Bearer token)',
        api: () => ({ method: 'GET', url: '/v2/scopes/', headers: { authorization: `Bearer ${token}` } }),
        bare: ['scope-catalog body', () => ({ method: 'GET', url: '/catalog' })],
      },
      { key: 'token', name: 'POST /v2/auth/token (client credentials)', api: tokenReq, bare: ['hello-world', () => ({ method: 'GET', url: '/' })] },
      {
        key: 'token-bare',
        name: 'POST /v2/auth/token (client credentials)',
        api: tokenReq,
        bare: ['token (same body parsed, keyed-hash check, one ES256 signature)', () => ({ ...tokenReq(), url: '/token' })],
      },
      {
        key: 'student',
        name: 'GET /v2/students/{id}',
        api: () => ({ method: 'GET', url: `/v2/students/${studentId}`, headers: { authorization: `Bearer ${token}` } }),
        bare: ['same statement (prepared)', () => ({ method: 'GET', url: `/student/${decodeId('student', studentId)}` })],
      },
      {
        key: 'group',
        name: 'GET /v2/groups/{id}',
        api: () => ({ method: 'GET', url: `/v2/groups/${groupId}`, headers: { authorization: `Bearer ${token}` } }),
        bare: ['same statement (prepared)', () => ({ method: 'GET', url: `/group/${decodeId('group', groupId)}` })],
      },
    ].filter((c) => !only.length || only.includes(c.key));

    const results = [];
    for (const c of cases) {
      const a = await measure(f, c.api);
      const b = await measure(bare, c.bare[1]);
      results.push({ name: `${c.name}, in-process CPU`, api: { cpuUs: a.cpuUs, promises: a.promises }, bare: { name: `bare ${c.bare[0]}`, cpuUs: b.cpuUs, promises: b.promises } });
      process.stdout.write(`  ${c.name}: API ${fmt(a.cpuUs)} us CPU and ${a.promises} promises per request; bare ${c.bare[0]} ${fmt(b.cpuUs)} us, ${b.promises} promises\n`);
    }
    if (JSON_OUT) process.stdout.write(`${JSON.stringify({ results })}\n`);
    await pool.end();
  } finally {
    if (app) await app.close().catch(() => undefined);
    await dropBenchDb(adminUrl.toString(), dbName).catch((e) => process.stderr.write(`could not drop ${dbName}: ${e.message}\n`));
    await dropRedisPrefix(base.REDIS_URL, redisPrefix).catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`bench failed: ${e.stack ?? e}\n`);
    process.exit(1);
  },
);
