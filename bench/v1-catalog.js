#!/usr/bin/env node
/* eslint-disable */
/**
 * /v1 catalog: catalog search over 10,000 published courses of one domain and a 1,000-row page
 * of its domain users, through the real API (Fastify, guard with the organization API key, services,
 * PostgreSQL), measured with autocannon.
 *
 *   npm run build && node bench/v1-catalog.js [--courses 10000] [--users 1000] [--seconds 10] [--connections 10] [--json]
 *   (--seconds defaults to BENCH_DURATION, then 10; --json prints the figures as one JSON document at the end, with
 *   the event-loop delay of this process during each run: the API runs in-process here, beside autocannon)
 *
 * A throw-away database (created and migrated here, dropped at the end) gets one organization (its
 * API key authenticates), `--courses` courses with 3 lessons each, published on the organization's
 * domain, and `--users` domain users. Reads DATABASE_URL / REDIS_URL like the app (defaults local).
 */
require('reflect-metadata');
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const autocannon = require('autocannon');
const { monitorEventLoopDelay } = require('node:perf_hooks');

const dist = path.resolve(__dirname, '..', 'dist');
const { loadConfig } = require(path.join(dist, 'src/core/config/config'));
const { migrate } = require(path.join(dist, 'src/core/database/database'));
const { createApp } = require(path.join(dist, 'src/app.factory'));
const { OrganizationsService } = require(path.join(dist, 'src/modules/organizations/organizations.service'));
const { Client } = require('pg');

function arg(name, def) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}

const WORDS = ['python', 'kubernetes', 'sales', 'marketing', 'design', 'finance', 'cloud', 'security', 'leadership', 'data', 'excel', 'writing', 'negotiation', 'onboarding', 'compliance', 'safety', 'networking', 'java', 'golang', 'support'];

async function main() {
  const COURSES = arg('courses', 10000);
  const USERS = arg('users', 1000);
  const SECONDS = arg('seconds', Number(process.env.BENCH_DURATION ?? 10));
  const JSON_OUT = process.argv.includes('--json');
  const results = [];
  const CONNECTIONS = arg('connections', 10);
  const base = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/course_platform');
  const dbName = `cp_bench_catalog_${Date.now()}_${randomBytes(3).toString('hex')}`;
  base.pathname = `/${dbName}`;
  const config = loadConfig(process.env, { DATABASE_URL: base.toString(), REDIS_PREFIX: `cpbench_${randomBytes(4).toString('hex')}`, LOG_LEVEL: 'silent' });
  const admin = new URL(base);
  admin.pathname = '/postgres';
  let app;
  const db = new Client({ connectionString: config.DATABASE_URL });
  try {
    await migrate(config);
    app = await createApp(config);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = app.getHttpServer().address().port;
    const org = await app.get(OrganizationsService).create({ name: 'Bench catalog' });
    await db.connect();
    const [{ id: orgId }] = (await db.query(`SELECT organization_id AS id FROM domains WHERE name = $1`, [org.domain_name])).rows;
    const [{ id: domainId }] = (await db.query(`SELECT id FROM domains WHERE name = $1`, [org.domain_name])).rows;
    await db.query(
      `INSERT INTO courses (organization_id, title, short_description, long_description_html)
       SELECT $1, initcap(w[1 + g % 20]) || ' ' || initcap(w[1 + (g / 20) % 20]) || ' ' || g,
              'Learn ' || w[1 + (g / 7) % 20] || ' and ' || w[1 + (g / 3) % 20],
              '<p>This course covers ' || w[1 + (g / 11) % 20] || ' in depth.</p>'
       FROM generate_series(1, $2) g, (SELECT $3::text[] AS w) words`,
      [orgId, COURSES, WORDS],
    );
    await db.query(
      `INSERT INTO lessons (organization_id, course_id, title, type, "order", search_keywords)
       SELECT c.organization_id, c.id, 'Lesson ' || i, 'HTML', i, ($2::text[])[1 + (abs(hashtext(c.id::text)) + i) % 20]
       FROM courses c, generate_series(1, 3) i WHERE c.organization_id = $1`,
      [orgId, WORDS],
    );
    await db.query(
      `INSERT INTO published_courses (organization_id, course_id, domain_id, slug) SELECT organization_id, id, $2, 'c-' || id FROM courses WHERE organization_id = $1`,
      [orgId, domainId],
    );
    await db.query(
      `INSERT INTO users (organization_id, email, first_name, last_name) SELECT $1, 'u' || g || '@example.test', 'First' || (g % 50), 'Last' || (g % 97) FROM generate_series(1, $2) g`,
      [orgId, USERS],
    );
    await db.query(`INSERT INTO domain_users (organization_id, domain_id, user_id) SELECT organization_id, $2, id FROM users WHERE organization_id = $1`, [orgId, domainId]);
    await db.query('VACUUM ANALYZE');

    const auth = `Basic ${Buffer.from(`${org.api_key}:`).toString('base64')}`;
    const scenarios = [
      { name: `catalog search over ${COURSES} published courses (search=kubernetes security)`, path: `/v1/domains/${org.domain_name}/published-courses?search=kubernetes%20security` },
      { name: `catalog search, one rare term (search=1234)`, path: `/v1/domains/${org.domain_name}/published-courses?search=1234` },
      { name: `domain users, page of ${Math.min(USERS, 1000)}`, path: `/v1/domains/${org.domain_name}/users?page_size=1000` },
    ];
    for (const s of scenarios) {
      const probe = await fetch(`http://127.0.0.1:${port}${s.path}`, { headers: { authorization: auth } });
      const body = await probe.json();
      if (probe.status !== 200) throw new Error(`${s.path}: ${probe.status} ${JSON.stringify(body)}`);
      const h = monitorEventLoopDelay({ resolution: 1 });
      h.enable();
      const r = await autocannon({ url: `http://127.0.0.1:${port}${s.path}`, connections: CONNECTIONS, duration: SECONDS, headers: { authorization: auth } });
      h.disable();
      const eventLoop = { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
      results.push({ name: s.name, api: { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, eventLoop }, non2xx: r.non2xx });
      process.stdout.write(
        `${s.name}: count=${body.count}, page=${body.results.length}; ${r.requests.average.toFixed(0)} req/s, latency p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}\n`,
      );
    }
    if (JSON_OUT) process.stdout.write(`${JSON.stringify({ results })}\n`);
  } finally {
    if (app) await app.close();
    await db.end().catch(() => {});
    const a = new Client({ connectionString: admin.toString() });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await a.end();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
