#!/usr/bin/env node
/* eslint-disable */
'use strict';
/**
 * The MCP layer's overhead: `tools/call list_students` through POST /mcp against
 * `GET /v2/students/?page[size]=25` on the SAME API process in the same run, both with the same
 * client-credentials token (students:read), with autocannon. The ratio is MCP req/s over direct
 * req/s (and p99, server CPU per request). A tool call is the HTTP operation run in-process
 * (Fastify inject, src/modules/mcp/mcp.service.ts) behind the MCP transport: JSON-RPC parsing, a
 * fresh stateless Server per POST, the catalog lookup, the inject, and the answer wrapped as text.
 *
 *   npm run bench -- mcp
 *   npm run build && node bench/mcp.js [--duration 5] [--connections 20] [--students 200] [--rounds 2] [--json] [--only mcp]
 *     [--cpu-prof DIR]   (CPU profile of the API child, written to DIR when it stops; bench/profile-summary.js reads it)
 *   BENCH_DURATION=5 BENCH_CONNECTIONS=20 node bench/mcp.js
 *
 * One run: a throw-away database `cp_bench_mcp_<random>` (created, migrated, dropped at the end) and
 * a unique REDIS_PREFIX (keys removed at the end); an organization made by the CLI's code; the API
 * (dist/, NODE_ENV=production, LOG_LEVEL=warn) as a child process; `--students` students through
 * POST /v2/students/; then the two operations alternately, `--rounds` times each (2 s warm-up +
 * `--duration` s each), the figures being the mean over the rounds (the machine is shared: the
 * alternation keeps a change of load from landing on one side only). Every answer must be HTTP 200
 * and every tool answer a success carrying the same page as the direct request (checked before the
 * runs); anything else is reported and the exit code is 1. The load average (1, 5, 15 min) is
 * printed at start and end and is in the JSON.
 */
const os = require('node:os');
const path = require('node:path');

const { ROOT, runAutocannon, fmt, benchWorld } = require('./lib');

function parseArgs(argv) {
  const opts = {
    duration: Number(process.env.BENCH_DURATION ?? 5),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 20),
    students: 200,
    rounds: 2,
    json: false,
    only: null,
    cpuProf: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--duration') opts.duration = Number(argv[++i]);
    else if (a === '--connections') opts.connections = Number(argv[++i]);
    else if (a === '--students') opts.students = Number(argv[++i]);
    else if (a === '--rounds') opts.rounds = Number(argv[++i]);
    else if (a === '--json') opts.json = true;
    else if (a === '--only') opts.only = argv[++i];
    else if (a === '--cpu-prof') opts.cpuProf = path.resolve(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

const PAGE = 25;
const DIRECT_PATH = `/v2/students/?page[size]=${PAGE}`;
const MCP_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_students', arguments: { 'page.size': PAGE } } });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

const PROFILE_ARGS = (dir) => ['--cpu-prof', '--cpu-prof-dir', dir, '--import', 'data:text/javascript,process.prependListener("SIGTERM",()=>process.exit(0))'];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main() {
  const opts = parseArgs(process.argv.slice(2));

  const { run, org, startApi, cleanup, load0 } = await benchWorld('mcp', 'Bench MCP Org');
  let failed = false;
  try {
    const { child, url } = await startApi(false, opts.cpuProf ? PROFILE_ARGS(opts.cpuProf) : []);

    const call = async (method, p, body, headers = {}) => {
      const res = await fetch(url + p, {
        method,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, text, body: text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined };
    };
    const token = async (scope) => {
      const res = await call('POST', '/v2/auth/token', { client_id: org.client_id, client_secret: org.client_secret, scope });
      if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
      return `Bearer ${res.body.access_token}`;
    };
    const writer = await token('students:write');
    for (let n = 0; n * 100 < opts.students; n++) {
      const data = Array.from({ length: Math.min(100, opts.students - n * 100) }, (_, i) => ({
        type: 'students',
        attributes: { email: `mcp-${run}-${n}-${i}@bench.test`, first_name: 'Mcp', last_name: `Bench${i}` },
      }));
      const r = await call('POST', '/v2/students/', { data }, { authorization: writer });
      if (r.status !== 200) throw new Error(`seeding failed: ${r.status} ${r.text.slice(0, 300)}`);
    }
    const auth = await token('students:read');

    // the same page both ways (the tool's text is the operation's body; links differ by nothing)
    const direct = await call('GET', DIRECT_PATH, undefined, { authorization: auth });
    const viaMcp = await call('POST', '/mcp', MCP_BODY, { ...MCP_HEADERS, authorization: auth });
    const result = viaMcp.body && viaMcp.body.result;
    const toolBody = result && result.content && result.content[0] && JSON.parse(result.content[0].text);
    const same = direct.status === 200 && viaMcp.status === 200 && result && !result.isError && JSON.stringify(toolBody.data) === JSON.stringify(direct.body.data);
    process.stdout.write(`tools/call list_students answers the same page as GET ${DIRECT_PATH}: ${same ? 'yes' : 'NO'} (${direct.body?.data?.length} students)\n`);
    if (!same) {
      failed = true;
      process.stdout.write(`  direct ${direct.status} ${direct.text.slice(0, 200)}\n  mcp ${viaMcp.status} ${viaMcp.text.slice(0, 300)}\n`);
    }

    const targets = {
      direct: { name: `GET ${DIRECT_PATH}`, requests: [{ method: 'GET', path: DIRECT_PATH, headers: { authorization: auth } }] },
      mcp: { name: 'tools/call list_students (POST /mcp)', requests: [{ method: 'POST', path: '/mcp', headers: { ...MCP_HEADERS, authorization: auth }, body: MCP_BODY }] },
    };
    process.stdout.write(
      `\n${opts.connections} connections, 2 s warm-up + ${opts.duration} s per run, ${opts.rounds} rounds alternating, Node ${process.version}, ` +
        `load average at start ${load0.map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs\n`,
    );
    const runs = { direct: [], mcp: [] };
    for (let round = 0; round < opts.rounds; round++) {
      for (const key of ['direct', 'mcp'].filter((k) => !opts.only || k === opts.only)) {
        const ac = (duration) => ({ url, connections: opts.connections, duration, requests: targets[key].requests });
        await runAutocannon(ac(2));
        const r = await runAutocannon(ac(opts.duration));
        const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([c, v]) => [c, v.count]));
        const bad = Object.keys(statuses).filter((c) => c !== '200');
        if (bad.length || r.errors || r.timeouts) failed = true;
        runs[key].push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpuUs: r.cpu ? r.cpu.usPerRequest : null, eventLoop: r.eventLoop ?? null, statuses, load: os.loadavg()[0] });
        process.stdout.write(
          `  round ${round + 1} ${targets[key].name}: ${fmt(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms` +
            `${r.cpu ? `, server CPU ${r.cpu.usPerRequest} us/request` : ''}${r.eventLoop ? `, event-loop delay p99 ${r.eventLoop.p99} ms` : ''}, load ${os.loadavg()[0].toFixed(2)}` +
            `${bad.length || r.errors || r.timeouts ? `  (!! statuses ${JSON.stringify(statuses)}, ${r.errors} errors, ${r.timeouts} timeouts)` : ''}\n`,
        );
      }
    }
    const agg = (xs) => ({
      rps: mean(xs.map((x) => x.rps)),
      p50: mean(xs.map((x) => x.p50)),
      p99: mean(xs.map((x) => x.p99)),
      cpuUs: xs.every((x) => x.cpuUs !== null) ? Math.round(mean(xs.map((x) => x.cpuUs))) : null,
      eventLoop: xs[xs.length - 1].eventLoop,
      rounds: xs,
    });
    if (opts.only) return;
    const m = agg(runs.mcp);
    const d = agg(runs.direct);
    const load1 = os.loadavg();
    process.stdout.write(
      `\nMCP / direct: throughput ${(m.rps / d.rps).toFixed(2)}x (${fmt(m.rps)} vs ${fmt(d.rps)} req/s), p99 ${(m.p99 / d.p99).toFixed(2)}x (${m.p99.toFixed(1)} vs ${d.p99.toFixed(1)} ms)` +
        `${m.cpuUs && d.cpuUs ? `, server CPU per request ${(m.cpuUs / d.cpuUs).toFixed(2)}x (${m.cpuUs} vs ${d.cpuUs} us; the MCP layer adds ${m.cpuUs - d.cpuUs} us)` : ''}\n` +
        `load average at the end ${load1.map((l) => l.toFixed(2)).join(' ')}\n`,
    );
    if (opts.json) {
      process.stdout.write(
        `\n${JSON.stringify(
          {
            load: [load0.map((l) => Number(l.toFixed(2))), load1.map((l) => Number(l.toFixed(2)))],
            cpus: os.cpus().length,
            ratio: { rps: Number((m.rps / d.rps).toFixed(3)), p99: Number((m.p99 / d.p99).toFixed(3)), cpu: m.cpuUs && d.cpuUs ? Number((m.cpuUs / d.cpuUs).toFixed(3)) : null },
            results: [{ name: 'tools/call list_students (POST /mcp)', api: m, bare: { ...d, name: `GET ${DIRECT_PATH}, same API process` } }],
          },
          null,
          2,
        )}\n`,
      );
    }
    if (failed) {
      process.stderr.write("\nnon-200 answers, errors or a tool answer unlike the operation's above\n");
      process.exitCode = 1;
    }
  } finally {
    await cleanup();
  }
}

main().catch((e) => {
  process.stderr.write(`bench failed: ${e.stack ?? e}\n`);
  process.exit(1);
});
