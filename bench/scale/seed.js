/* eslint-disable */
'use strict';
/**
 * The world of bench/scale.js: one organization of `users` learners in its own database, written by
 * the database itself (INSERT ... SELECT FROM generate_series: no row crosses the wire), cached as a
 * template database so that a re-run skips seeding.
 *
 * Sizes at scale 1 (a customer-education organization of size): 1,000,000 users (each a member of one of 20
 * domains and of one of 100,000 groups of 10), 50,000 courses of 7 lessons, 200,000 published
 * courses (each course on 4 of the 20 domains), 3,000,000 enrollments (3 per learner, on published
 * courses of the learner's domain), one course progress each, 20,000,000 lesson-progress rows (7, 7
 * and 6 for a learner's 3 enrollments: one course completed, one with its last lesson viewed and not
 * completed, one with 6 of 7 lessons done), 5,000,000 xAPI statements (5 per learner, 500 per
 * activity). Every per-object fan-out is the same at every scale (60 enrollments per course, 3 per
 * learner, 10 members per group, 500 statements per activity): only the organization grows.
 *
 * How the migrations' rules are kept:
 *  - the schema is the migrations' (the database is migrated first, the organization, its first
 *    domain, OAuth client and API key are made by the CLI's own code);
 *  - courses, lessons and published courses are inserted with every trigger on (the search vector
 *    trigger of courses, the statement trigger of lessons that folds lesson keywords into it, the
 *    offers trigger of published courses), foreign keys checked;
 *  - the large tables (users, domain_users, groups, group_memberships, enrollments, course_progress,
 *    lesson_progress, lrs_statements) are written with session_replication_role = replica, which
 *    skips their foreign-key checks and triggers: every foreign key holds by construction (every
 *    child row is made from its parent's generated id, organization_id always the organization's:
 *    `verify()` checks each one with an anti-join), and the only trigger on an INSERT into them is
 *    course_progress's data-out event, whose outbox rows the world leaves out (as the outbox
 *    retention would have trimmed them for rows of that age);
 *  - their secondary indexes (not the primary keys nor the unique constraints that foreign keys
 *    reference) are dropped before the load and made again, with the migrations' own definitions
 *    (pg_get_indexdef), after it: the same indexes, built by sorting instead of row by row;
 *  - ids are uuids of the form tttttttt-0000-4000-8000-nnnnnnnnnnnn (t the table, n the row):
 *    valid version-4 shaped uuids, increasing with creation order, as time-ordered ids would be;
 *  - then VACUUM (ANALYZE) of every table and a CHECKPOINT.
 * Two connections work at once (the machine has 2 cores): jobs run as soon as the jobs they need are done.
 */
const path = require('node:path');
const { randomBytes } = require('node:crypto');

const ROOT = path.join(__dirname, '..', '..');
/** Bump when the world's shape changes: the cached template of an older shape is not used. */
const SEED_VERSION = 2;
const LESSONS_PER_COURSE = 7;
const DOMAINS = 20;

/** The row counts of a world of `scale` (1 = the large world of docs/performance.md). */
function sizes(scale) {
  const users = Math.max(1000, Math.round(1_000_000 * scale));
  // a multiple of 5 (published courses = 4 per course over 20 domains: courses / 5 per domain), at least 250 (a list deeper than one page)
  const courses = Math.max(250, Math.round((50_000 * scale) / 5) * 5);
  return {
    users,
    courses,
    lessons: courses * LESSONS_PER_COURSE,
    publishedCourses: courses * 4,
    domains: DOMAINS,
    groups: Math.max(200, Math.round(users / 10)),
    enrollments: users * 3,
    lessonProgress: users * (7 + 7 + 6),
    statements: users * 5,
    activities: Math.max(1, Math.round((users * 5) / 500)),
  };
}

const templateName = (s) => `cp_bench_scale_v${SEED_VERSION}_${s.users}u`;

/** SQL of a generated id: table t (1..), row n (a bigint expression). */
const sid = (t, n) => `(lpad(to_hex(${t}), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;

const T = { users: 1, domainUsers: 2, courses: 3, lessons: 4, published: 5, enrollments: 6, courseProgress: 7, lessonProgress: 8, statements: 9, groups: 10, memberships: 11, domains: 12 };
const BASE = `timestamptz '2024-06-01 00:00:00+00'`;
/** Two years, spread over a table's rows: creation times in id order, in milliseconds as the API writes them (cursors carry milliseconds). */
const at = (n, count) => `date_trunc('milliseconds', ${BASE} + (${n})::bigint * (interval '730 days' / ${count}))`;

const WORDS = [
  'kubernetes',
  'security',
  'leadership',
  'python',
  'sales',
  'compliance',
  'onboarding',
  'finance',
  'design',
  'cloud',
  'data',
  'privacy',
  'safety',
  'marketing',
  'negotiation',
  'support',
  'excel',
  'writing',
  'agile',
  'testing',
  'networking',
  'hiring',
  'coaching',
  'ethics',
  'product',
  'strategy',
  'linux',
  'docker',
  'react',
  'accounting',
  'wellbeing',
  'diversity',
  'presentation',
  'quality',
  'logistics',
  'procurement',
  'budgeting',
  'statistics',
  'research',
  'legal',
  'retail',
  'hospitality',
  'healthcare',
  'nursing',
  'pharmacy',
  'energy',
  'manufacturing',
  'automation',
  'robotics',
  'analytics',
];
const wordsSql = `ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}]`;

/** The jobs of the load; `after`: the jobs it needs. `big`: written with replication role replica. */
function jobs(s, org) {
  const O = `'${org}'::uuid`;
  const d = (k) => `(SELECT id FROM pg_temp.scale_domains WHERE k = ${k})`;
  const P20 = s.publishedCourses / DOMAINS; // published courses per domain
  return [
    {
      name: 'domains',
      sql: [
        `INSERT INTO domains (id, organization_id, name, catalog_title, created_at, updated_at)
         SELECT ${sid(T.domains, 'k')}, ${O}, 'scale-d' || k || '-' || substr(${O}::text, 1, 8), 'Catalog ' || k, ${at('k', DOMAINS)}, ${at('k', DOMAINS)} FROM generate_series(1, ${DOMAINS - 1}) k`,
      ],
    },
    {
      name: 'users',
      big: true,
      sql: [
        `INSERT INTO users (id, organization_id, email, first_name, last_name, external_id, is_inactive, deactivated_at, created_at, updated_at)
         SELECT ${sid(T.users, 'u')}, ${O}, 'learner' || u || '@scale.example', 'First' || (u % 1000), 'Last' || (u % 997), 'ext-' || u,
                u % 50 = 49, CASE WHEN u % 50 = 49 THEN ${at('u', s.users)} + interval '1 day' END,
                ${at('u', s.users)},
                CASE WHEN u % 100 = 7 THEN timestamptz '2026-06-01 00:00:00+00' + u * interval '1 ms' ELSE ${at('u', s.users)} END
           FROM generate_series(0, ${s.users - 1}) u`,
      ],
    },
    {
      name: 'domain_users',
      big: true,
      after: ['users', 'domains'],
      sql: [
        `INSERT INTO domain_users (id, organization_id, domain_id, user_id, enrolled_at, created_at, updated_at)
         SELECT ${sid(T.domainUsers, 'u')}, ${O}, dm.id, ${sid(T.users, 'u')}, ${at('u', s.users)}, ${at('u', s.users)}, ${at('u', s.users)}
           FROM generate_series(0, ${s.users - 1}) u JOIN pg_temp.scale_domains dm ON dm.k = u % ${DOMAINS}`,
      ],
    },
    {
      name: 'courses',
      sql: [
        `INSERT INTO courses (id, organization_id, title, short_description, long_description_html, created_at, updated_at)
         SELECT ${sid(T.courses, 'c')}, ${O},
                initcap((${wordsSql})[1 + c % 50]) || ' ' || (${wordsSql})[1 + (c / 50) % 50] || ' ' || c,
                'A course on ' || (${wordsSql})[1 + c % 50] || ' and ' || (${wordsSql})[1 + (c / 50) % 50],
                '<p>Course ' || c || ': ' || (${wordsSql})[1 + (c / 7) % 50] || ' in depth.</p>',
                ${at('c', s.courses)}, ${at('c', s.courses)}
           FROM generate_series(0, ${s.courses - 1}) c`,
        // planner statistics before the triggers of lessons and published courses look courses up
        `ANALYZE courses`,
      ],
    },
    {
      name: 'lessons',
      after: ['courses'],
      // the statement trigger of lessons recomputes the search vector of every course it touched, each
      // reading that course's lessons: the first 100 courses' lessons, then ANALYZE (without statistics
      // the planner takes lessons for empty and scans all of them once per course: quadratic), then the rest
      sql: [
        [0, 100],
        [100, s.courses],
      ].flatMap(([from, to], k) => [
        `INSERT INTO lessons (id, organization_id, course_id, title, type, "order", content_html, search_keywords, created_at, updated_at)
         SELECT ${sid(T.lessons, `c * ${LESSONS_PER_COURSE} + i`)}, ${O}, ${sid(T.courses, 'c')}, 'Lesson ' || (i + 1), 'HTML', i + 1,
                '<p>Lesson ' || (i + 1) || '</p>', (${wordsSql})[1 + (c + i) % 50], ${at('c', s.courses)}, ${at('c', s.courses)}
           FROM generate_series(${from}, ${to - 1}) c, generate_series(0, ${LESSONS_PER_COURSE - 1}) i`,
        ...(k === 0 ? ['ANALYZE lessons'] : []),
      ]),
    },
    {
      name: 'published_courses',
      after: ['courses', 'domains'],
      // published course p: course p / 4 on domain p % 20 (4 distinct domains per course)
      sql: [
        `INSERT INTO published_courses (id, organization_id, course_id, domain_id, slug, created_at, updated_at)
         SELECT ${sid(T.published, 'p')}, ${O}, ${sid(T.courses, 'p / 4')}, dm.id, 'course-' || (p / 4), ${at('p', s.publishedCourses)}, ${at('p', s.publishedCourses)}
           FROM generate_series(0, ${s.publishedCourses - 1}) p JOIN pg_temp.scale_domains dm ON dm.k = p % ${DOMAINS}`,
      ],
    },
    {
      name: 'groups',
      big: true,
      sql: [
        `INSERT INTO groups (id, organization_id, name, created_at, updated_at)
         SELECT ${sid(T.groups, 'g')}, ${O}, 'Group ' || g, ${at('g', s.groups)}, ${at('g', s.groups)} FROM generate_series(0, ${s.groups - 1}) g`,
      ],
    },
    {
      name: 'group_memberships',
      big: true,
      after: ['users', 'groups'],
      sql: [
        `INSERT INTO group_memberships (id, organization_id, group_id, user_id, created_at)
         SELECT ${sid(T.memberships, 'u')}, ${O}, ${sid(T.groups, `u % ${s.groups}`)}, ${sid(T.users, 'u')}, ${at('u', s.users)}
           FROM generate_series(0, ${s.users - 1}) u`,
      ],
    },
    {
      // enrollment e = 3u + k of learner u (k = 0, 1, 2) on published course d + 20 m of the learner's domain d = u % 20, m = e % (published / 20)
      name: 'enrollments',
      big: true,
      after: ['users', 'published_courses'],
      sql: [
        `INSERT INTO enrollments (id, organization_id, user_id, published_course_id, course_id, enrolled_at, started_at, completed_at, created_at, updated_at)
         SELECT ${sid(T.enrollments, 'e')}, ${O}, ${sid(T.users, 'e / 3')}, ${sid(T.published, `(e / 3) % ${DOMAINS} + ${DOMAINS} * (e % ${P20})`)},
                ${sid(T.courses, `((e / 3) % ${DOMAINS} + ${DOMAINS} * (e % ${P20})) / 4`)},
                ${at('e', s.enrollments)}, ${at('e', s.enrollments)} + interval '1 hour',
                CASE WHEN e % 3 = 0 THEN ${at('e', s.enrollments)} + interval '2 days' END,
                ${at('e', s.enrollments)}, ${at('e', s.enrollments)} + CASE WHEN e % 3 = 0 THEN interval '2 days' ELSE interval '1 hour' END
           FROM generate_series(0, ${s.enrollments - 1}::bigint) e`,
      ],
    },
    {
      name: 'course_progress',
      big: true,
      after: ['enrollments'],
      sql: [
        `INSERT INTO course_progress (id, organization_id, user_id, published_course_id, course_id, enrollment_id, completed_at, success_status, latest_activity, created_at, updated_at)
         SELECT ${sid(T.courseProgress, 'e')}, ${O}, ${sid(T.users, 'e / 3')}, ${sid(T.published, `(e / 3) % ${DOMAINS} + ${DOMAINS} * (e % ${P20})`)},
                ${sid(T.courses, `((e / 3) % ${DOMAINS} + ${DOMAINS} * (e % ${P20})) / 4`)}, ${sid(T.enrollments, 'e')},
                CASE WHEN e % 3 = 0 THEN ${at('e', s.enrollments)} + interval '2 days' END, CASE WHEN e % 3 = 0 THEN 'PASSED' END,
                ${at('e', s.enrollments)} + interval '2 days', ${at('e', s.enrollments)}, ${at('e', s.enrollments)} + interval '2 days'
           FROM generate_series(0, ${s.enrollments - 1}::bigint) e`,
      ],
    },
    // lesson progress: lesson i of the enrollment's course for i < 7 (e % 3 = 0: all completed; 1: the last viewed only), i < 6 (e % 3 = 2)
    ...[0, 1].map((half) => ({
      name: `lesson_progress_${half}`,
      big: true,
      after: ['course_progress', 'lessons'],
      sql: [
        `INSERT INTO lesson_progress (id, organization_id, course_progress_id, user_id, lesson_id, view_count, last_viewed_on, finished_at, completed_at, created_at, updated_at)
         SELECT ${sid(T.lessonProgress, `e * ${LESSONS_PER_COURSE} + i`)}, ${O}, ${sid(T.courseProgress, 'e')}, ${sid(T.users, 'e / 3')},
                ${sid(T.lessons, `(((e / 3) % ${DOMAINS} + ${DOMAINS} * (e % ${P20})) / 4) * ${LESSONS_PER_COURSE} + i`)},
                1, ${at('e', s.enrollments)} + i * interval '1 hour',
                CASE WHEN e % 3 <> 1 OR i < 6 THEN ${at('e', s.enrollments)} + i * interval '1 hour' END,
                CASE WHEN e % 3 <> 1 OR i < 6 THEN ${at('e', s.enrollments)} + i * interval '1 hour' END,
                ${at('e', s.enrollments)} + i * interval '1 hour', ${at('e', s.enrollments)} + i * interval '1 hour'
           FROM generate_series(${half === 0 ? 0 : Math.floor(s.enrollments / 2)}::bigint, ${half === 0 ? Math.floor(s.enrollments / 2) - 1 : s.enrollments - 1}::bigint) e,
                generate_series(0, ${LESSONS_PER_COURSE - 1}) i
          WHERE i < 6 OR e % 3 <> 2`,
      ],
    })),
    {
      // statement n: learner n % users, activity n % activities, stored in order
      name: 'lrs_statements',
      big: true,
      sql: [
        `INSERT INTO lrs_statements (seq, organization_id, id, statement, stored, verb_id, activity_id, agents, related_agents, related_activities)
         SELECT n + 1, ${O}, ${sid(T.statements, 'n')},
                jsonb_build_object(
                  'id', ${sid(T.statements, 'n')}, 'actor', jsonb_build_object('objectType', 'Agent', 'mbox', 'mailto:learner' || (n % ${s.users}) || '@scale.example'),
                  'verb', jsonb_build_object('id', v.verb, 'display', jsonb_build_object('en-US', v.word)),
                  'object', jsonb_build_object('objectType', 'Activity', 'id', 'https://scale.example/activities/' || (n % ${s.activities}),
                                               'definition', jsonb_build_object('name', jsonb_build_object('en-US', 'Activity ' || (n % ${s.activities})))),
                  'timestamp', to_char(${at('n', s.statements)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                  'stored', to_char(${at('n', s.statements)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                  'authority', jsonb_build_object('objectType', 'Agent', 'name', 'Scale bench', 'mbox', 'mailto:lrs@scale.example'),
                  'version', '1.0.0'),
                ${at('n', s.statements)}, v.verb, 'https://scale.example/activities/' || (n % ${s.activities}),
                ARRAY['mbox::mailto:learner' || (n % ${s.users}) || '@scale.example'],
                ARRAY['mbox::mailto:learner' || (n % ${s.users}) || '@scale.example', 'mbox::mailto:lrs@scale.example'],
                ARRAY['https://scale.example/activities/' || (n % ${s.activities})]
           FROM generate_series(0, ${s.statements - 1}::bigint) n
           CROSS JOIN LATERAL (SELECT CASE WHEN n % 2 = 0 THEN 'http://adlnet.gov/expapi/verbs/experienced' ELSE 'http://adlnet.gov/expapi/verbs/completed' END AS verb,
                                      CASE WHEN n % 2 = 0 THEN 'experienced' ELSE 'completed' END AS word) v`,
        `SELECT setval('lrs_statements_seq_seq', ${s.statements})`,
      ],
    },
  ];
}

const BIG_TABLES = ['users', 'domain_users', 'groups', 'group_memberships', 'enrollments', 'course_progress', 'lesson_progress', 'lrs_statements'];

/** Every foreign key of the large tables holds: one anti-join per constraint (0 rows expected). */
async function verify(db, log) {
  const { rows: fks } = await db.query(
    `SELECT c.conname, c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
            ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS cols,
            ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS pcols
       FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid::regclass::text = ANY($1)`,
    [BIG_TABLES],
  );
  let bad = 0;
  for (const fk of fks) {
    const notNull = fk.cols.map((c) => `x."${c}" IS NOT NULL`).join(' AND ');
    const on = fk.cols.map((c, i) => `p."${fk.pcols[i]}" = x."${c}"`).join(' AND ');
    const { rows } = await db.query(`SELECT count(*)::bigint AS n FROM ${fk.child} x WHERE ${notNull} AND NOT EXISTS (SELECT 1 FROM ${fk.parent} p WHERE ${on})`);
    if (Number(rows[0].n) > 0) {
      bad++;
      log(`  foreign key ${fk.conname} (${fk.child} -> ${fk.parent}): ${rows[0].n} row(s) without their parent\n`);
    }
  }
  log(`  ${fks.length} foreign keys of the large tables checked: ${bad ? `${bad} BROKEN` : 'all hold'}\n`);
  if (bad) throw new Error('the seeded world breaks foreign keys');
}

/** Run jobs with `lanes` connections, each job as soon as its `after` jobs are done. */
async function runJobs(list, connect, lanes, log) {
  const done = new Set();
  const started = new Set();
  const timings = {};
  const lane = async () => {
    const db = await connect();
    try {
      for (;;) {
        const next = list.find((j) => !started.has(j.name) && (j.after ?? []).every((a) => done.has(a)));
        if (!next) {
          if (started.size === list.length) return;
          await new Promise((r) => setTimeout(r, 200));
          continue;
        }
        started.add(next.name);
        const t = Date.now();
        await db.query(`SET session_replication_role = ${next.big ? 'replica' : 'origin'}`);
        for (const sql of next.sql) await db.query(sql);
        timings[next.name] = (Date.now() - t) / 1000;
        if (timings[next.name] >= 1 || !/^(index|vacuum) /.test(next.name)) log(`  ${next.name}: ${timings[next.name].toFixed(1)} s\n`);
        done.add(next.name);
      }
    } finally {
      await db.end();
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return timings;
}

/**
 * Seed the template database of `scale` unless it exists (reseed: drop it first). Answers its
 * name and the organization's credentials (kept in the database's comment).
 */
async function ensureTemplate({ scale, reseed, log = (t) => process.stdout.write(t) }) {
  const { Client } = require('pg');
  const { loadConfig } = require(path.join(ROOT, 'dist/src/core/config/config.js'));
  const { migrate } = require(path.join(ROOT, 'dist/src/core/database/database.js'));
  const { runCli } = require(path.join(ROOT, 'dist/src/cli.js'));
  const { decodeId } = require(path.join(ROOT, 'dist/src/core/ids/ids.js'));
  const s = sizes(scale);
  const name = templateName(s);
  const base = loadConfig(process.env);
  const urlOf = (db) => {
    const u = new URL(base.DATABASE_URL);
    u.pathname = `/${db}`;
    return u.toString();
  };
  const admin = new Client({ connectionString: urlOf('postgres') });
  await admin.connect();
  try {
    const existing = await admin.query(`SELECT d.datname, shobj_description(d.oid, 'pg_database') AS meta FROM pg_database d WHERE d.datname = $1`, [name]);
    if (existing.rows.length && !reseed) {
      let meta = null;
      try {
        meta = JSON.parse(existing.rows[0].meta);
      } catch {
        /* an unfinished seed: no comment yet */
      }
      if (meta && meta.complete) {
        // new migrations (an index added since the seed) are applied to the template itself
        const t = Date.now();
        await migrate(loadConfig({ ...process.env, DATABASE_URL: urlOf(name), APP_SECRET: meta.appSecret }));
        log(`template ${name} (seeded in ${meta.seedSeconds} s on ${meta.seededAt}): reused; migrations checked in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
        return { name, url: urlOf(name), meta, sizes: s, reused: true };
      }
      log(`template ${name} is incomplete (an interrupted seed): seeding again\n`);
    }
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    const t0 = Date.now();
    log(
      `seeding ${name}: ${Object.entries(s)
        .map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`)
        .join(', ')}\n`,
    );
    await admin.query(`CREATE DATABASE "${name}"`);
    const appSecret = randomBytes(32).toString('hex');
    const config = loadConfig({ ...process.env, NODE_ENV: 'production', APP_SECRET: appSecret, DATABASE_URL: urlOf(name) });
    await migrate(config);
    const org = await runCli(['create-org', '--name', 'Scale bench'], config);
    const orgId = decodeId('organization', org.organization_id);
    const connect = async () => {
      const db = new Client({ connectionString: urlOf(name) });
      await db.connect();
      await db.query(`SET maintenance_work_mem = '512MB'; SET work_mem = '64MB'; SET synchronous_commit = off`);
      // the organization's domains, numbered 0..19 (0: the CLI's), visible to this session's statements
      await db.query(`CREATE TEMP VIEW scale_domains AS SELECT id, (row_number() OVER (ORDER BY created_at, id) - 1)::int AS k FROM domains WHERE organization_id = '${orgId}'`);
      return db;
    };
    // the secondary indexes of the large tables, dropped now and made again after the load
    const db = await connect();
    const { rows: indexes } = await db.query(
      `SELECT i.indexrelid::regclass::text AS name, i.indrelid::regclass::text AS tbl, pg_get_indexdef(i.indexrelid) AS def
         FROM pg_index i WHERE i.indrelid::regclass::text = ANY($1) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
      [BIG_TABLES],
    );
    for (const ix of indexes) await db.query(`DROP INDEX ${ix.name}`);
    await db.end();
    log(`  ${indexes.length} secondary indexes of the large tables dropped for the load\n`);
    const list = jobs(s, orgId);
    const loadOf = (tbl) => (tbl === 'lesson_progress' ? ['lesson_progress_0', 'lesson_progress_1'] : [tbl]);
    const tLoad = Date.now();
    const timings = await runJobs(
      [
        ...list,
        ...indexes.map((ix) => ({ name: `index ${ix.name}`, after: loadOf(ix.tbl), sql: [ix.def] })),
        ...['domains', 'courses', 'lessons', 'published_courses', 'offers', ...BIG_TABLES].map((t) => ({
          name: `vacuum ${t}`,
          after: [...(t === 'offers' ? ['published_courses'] : loadOf(t)), ...indexes.filter((ix) => ix.tbl === t).map((ix) => `index ${ix.name}`)],
          sql: [`VACUUM (ANALYZE) ${t}`],
        })),
      ],
      connect,
      2,
      log,
    );
    const loadSeconds = (Date.now() - tLoad) / 1000;
    const v = await connect();
    await verify(v, log);
    await v.query('CHECKPOINT');
    const { rows: size } = await v.query(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`);
    await v.end();
    const seedSeconds = Math.round((Date.now() - t0) / 1000);
    const meta = {
      complete: true,
      version: SEED_VERSION,
      seededAt: new Date().toISOString(),
      seedSeconds,
      loadSeconds: Math.round(loadSeconds),
      size: size[0].size,
      sizes: s,
      appSecret,
      org: { organization_id: org.organization_id, orgId, domain_name: org.domain_name, client_id: org.client_id, client_secret: org.client_secret, api_key: org.api_key },
      timings,
    };
    await admin.query(`COMMENT ON DATABASE "${name}" IS '${JSON.stringify(meta).replace(/'/g, "''")}'`);
    log(`seeded ${name} in ${seedSeconds} s (${size[0].size})\n`);
    return { name, url: urlOf(name), meta, sizes: s, reused: false };
  } finally {
    await admin.end();
  }
}

module.exports = { ensureTemplate, sizes, templateName, SEED_VERSION, BIG_TABLES, verify };
