#!/usr/bin/env node
/* eslint-disable */
/**
 * Web package processing time: a ~50 MB SCORM 1.2 zip (mostly incompressible media plus many
 * small compressible text files) downloaded by the worker from a local HTTP server, checked
 * (names, types, entry count, bytes actually inflated, ratio), its manifest read, and stored
 * (the original zip and every unpacked file) on disk storage, until the row is READY.
 *
 *   npm run build && node bench/web-package.js [--mb 50] [--runs 3]
 *
 * A throw-away database (created and migrated here, dropped at the end) and a temporary storage
 * folder; the real worker module runs in this process and the jobs go through BullMQ. Reads
 * DATABASE_URL / REDIS_URL like the app (defaults local).
 */
require('reflect-metadata');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { ZipFile } = require('yazl');

const dist = path.resolve(__dirname, '..', 'dist');
const { loadConfig } = require(path.join(dist, 'src/core/config/config'));
const { migrate } = require(path.join(dist, 'src/core/database/database'));
const { createWorker } = require(path.join(dist, 'src/worker'));
const { getQueueToken } = require('@nestjs/bullmq');
const { Client } = require('pg');

function arg(name, def) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}

const MANIFEST = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="bench" version="1.0" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>Benchmark course</title>
    <item identifier="i" identifierref="r"><title>Start</title></item></organization></organizations>
  <resources><resource identifier="r" type="webcontent" adlcp:scormtype="sco" href="index.html"><file href="index.html"/></resource></resources>
</manifest>`;

/** Build the package: media files (stored, random) up to ~90% of the target, the rest text files. */
function buildZip(file, targetMb) {
  const z = new ZipFile();
  z.addBuffer(Buffer.from(MANIFEST), 'imsmanifest.xml');
  z.addBuffer(Buffer.from('<html><body>bench</body></html>'), 'index.html');
  const media = Math.floor((targetMb * 0.9 * 1024 * 1024) / (512 * 1024));
  for (let i = 0; i < media; i++) z.addBuffer(randomBytes(512 * 1024), `media/clip-${i}.mp4`, { compress: false });
  const words = ['scorm', 'lesson', 'quiz', 'learner', 'course', 'module', 'progress', 'complete', 'score', 'suspend'];
  for (let i = 0; i < 1000; i++) {
    let s = '';
    while (s.length < 16 * 1024) s += `${words[(Math.random() * words.length) | 0]}${(Math.random() * 1e6) | 0} `;
    z.addBuffer(Buffer.from(`var data${i} = "${s}";\n`), `js/part-${Math.floor(i / 100)}/f${i}.js`);
  }
  z.end();
  return new Promise((resolve, reject) => {
    const out = fs.createWriteStream(file);
    z.outputStream.pipe(out).on('finish', resolve).on('error', reject);
  });
}

async function main() {
  const MB = arg('mb', 50);
  const RUNS = arg('runs', 3);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-bench-wpk-'));
  const zipPath = path.join(tmp, 'package.zip');
  await buildZip(zipPath, MB);
  const zipBytes = fs.statSync(zipPath).size;

  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': zipBytes });
    fs.createReadStream(zipPath).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/package.zip`;

  const base = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/course_platform');
  const dbName = `cp_bench_wpk_${Date.now()}_${randomBytes(3).toString('hex')}`;
  base.pathname = `/${dbName}`;
  const config = loadConfig(process.env, {
    DATABASE_URL: base.toString(),
    REDIS_PREFIX: `cpbench_${randomBytes(4).toString('hex')}`,
    ALLOW_PRIVATE_URLS: true,
    LOG_LEVEL: 'silent',
    STORAGE_DIR: path.join(tmp, 'storage'),
  });
  const admin = new URL(base);
  admin.pathname = '/postgres';
  const db = new Client({ connectionString: config.DATABASE_URL });
  let worker;
  try {
    await migrate(config);
    await db.connect();
    const [{ id: orgId }] = (await db.query(`INSERT INTO organizations (name) VALUES ('Bench web packages') RETURNING id`)).rows;
    worker = await createWorker(config);
    await worker.init();
    const queue = worker.get(getQueueToken('content-files'));
    process.stdout.write(`web-package bench: zip ${(zipBytes / 1048576).toFixed(1)} MiB, ${RUNS} run(s)\n`);
    const times = [];
    let row;
    for (let r = 0; r < RUNS; r++) {
      const id = require('node:crypto').randomUUID();
      await db.query(`INSERT INTO web_packages (id, organization_id, title, source_url, storage_prefix) VALUES ($1, $2, 'bench', $3, $4)`, [id, orgId, url, `org/${orgId}/web-packages/${id}`]);
      const t0 = process.hrtime.bigint();
      await queue.add('web-package-import', { kind: 'web-package-import', organizationId: orgId, webPackageId: id }, { attempts: 1 });
      for (;;) {
        row = (await db.query(`SELECT state, failure_reason, title, expanded_bytes, file_count FROM web_packages WHERE id = $1`, [id])).rows[0];
        if (row.state !== 'PROCESSING') break;
        await new Promise((res) => setTimeout(res, 20));
      }
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (row.state !== 'READY') throw new Error(`package ended ${row.state}: ${row.failure_reason}`);
      times.push(ms);
      process.stdout.write(`  run ${r + 1}: ${ms.toFixed(0)} ms\n`);
    }
    times.sort((a, b) => a - b);
    const result = {
      zip_mib: Number((zipBytes / 1048576).toFixed(1)),
      expanded_mib: Number((Number(row.expanded_bytes) / 1048576).toFixed(1)),
      files: row.file_count,
      runs: RUNS,
      ms_median: Math.round(times[Math.floor(times.length / 2)]),
      ms_min: Math.round(times[0]),
      ms_max: Math.round(times[times.length - 1]),
      mib_per_second: Number((zipBytes / 1048576 / (times[Math.floor(times.length / 2)] / 1000)).toFixed(1)),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    if (worker) await worker.close();
    await db.end().catch(() => undefined);
    server.close();
    const c = new Client({ connectionString: admin.toString() });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await c.end();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err && err.stack ? err.stack : err}\n`);
    process.exit(1);
  },
);
