#!/usr/bin/env node
'use strict';
/**
 * The LRS (issue 30, CONVENTIONS §18): statements POSTed in batches of 50 to /xapi/statements
 * (Basic auth with an organization LRS key, X-Experience-API-Version 1.0.3) against a bare
 * Fastify + pg server that inserts the same rows into the same table (lrs_statements: the
 * statement jsonb and its indexed columns) in one statement per batch, without authentication,
 * validation or version handling. Goal: the API at 0.8x the bare server or better.
 *
 *   npm run bench -- lrs
 *   npm run build && node bench/lrs.js [--duration 3] [--connections 10] [--rounds 1] [--json] [--cpu-prof DIR]
 *   (the API child's CPU profile; summary: node bench/profile-summary.js DIR/*.cpuprofile)
 *
 * SCORM commits per second for 500 learners: bench/scorm.js.
 */
const { randomUUID } = require('node:crypto');
const { startChild, freePort, waitFor, runAutocannon, fmt, benchWorld } = require('./lib');

const BATCH = 50;

function batch() {
  const out = [];
  for (let i = 0; i < BATCH; i++) {
    out.push({
      actor: { objectType: 'Agent', mbox: `mailto:learner${i % 500}@bench.test`, name: `Learner ${i}` },
      verb: { id: 'http://adlnet.gov/expapi/verbs/experienced', display: { 'en-US': 'experienced' } },
      object: { objectType: 'Activity', id: `https://bench.test/activity/${i % 20}`, definition: { name: { 'en-US': `Activity ${i % 20}` } } },
      context: { registration: randomUUID(), contextActivities: { parent: [{ id: 'https://bench.test/course' }] } },
      result: { completion: true, score: { scaled: 0.8 }, duration: 'PT1M' },
    });
  }
  return JSON.stringify(out);
}

/** `node bench/lrs.js --serve-bare PORT` (env BARE_DATABASE_URL, BARE_POOL_SIZE, BARE_ORG). */
async function serveBare(port) {
  const { Pool } = require('pg');
  const pool = new Pool({ connectionString: process.env.BARE_DATABASE_URL, max: Number(process.env.BARE_POOL_SIZE) });
  const org = process.env.BARE_ORG;
  const app = require('fastify')({ logger: false, bodyLimit: 1024 * 1024 });
  app.post('/statements', async (req) => {
    const stored = new Date().toISOString();
    const rows = req.body.map((s) => {
      const id = randomUUID();
      const st = { ...s, id, stored, timestamp: stored, version: '1.0.0' };
      return {
        id,
        statement: st,
        verb_id: s.verb.id,
        activity_id: s.object.id,
        agents: [`mbox::${s.actor.mbox}`],
        // the LRS adds the key's authority to every statement's related agents: the same rows here
        related_agents: [`mbox::${s.actor.mbox}`, 'account::http://127.0.0.1|bench-key'],
        related_activities: [s.object.id, ...s.context.contextActivities.parent.map((p) => p.id)],
        registration: s.context.registration,
      };
    });
    await pool.query(
      `WITH ins AS (INSERT INTO lrs_statements (organization_id, id, statement, stored, verb_id, activity_id, agents, related_agents, related_activities, registration)
       SELECT $1, v.id, v.statement, $2, v.verb_id, v.activity_id,
              ARRAY(SELECT jsonb_array_elements_text(v.agents)), ARRAY(SELECT jsonb_array_elements_text(v.related_agents)),
              ARRAY(SELECT jsonb_array_elements_text(v.related_activities)), v.registration
         FROM jsonb_to_recordset($3::jsonb) AS v(id uuid, statement jsonb, verb_id text, activity_id text, agents jsonb, related_agents jsonb, related_activities jsonb, registration uuid)
       RETURNING stored, seq, agents, related_agents)
       INSERT INTO lrs_statement_agents (organization_id, agent, direct, stored, seq)
       SELECT $1, k.agent, k.agent = ANY(ins.agents), ins.stored, ins.seq FROM ins, unnest(ins.related_agents) AS k(agent)`,
      [org, stored, JSON.stringify(rows)],
    );
    return rows.map((r) => r.id);
  });
  app.get('/', async () => ({ ok: true }));
  await app.listen({ port, host: '127.0.0.1' });
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--serve-bare') return serveBare(Number(argv[1]));
  const opts = { duration: Number(process.env.BENCH_DURATION ?? 3), connections: 10, json: false, rounds: 1 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--duration') opts.duration = Number(argv[++i]);
    else if (argv[i] === '--connections') opts.connections = Number(argv[++i]);
    else if (argv[i] === '--json') opts.json = true;
    else if (argv[i] === '--rounds') opts.rounds = Number(argv[++i]);
    else if (argv[i] === '--cpu-prof') opts.cpuProf = require('node:path').resolve(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  const world = await benchWorld('lrs', 'LRS bench');
  let failed = false;
  try {
    // --cpu-prof DIR: the API child's CPU profile, written when it stops (SIGTERM exits at once so that it is)
    const prof = opts.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', opts.cpuProf, '--import', 'data:text/javascript,process.prependListener("SIGTERM",()=>process.exit(0))'] : [];
    const api = await world.startApi(false, prof);
    const keyRes = await fetch(`${api.url}/v1/lrs-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${world.org.api_key}:`).toString('base64')}` },
      body: '{}',
    });
    if (keyRes.status !== 201) throw new Error(`POST /v1/lrs-keys answered ${keyRes.status}`);
    const key = await keyRes.json();
    const auth = `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}`;

    const barePort = await freePort();
    const bare = startChild([__filename, '--serve-bare', String(barePort)], {
      ...process.env,
      BARE_DATABASE_URL: world.dbUrl.toString(),
      BARE_POOL_SIZE: String(world.config.DATABASE_POOL_SIZE),
      BARE_ORG: world.orgUuid,
    });
    world.children.push(bare);
    const bareUrl = `http://127.0.0.1:${barePort}`;
    await waitFor(`${bareUrl}/`, bare, 'the bare server');

    const bodies = Array.from({ length: 20 }, batch);
    let n = 0;
    const requests = [{ method: 'POST', setupRequest: (r) => ({ ...r, body: bodies[n++ % bodies.length] }) }];
    const run = async (url, path, headers, warm) =>
      runAutocannon({ url: `${url}${path}`, connections: opts.connections, duration: warm ? 1 : opts.duration, headers: { 'content-type': 'application/json', ...headers }, requests });
    const apiHeaders = { authorization: auth, 'x-experience-api-version': '1.0.3' };
    await run(api.url, '/xapi/statements', apiHeaders, true);
    await run(bareUrl, '/statements', {}, true);
    // --rounds N: the API and the bare server in turn, N times (a shared machine's load moves
    // between runs); the ratio reported is the median round's
    const rounds = [];
    for (let k = 0; k < opts.rounds; k++) {
      const a = await run(api.url, '/xapi/statements', apiHeaders, false);
      const b = await run(bareUrl, '/statements', {}, false);
      for (const [name, r] of [
        ['api', a],
        ['bare', b],
      ]) {
        if (r.non2xx || r.errors) {
          failed = true;
          process.stderr.write(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors\n`);
        }
      }
      rounds.push({ a, b, ratio: a.requests.average / b.requests.average });
      if (opts.rounds > 1)
        console.log(
          `round ${k + 1}: API ${fmt(a.requests.average)} req/s (${fmt(a.cpu?.usPerRequest ?? 0)} µs CPU a batch), bare ${fmt(b.requests.average)} req/s (${fmt(b.cpu?.usPerRequest ?? 0)} µs), ratio ${(a.requests.average / b.requests.average).toFixed(2)}`,
        );
    }
    const { a, b } = [...rounds].sort((x, y) => x.ratio - y.ratio)[Math.floor(rounds.length / 2)];
    const row = (r) => ({
      rps: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      statementsPerSecond: Math.round(r.requests.average * BATCH),
      cpuUsPerBatch: r.cpu?.usPerRequest,
    });
    const result = { name: 'lrs: POST /xapi/statements, batches of 50', api: { ...row(a), eventLoop: a.eventLoop }, bare: row(b), goal: 0.8, rounds: rounds.map((r) => Number(r.ratio.toFixed(2))) };
    console.log(
      `LRS statements, batches of ${BATCH}: API ${fmt(result.api.rps)} req/s (${fmt(result.api.statementsPerSecond)} statements/s, p99 ${result.api.p99} ms, ${fmt(result.api.cpuUsPerBatch ?? 0)} µs CPU a batch), bare ${fmt(result.bare.rps)} req/s (p99 ${result.bare.p99} ms, ${fmt(result.bare.cpuUsPerBatch ?? 0)} µs CPU a batch), ratio ${(result.api.rps / result.bare.rps).toFixed(2)}`,
    );
    if (opts.json) console.log(JSON.stringify({ results: [result] }));
  } finally {
    await world.cleanup();
  }
  if (failed) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
