#!/usr/bin/env node
/* eslint-disable */
'use strict';
/**
 * Export throughput (issue 32, CONVENTIONS §20): POST /v2/exports/ of `--rows` enrollments (default
 * 1,000,000) as CSV, run by the real worker process (dist/src/worker.js), against `psql \copy` of the
 * same SELECT to a CSV file: the bare limit of reading those rows out of PostgreSQL. Reports rows/s
 * of both, their ratio (goal 0.5 or better), and the worker's peak memory (VmHWM, the peak resident
 * set of the worker process, and its RSS before the export; with constant-memory streaming the peak
 * does not grow with the number of rows: compare runs with different --rows).
 *
 *   npm run build && node bench/exports.js [--rows 1000000] [--format csv|ndjson] [--worker-heap-mb 96] [--repeat 3]
 *
 * `--worker-heap-mb` starts the worker with that V8 heap cap (--max-old-space-size): an export whose
 * memory grew with the rows would run out of heap and fail.
 *
 * A throw-away database (benchWorld: created, migrated, dropped at the end) gets one organization,
 * one published course, and the users and enrollments by SQL (generate_series), then VACUUM ANALYZE.
 * The export is timed from its `started_at` to its `finished_at` (the worker's own work: count,
 * stream, file written); psql from its start to its exit. Both write to local disk.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const { ROOT, benchWorld, startChild, stopChild, fmt } = require('./lib');

function arg(name, def) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memOf(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number((new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s) || [])[1] || 0);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

async function main() {
  const ROWS = Number(arg('rows', 1_000_000));
  const FORMAT = arg('format', 'csv');
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-bench-exports-'));
  const world = await benchWorld('exports', 'Bench exports', { STORAGE_DIR: storage });
  const db = new Client({ connectionString: world.config.DATABASE_URL });
  let worker;
  try {
    await db.connect();
    const org = world.orgUuid;
    const [{ id: courseId }] = (await db.query(`INSERT INTO courses (organization_id, title) VALUES ($1, 'Bench course') RETURNING id`, [org])).rows;
    const [{ id: domainId }] = (await db.query(`SELECT id FROM domains WHERE organization_id = $1 LIMIT 1`, [org])).rows;
    const [{ id: pcId }] = (await db.query(`INSERT INTO published_courses (organization_id, course_id, domain_id, slug) VALUES ($1, $2, $3, 'bench') RETURNING id`, [org, courseId, domainId])).rows;
    process.stdout.write(`exports bench: seeding ${fmt(ROWS)} users and enrollments\n`);
    const BATCH = 200_000;
    for (let from = 1; from <= ROWS; from += BATCH) {
      const to = Math.min(ROWS, from + BATCH - 1);
      await db.query(
        `WITH u AS (INSERT INTO users (organization_id, email, first_name, last_name) SELECT $1, 'bench-' || g || '@example.test', 'Ada', 'Lovelace' FROM generate_series($2::int, $3::int) g RETURNING id)
         INSERT INTO enrollments (organization_id, user_id, published_course_id, course_id, started_at) SELECT $1, u.id, $4, $5, now() FROM u`,
        [org, from, to, pcId, courseId],
      );
    }
    await db.query('VACUUM ANALYZE users');
    await db.query('VACUUM ANALYZE enrollments');

    // the bare limit: psql \copy of the export's own SELECT (its plain form: one field a column, as PostgreSQL writes them)
    const { exportQuery } = require(path.join(ROOT, 'dist/src/modules/data-out/export-resources.js'));
    const q = exportQuery(org, 'enrollments', {});
    const sql = q.text.replace(/\$1\b/g, `'${org}'::uuid`);
    const copyFile = path.join(storage, 'copy.csv');
    function copyOnce() {
      const t0 = process.hrtime.bigint();
      const psql = spawnSync('psql', [world.config.DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-c', `\\copy (${sql.replace(/\s+/g, ' ')}) TO '${copyFile}' WITH (FORMAT csv, HEADER)`], {
        encoding: 'utf8',
      });
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      if (psql.status !== 0) throw new Error(`psql failed: ${psql.stderr}`);
      process.stdout.write(`  psql \\copy: ${seconds.toFixed(2)} s, ${fmt(ROWS / seconds)} rows/s, ${fmt(fs.statSync(copyFile).size / 1e6, 1)} MB\n`);
      fs.rmSync(copyFile, { force: true });
      return seconds;
    }

    // the worker and the API
    const heapMb = arg('worker-heap-mb', '');
    worker = startChild([...(heapMb ? [`--max-old-space-size=${heapMb}`] : []), 'dist/src/worker.js'], { ...world.env, STORAGE_DIR: storage });
    world.children.push(worker);
    const api = await world.startApi(false);
    const tokenRes = await fetch(`${api.url}/v2/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: world.org.client_id, client_secret: world.org.client_secret }),
    });
    const { access_token: token } = await tokenRes.json();
    await sleep(1000);
    const before = memOf(worker.pid);
    let peakRss = 0;
    async function exportOnce() {
      const created = await fetch(`${api.url}/v2/exports/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ resource: 'enrollments', format: FORMAT }),
      });
      if (created.status !== 202) throw new Error(`export create: ${created.status} ${await created.text()}`);
      const id = (await created.json()).data.id;
      let attrs;
      const deadline = Date.now() + 30 * 60_000;
      for (;;) {
        await sleep(250);
        peakRss = Math.max(peakRss, memOf(worker.pid).rss);
        attrs = (await (await fetch(`${api.url}/v2/exports/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()).data.attributes;
        if (attrs.state === 'SUCCEEDED' || attrs.state === 'FAILED') break;
        if (Date.now() > deadline) throw new Error('the export did not finish within 30 minutes');
      }
      if (attrs.state !== 'SUCCEEDED') throw new Error(`export ${attrs.state}: ${attrs.error}`);
      const seconds = (Date.parse(attrs.finished_at) - Date.parse(attrs.started_at)) / 1000;
      process.stdout.write(`  export: ${seconds.toFixed(2)} s, ${fmt(attrs.rows_done / seconds)} rows/s, ${fmt(attrs.file_size / 1e6, 1)} MB\n`);
      return { seconds, attrs };
    }

    // `--repeat N`: N rounds of (\copy, export) back to back, so that each ratio compares two runs
    // made under about the same load of a shared machine; the result is the median round
    const REPEAT = Math.max(1, Number(arg('repeat', 1)));
    const rounds = [];
    let attrs;
    for (let i = 0; i < REPEAT; i++) {
      const copySeconds = copyOnce();
      const ex = await exportOnce();
      attrs = ex.attrs;
      rounds.push({
        copy_seconds: Number(copySeconds.toFixed(2)),
        export_seconds: Number(ex.seconds.toFixed(2)),
        ratio: Number((copySeconds / ex.seconds).toFixed(2)),
        load_1m: Number(os.loadavg()[0].toFixed(1)),
      });
    }
    const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor((rounds.length - 1) / 2)];
    const exportSeconds = median.export_seconds;
    const copySeconds = median.copy_seconds;
    const exportRate = attrs.rows_done / exportSeconds;
    const copyRate = ROWS / copySeconds;
    const after = memOf(worker.pid);
    const result = {
      rows: attrs.rows_done,
      format: FORMAT,
      worker_heap_cap_mb: heapMb ? Number(heapMb) : null,
      export_seconds: exportSeconds,
      export_rows_per_second: Math.round(exportRate),
      copy_seconds: copySeconds,
      copy_rows_per_second: Math.round(copyRate),
      ratio: Number((exportRate / copyRate).toFixed(2)),
      goal: 0.5,
      rounds,
      file_mb: Number((attrs.file_size / 1e6).toFixed(1)),
      worker_rss_mb_before: Number(before.rss.toFixed(1)),
      worker_rss_mb_peak: Number(Math.max(peakRss, after.hwm).toFixed(1)),
      worker_rss_mb_growth: Number((Math.max(peakRss, after.hwm) - before.hwm).toFixed(1)),
      load_average: os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' '),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    if (result.ratio < result.goal) process.exitCode = 1;
  } finally {
    await db.end().catch(() => undefined);
    await world.cleanup();
    fs.rmSync(storage, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${e.stack || e}\n`);
  process.exit(1);
});
