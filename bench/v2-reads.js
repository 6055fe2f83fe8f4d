#!/usr/bin/env node
'use strict';
/**
 * The /v2 reads beside students (issue 16 item 1: "every /v2 read, list and batch operation at 0.8x
 * of bare or better, p99 within 1.5x"): a page of 100 and one object by id of courses, lessons,
 * published courses, enrollments, groups and certificates, through the real API against a bare
 * Fastify + pg server that runs the SAME SQL, with autocannon. (Students, with their batch writes
 * and prepared statements, are bench/v2-students.js.)
 *
 *   npm run bench -- v2-reads
 *   npm run build && node bench/v2-reads.js [--rows 2000] [--duration 3] [--connections 20] [--only courses] [--json]
 *
 * One run (the frame is bench/replay.js):
 *  1. a throw-away database `cp_bench_v2reads_<random>` (created, migrated, dropped at the end) and
 *     a unique REDIS_PREFIX; an organization made by the CLI's code (a token from its client);
 *     `--rows` courses (3 lessons each) published on its domain, `--rows` learners each enrolled in
 *     one course, `--rows` / 10 groups (at least 100) of 10 members, a certificate per enrollment, written with SQL
 *     (the rows, not their creation, are measured here), then VACUUM ANALYZE.
 *  2. SQL statements per request: an API child with DATABASE_LOG_QUERIES=true; each read once to
 *     warm up (the token's verification is cached after it), then once more, the statements written
 *     meanwhile counted AND kept, with their parameters, as the bare server's script.
 *  3. throughput: the API (dist/, NODE_ENV=production, LOG_LEVEL=warn, no query logging) and, in
 *     another child process, a bare Fastify + pg Pool of the same size that replays the script of
 *     the read one statement after another and answers every row of every statement as JSON: no
 *     auth, no validation, no presentation: what the database work alone allows.
 * Every answer must be 200: anything else is reported and the exit code is 1.
 */
const path = require('node:path');
const { ROOT } = require('./lib');
const { main, parseArgs, runReplayScenario } = require('./replay');

const opts = parseArgs(process.argv.slice(2), { rows: 2000, connections: 20, only: null }, (a, next, o) => {
  if (a === '--rows') o.rows = Number(next());
  else if (a === '--only') o.only = next();
  else return false;
  return true;
});

main(() =>
  runReplayScenario({
    db: 'v2reads',
    orgName: 'Bench v2 reads',
    opts,
    /** a token from this API child (its PUBLIC_URL is the issuer), every scope of the organization's client */
    async auth(url, org) {
      const res = await fetch(`${url}/v2/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: org.client_id, client_secret: org.client_secret }),
      });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(body)}`);
      return { authorization: `Bearer ${body.access_token}` };
    },
    check(body, r) {
      const size = Array.isArray(body.data) ? body.data.length : 1;
      if (Array.isArray(body.data) && size !== 100) throw new Error(`${r.path}: a page of ${size}, not 100`);
      return `${size} object(s)`;
    },
    async fixtures(db, { orgId, domainId }) {
      const { encodeId } = require(path.join(ROOT, 'dist/src/core/ids/ids.js'));
      const n = opts.rows;
      await db.query(
        `INSERT INTO courses (organization_id, title, short_description, long_description_html)
         SELECT $1, 'Course ' || g, 'About course ' || g, '<p>Course ' || g || ' in depth.</p>' FROM generate_series(1, $2) g`,
        [orgId, n],
      );
      await db.query(
        `INSERT INTO lessons (organization_id, course_id, title, type, "order")
         SELECT c.organization_id, c.id, 'Lesson ' || i, 'HTML', i FROM courses c, generate_series(1, 3) i WHERE c.organization_id = $1`,
        [orgId],
      );
      await db.query(`INSERT INTO published_courses (organization_id, course_id, domain_id, slug) SELECT organization_id, id, $2, 'c-' || id FROM courses WHERE organization_id = $1`, [
        orgId,
        domainId,
      ]);
      await db.query(
        `INSERT INTO users (organization_id, email, first_name, last_name) SELECT $1, 'u' || g || '@example.test', 'First' || (g % 50), 'Last' || (g % 97) FROM generate_series(1, $2) g`,
        [orgId, n],
      );
      await db.query(`INSERT INTO domain_users (organization_id, domain_id, user_id) SELECT organization_id, $2, id FROM users WHERE organization_id = $1`, [orgId, domainId]);
      // learner k enrolled in course k, started and completed, with a certificate
      await db.query(
        `INSERT INTO enrollments (organization_id, user_id, published_course_id, course_id, started_at, completed_at)
         SELECT u.organization_id, u.id, pc.id, pc.course_id, now(), now()
           FROM (SELECT id, organization_id, row_number() OVER (ORDER BY created_at, id) AS k FROM users WHERE organization_id = $1) u
           JOIN (SELECT id, course_id, row_number() OVER (ORDER BY created_at, id) AS k FROM published_courses WHERE organization_id = $1) pc ON pc.k = u.k`,
        [orgId],
      );
      await db.query(
        `INSERT INTO certificates (organization_id, user_id, course_id, published_course_id, domain_id, enrollment_id, code, issued_at, score_as_percent)
         SELECT organization_id, user_id, course_id, published_course_id, $2, id, 'CERT-' || replace(id::text, '-', ''), now(), 100 FROM enrollments WHERE organization_id = $1`,
        [orgId, domainId],
      );
      await db.query(`INSERT INTO groups (organization_id, name) SELECT $1, 'Group ' || g FROM generate_series(1, $2) g`, [orgId, Math.max(100, Math.floor(n / 10))]);
      await db.query(
        `INSERT INTO group_memberships (organization_id, group_id, user_id)
         SELECT u.organization_id, g.id, u.id
           FROM (SELECT id, organization_id, row_number() OVER (ORDER BY created_at, id) AS k FROM users WHERE organization_id = $1) u
           JOIN (SELECT id, row_number() OVER (ORDER BY created_at, id) - 1 AS k FROM groups WHERE organization_id = $1) g ON g.k = (u.k - 1) / 10`,
        [orgId],
      );
      await db.query('VACUUM ANALYZE');
      const idOf = async (table, type) =>
        encodeId(type, (await db.query(`SELECT id FROM ${table} WHERE organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET $2`, [orgId, Math.floor(n / 20)])).rows[0].id);
      const ids = {
        course: await idOf('courses', 'course'),
        lesson: await idOf('lessons', 'lesson'),
        publishedCourse: await idOf('published_courses', 'publishedCourse'),
        enrollment: await idOf('enrollments', 'enrollment'),
        group: await idOf('groups', 'group'),
        certificate: await idOf('certificates', 'certificate'),
      };
      const page = 'page%5Bsize%5D=100';
      const reads = [
        { key: 'courses', name: 'GET /v2/courses/?page[size]=100', path: `/v2/courses/?${page}` },
        { key: 'course', name: 'GET /v2/courses/{id}', path: `/v2/courses/${ids.course}` },
        { key: 'lessons', name: 'GET /v2/lessons/?page[size]=100', path: `/v2/lessons/?${page}` },
        { key: 'lesson', name: 'GET /v2/lessons/{id}', path: `/v2/lessons/${ids.lesson}` },
        { key: 'published', name: 'GET /v2/published-courses/?page[size]=100', path: `/v2/published-courses/?${page}` },
        { key: 'published1', name: 'GET /v2/published-courses/{id}', path: `/v2/published-courses/${ids.publishedCourse}` },
        { key: 'enrollments', name: 'GET /v2/enrollments/?page[size]=100', path: `/v2/enrollments/?${page}` },
        { key: 'enrollment', name: 'GET /v2/enrollments/{id}', path: `/v2/enrollments/${ids.enrollment}` },
        { key: 'groups', name: 'GET /v2/groups/?page[size]=100', path: `/v2/groups/?${page}` },
        { key: 'group', name: 'GET /v2/groups/{id}', path: `/v2/groups/${ids.group}` },
        { key: 'certificates', name: 'GET /v2/certificates/?page[size]=100', path: `/v2/certificates/?${page}` },
        { key: 'certificate', name: 'GET /v2/certificates/{id}', path: `/v2/certificates/${ids.certificate}` },
      ].filter((r) => !opts.only || r.key.startsWith(opts.only));
      return { reads, summary: `${n} courses, ${3 * n} lessons, ${n} learners, enrollments and certificates, ${Math.max(100, Math.floor(n / 10))} groups` };
    },
  }),
);
