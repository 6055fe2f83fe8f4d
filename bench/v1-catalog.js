#!/usr/bin/env node
'use strict';
/**
 * The heaviest /v1 reads (issue 16 item 1): catalog search over 10,000 published courses of one
 * domain (a common pair of terms and one rare term) and a 1,000-row page of its domain users,
 * through the real API against a bare Fastify + pg server that runs the SAME SQL, with autocannon.
 *
 *   npm run bench -- v1-catalog
 *   npm run build && node bench/v1-catalog.js [--courses 10000] [--users 1000] [--duration 3] [--connections 10] [--json]
 *
 * One run (the frame is bench/replay.js):
 *  1. a throw-away database `cp_bench_catalog_<random>` (created, migrated, dropped at the end) and a
 *     unique REDIS_PREFIX; an organization made by the CLI's code (its API key authenticates, Basic);
 *     `--courses` courses with 3 lessons each, published on the organization's domain, and `--users`
 *     domain users, written with SQL (10,000 courses through HTTP would take minutes and measure
 *     nothing of the reads); then VACUUM ANALYZE.
 *  2. SQL statements per request: an API child with DATABASE_LOG_QUERIES=true; one request of each
 *     read after a warm-up request, the statements written meanwhile counted AND kept, with their
 *     parameters, as the bare server's script.
 *  3. throughput: the API (dist/, NODE_ENV=production, LOG_LEVEL=warn, no query logging) and, in
 *     another child process, a bare Fastify + pg Pool of the same size that replays the script of
 *     the read one statement after another and answers every row of every statement as JSON. No
 *     auth, no validation, no presentation: what the database work alone allows.
 * Every answer must be 200: anything else is reported and the exit code is 1.
 */
const { main, parseArgs, runReplayScenario } = require('./replay');

const WORDS = [
  'python',
  'kubernetes',
  'sales',
  'marketing',
  'design',
  'finance',
  'cloud',
  'security',
  'leadership',
  'data',
  'excel',
  'writing',
  'negotiation',
  'onboarding',
  'compliance',
  'safety',
  'networking',
  'java',
  'golang',
  'support',
];

const opts = parseArgs(process.argv.slice(2), { courses: 10000, users: 1000, connections: 10 }, (a, next, o) => {
  if (a === '--courses') o.courses = Number(next());
  else if (a === '--users') o.users = Number(next());
  else return false;
  return true;
});

main(() =>
  runReplayScenario({
    db: 'catalog',
    orgName: 'Bench catalog',
    opts,
    auth: async (_url, org) => ({ authorization: `Basic ${Buffer.from(`${org.api_key}:`).toString('base64')}` }),
    check: (body) => `count ${body.count}, page ${body.results.length}`,
    async fixtures(db, { org, orgId, domainId }) {
      await db.query(
        `INSERT INTO courses (organization_id, title, short_description, long_description_html)
         SELECT $1, initcap(w[1 + g % 20]) || ' ' || initcap(w[1 + (g / 20) % 20]) || ' ' || g,
                'Learn ' || w[1 + (g / 7) % 20] || ' and ' || w[1 + (g / 3) % 20],
                '<p>This course covers ' || w[1 + (g / 11) % 20] || ' in depth.</p>'
         FROM generate_series(1, $2) g, (SELECT $3::text[] AS w) words`,
        [orgId, opts.courses, WORDS],
      );
      await db.query(
        `INSERT INTO lessons (organization_id, course_id, title, type, "order", search_keywords)
         SELECT c.organization_id, c.id, 'Lesson ' || i, 'HTML', i, ($2::text[])[1 + (abs(hashtext(c.id::text)) + i) % 20]
         FROM courses c, generate_series(1, 3) i WHERE c.organization_id = $1`,
        [orgId, WORDS],
      );
      await db.query(`INSERT INTO published_courses (organization_id, course_id, domain_id, slug) SELECT organization_id, id, $2, 'c-' || id FROM courses WHERE organization_id = $1`, [
        orgId,
        domainId,
      ]);
      await db.query(
        `INSERT INTO users (organization_id, email, first_name, last_name) SELECT $1, 'u' || g || '@example.test', 'First' || (g % 50), 'Last' || (g % 97) FROM generate_series(1, $2) g`,
        [orgId, opts.users],
      );
      await db.query(`INSERT INTO domain_users (organization_id, domain_id, user_id) SELECT organization_id, $2, id FROM users WHERE organization_id = $1`, [orgId, domainId]);
      await db.query('VACUUM ANALYZE');
      return {
        reads: [
          {
            key: 'search',
            name: `catalog search over ${opts.courses} published courses (search=kubernetes security)`,
            path: `/v1/domains/${org.domain_name}/published-courses?search=kubernetes%20security`,
          },
          { key: 'rare', name: 'catalog search, one rare term (search=1234)', path: `/v1/domains/${org.domain_name}/published-courses?search=1234` },
          { key: 'users', name: `domain users, page of ${Math.min(opts.users, 1000)}`, path: `/v1/domains/${org.domain_name}/users?page_size=1000` },
        ],
      };
    },
  }),
);
