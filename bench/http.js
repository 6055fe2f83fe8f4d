#!/usr/bin/env node
'use strict';
/**
 * HTTP throughput of the API against a bare Fastify hello-world, with autocannon. Plain Node,
 * CommonJS; runs on the compiled code (`npm run bench` builds first and runs it as `http`).
 *
 * Every server runs in its own child process (the bare Fastify hello-world as well as the real API
 * from dist/, with LOG_LEVEL=warn), so the load generator here never shares an event loop with it.
 * The API runs on a throw-away database, `cp_bench`, dropped before and after.
 *
 *   npm run bench -- http                                   # every scenario, 10 s each, 50 connections
 *   node bench/http.js --only scopes --duration 5           # scenarios whose name contains "scopes"
 *   node bench/http.js --json                               # also print the results as JSON
 *   node bench/http.js --only token --cpu-prof /tmp/prof      # CPU profile of the API child (summary: node bench/profile-summary.js /tmp/prof/*.cpuprofile)
 *   BENCH_DURATION=5 BENCH_CONNECTIONS=100 BENCH_LOG_LEVEL=info npm run bench -- http   # (default warn)
 *
 * To add a scenario, append an object to SCENARIOS below:
 *   { name, target: 'hello' | 'api', setup?: async (ctx) => void, request: (ctx) => ({ method, path, headers?, body? }) }
 * `ctx` holds `org` (create-org output: client_id, client_secret, api_key, organization_id,
 * domain_name), `token(scopes?)` (an access token of the org's bootstrap client), `api(method,
 * path, body?, headers?)` (a plain request to the API, for setup) and a `state` object for what
 * setup prepares (ids of created rows, ...). Requests must answer 2xx; anything else is reported.
 */
const { randomBytes } = require('node:crypto');
const path = require('node:path');

const { ROOT, startChild, stopChild, freePort, waitFor, runAutocannon, dropBenchDb, dropRedisPrefix, fmt } = require('./lib');

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

const json = { 'content-type': 'application/json' };

const SCENARIOS = [
  {
    name: 'hello-world (bare Fastify)',
    target: 'hello',
    request: () => ({ method: 'GET', path: '/' }),
  },
  {
    // the same bytes as GET /v2/scopes/ (17 KB): what the body alone costs, without the framework
    name: 'hello-world, scope-catalog body (bare Fastify)',
    target: 'hello',
    request: () => ({ method: 'GET', path: '/catalog' }),
  },
  {
    // what a token costs without the framework: the same body parsed, a keyed-hash check, one ES256 signature
    name: 'token, same work (bare Fastify)',
    target: 'hello',
    request: () => ({
      method: 'POST',
      path: '/token',
      headers: json,
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'cp_bench', client_secret: 'cps_bench' }),
    }),
  },
  {
    // the framework alone (Fastify + Nest + logging middleware), no authentication, a 0.2 KB body
    name: 'GET /.well-known/jwks.json (public)',
    target: 'api',
    baseline: 'hello-world (bare Fastify)',
    request: () => ({ method: 'GET', path: '/.well-known/jwks.json' }),
  },
  {
    name: 'POST /v2/auth/token (client credentials)',
    target: 'api',
    baseline: 'hello-world (bare Fastify)',
    goal: '5,000 tokens/s',
    request: (ctx) => ({
      method: 'POST',
      path: '/v2/auth/token',
      headers: json,
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: ctx.org.client_id, client_secret: ctx.org.client_secret }),
    }),
  },
  {
    // the same requests against the bare server doing the same work (a second row: the table keeps one baseline per row)
    name: 'POST /v2/auth/token (client credentials), vs the same work',
    target: 'api',
    baseline: 'token, same work (bare Fastify)',
    request: (ctx) => ({
      method: 'POST',
      path: '/v2/auth/token',
      headers: json,
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: ctx.org.client_id, client_secret: ctx.org.client_secret }),
    }),
  },
  {
    name: 'GET /v2/scopes/ (Bearer token)',
    target: 'api',
    baseline: 'hello-world, scope-catalog body (bare Fastify)',
    setup: async (ctx) => {
      ctx.state.token = await ctx.token();
    },
    request: (ctx) => ({ method: 'GET', path: '/v2/scopes/', headers: { authorization: `Bearer ${ctx.state.token}` } }),
  },
];

// ---------------------------------------------------------------------------------------------
// Machinery
// ---------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const opts = { duration: Number(process.env.BENCH_DURATION ?? 10), connections: Number(process.env.BENCH_CONNECTIONS ?? 50), only: null, json: false, cpuProf: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--duration') opts.duration = Number(argv[++i]);
    else if (a === '--connections') opts.connections = Number(argv[++i]);
    else if (a === '--only') opts.only = argv[++i];
    else if (a === '--json') opts.json = true;
    else if (a === '--cpu-prof') opts.cpuProf = path.resolve(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

/** `node bench/run.js --serve-hello PORT`: the baseline, a bare Fastify hello-world. */
async function serveHello(port) {
  const app = require('fastify')({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  const { SCOPE_CODENAMES, SCOPE_PRESETS, describeScope } = require(path.join(ROOT, 'dist/src/core/auth/scopes.js'));
  const catalog = JSON.stringify({
    data: SCOPE_CODENAMES.map((c) => ({ type: 'scopes', id: c, attributes: describeScope(c) })),
    meta: { presets: SCOPE_PRESETS },
  });
  app.get('/catalog', async (_req, reply) => reply.type('application/vnd.api+json').send(catalog));
  // the token endpoint's own work without the framework: the JSON body parsed, the secret checked
  // against a keyed hash (the first one seen is remembered, as the API caches a verified client),
  // one ES256 signature over the same claims, the same answer and no-store headers
  const c = require('node:crypto');
  const { privateKey } = c.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const macKey = c.randomBytes(32);
  const mac = (id, secret) => c.createHmac('sha256', macKey).update(String(id)).update('\0').update(String(secret)).digest();
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: 'bench' })).toString('base64url');
  const scope = [...SCOPE_CODENAMES].join(' ');
  const orgId = c.randomUUID();
  let known;
  app.post('/token', (req, reply) => {
    const { client_id, client_secret } = req.body;
    known ??= mac(client_id, client_secret);
    if (!c.timingSafeEqual(mac(client_id, client_secret), known)) return reply.code(401).send({ error: 'invalid_client' });
    const iat = Math.floor(Date.now() / 1000);
    const payload = { sub: client_id, client_id, org: orgId, scope, cid: orgId, jti: c.randomUUID(), iat, exp: iat + 3600, aud: `http://127.0.0.1:${port}`, iss: `http://127.0.0.1:${port}` };
    const input = `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    const sig = c.sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
    reply
      .header('Cache-Control', 'no-store')
      .header('Pragma', 'no-cache')
      .send({ access_token: `${input}.${sig.toString('base64url')}`, token_type: 'Bearer', expires_in: 3600, scope });
  });
  await app.listen({ port, host: '127.0.0.1' });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const scenarios = SCENARIOS.filter((s) => !opts.only || s.name.includes(opts.only) || s.target === 'hello');
  const needApi = scenarios.some((s) => s.target === 'api');

  // compiled code (npm run bench builds first)
  const { loadConfig } = require(path.join(ROOT, 'dist/src/core/config/config.js'));
  const { migrate } = require(path.join(ROOT, 'dist/src/core/database/database.js'));
  const { runCli } = require(path.join(ROOT, 'dist/src/cli.js'));

  const base = loadConfig(process.env);
  const dbUrl = new URL(base.DATABASE_URL);
  dbUrl.pathname = '/cp_bench';
  const adminUrl = new URL(base.DATABASE_URL);
  adminUrl.pathname = '/postgres';

  const children = [];
  const redisPrefix = `cpbench_${randomBytes(3).toString('hex')}`;
  const cleanup = async () => {
    await Promise.all(children.map(stopChild));
    if (needApi) {
      await dropBenchDb(adminUrl.toString(), 'cp_bench').catch(() => undefined);
      await dropRedisPrefix(base.REDIS_URL, redisPrefix).catch(() => undefined);
    }
  };
  process.once('SIGINT', () => cleanup().then(() => process.exit(130)));

  try {
    const helloPort = await freePort();
    const hello = startChild([__filename, '--serve-hello', String(helloPort)], process.env);
    children.push(hello);
    await waitFor(`http://127.0.0.1:${helloPort}/`, hello, 'hello-world');

    const ctx = { org: null, state: {}, apiUrl: null, token: null, api: null };
    let apiPort;
    if (needApi) {
      await dropBenchDb(adminUrl.toString(), 'cp_bench');
      const env = {
        ...process.env,
        NODE_ENV: 'production',
        APP_SECRET: randomBytes(32).toString('hex'),
        DATABASE_URL: dbUrl.toString(),
        REDIS_PREFIX: redisPrefix,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
        HOST: '127.0.0.1',
      };
      const config = loadConfig(env);
      await migrate(config);
      // the CLI's own code path: an organization with an all-scope client and API key
      ctx.org = await runCli(['create-org', '--name', 'Bench Org'], config);
      apiPort = await freePort();
      env.PORT = String(apiPort);
      env.PUBLIC_URL = `http://127.0.0.1:${apiPort}`;
      // --cpu-prof DIR: the API child's CPU profile, written when it stops (SIGTERM exits at once so that it is)
      const prof = opts.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', opts.cpuProf, '--import', 'data:text/javascript,process.prependListener("SIGTERM",()=>process.exit(0))'] : [];
      const api = startChild([...prof, 'dist/src/main.js'], env);
      children.push(api);
      ctx.apiUrl = `http://127.0.0.1:${apiPort}`;
      await waitFor(`${ctx.apiUrl}/health`, api, 'the API');
      ctx.api = async (method, p, body, headers = {}) => {
        const res = await fetch(ctx.apiUrl + p, {
          method,
          headers: body === undefined ? headers : { ...json, ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      };
      ctx.token = async (scopes) => {
        const res = await ctx.api('POST', '/v2/auth/token', { client_id: ctx.org.client_id, client_secret: ctx.org.client_secret, ...(scopes ? { scope: scopes.join(' ') } : {}) });
        if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body.access_token;
      };
    }

    const results = [];
    process.stdout.write(`\n${opts.connections} connections, ${opts.duration} s per scenario, Node ${process.version}\n\n`);
    for (const s of scenarios) {
      if (s.setup) await s.setup(ctx);
      const req = s.request(ctx);
      const url = (s.target === 'hello' ? `http://127.0.0.1:${helloPort}` : ctx.apiUrl) + req.path;
      // a short warm-up (JIT, connection pools, caches), then the measured run
      await runAutocannon({ url, method: req.method, headers: req.headers, body: req.body, connections: opts.connections, duration: 2 });
      const r = await runAutocannon({ url, method: req.method, headers: req.headers, body: req.body, connections: opts.connections, duration: opts.duration });
      const row = {
        name: s.name,
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        requests: r.requests.total,
        non2xx: r.non2xx,
        errors: r.errors + r.timeouts,
        eventLoop: r.eventLoop ?? null,
        cpuUs: r.cpu ? r.cpu.usPerRequest : null,
        baseline: s.baseline ?? null,
        goal: s.goal ?? null,
      };
      results.push(row);
      process.stdout.write(
        `  ${s.name}: ${fmt(row.rps)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms${row.eventLoop ? `, event-loop delay p99 ${row.eventLoop.p99} ms` : ''}${row.cpuUs !== null ? `, server CPU ${row.cpuUs} us/request` : ''}${row.non2xx || row.errors ? `  (!! ${row.non2xx} non-2xx, ${row.errors} errors)` : ''}\n`,
      );
    }

    const base = results.find((r) => r.name === SCENARIOS[0].name);
    process.stdout.write('\n| scenario | req/s | p50 ms | p99 ms | vs hello-world |\n|---|---:|---:|---:|---:|\n');
    for (const r of results) {
      const ratio = base ? `${(r.rps / base.rps).toFixed(2)}x` : '';
      process.stdout.write(`| ${r.name} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${ratio} |\n`);
    }
    if (opts.json) {
      // one row per API scenario against its bare baseline of the same run (bench/run.js reads this)
      const rows = results
        .filter((r) => r.baseline)
        .map((r) => {
          const b = results.find((x) => x.name === r.baseline);
          return {
            name: r.name,
            api: { rps: r.rps, p50: r.p50, p99: r.p99, eventLoop: r.eventLoop, cpuUs: r.cpuUs },
            bare: b ? { name: b.name, rps: b.rps, p50: b.p50, p99: b.p99, cpuUs: b.cpuUs } : null,
            goal: r.goal,
          };
        });
      process.stdout.write(`\n${JSON.stringify({ results: rows, raw: results }, null, 2)}\n`);
    }
    const bad = results.filter((r) => r.non2xx || r.errors);
    if (bad.length) {
      process.stderr.write(`\nnon-2xx answers or errors in: ${bad.map((r) => r.name).join(', ')}\n`);
      process.exitCode = 1;
    }
  } finally {
    await cleanup();
  }
}

if (process.argv[2] === '--serve-hello') {
  serveHello(Number(process.argv[3])).catch((e) => {
    process.stderr.write(`${e.stack}\n`);
    process.exit(1);
  });
} else {
  main().catch((e) => {
    process.stderr.write(`bench failed: ${e.stack ?? e}\n`);
    process.exit(1);
  });
}
