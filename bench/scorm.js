#!/usr/bin/env node
'use strict';
/**
 * SCORM runtime commits (issue 30 item 7, CONVENTIONS §18): 500 learners, each with an open SCORM
 * 2004 session (launched and initialized), and autocannon cycling over them with the content's
 * usual pair, SetValue(cmi.suspend_data) then Commit, on the runtime endpoints. Reports commits
 * per second (each Commit reads the attempt's data model and the lesson progress under the
 * learner's lock and writes progress when it changed) and the latency of both calls. No bare
 * baseline: the figure is a capacity, not a ratio.
 *
 *   npm run bench -- scorm
 *   npm run build && node bench/scorm.js [--learners 500] [--duration 3] [--connections 20] [--json]
 *
 * Fixtures through the API: a SCORM 2004 package imported by the real worker (in this process)
 * from a local HTTP server, a course whose lesson plays it, published, the learners and their
 * enrollments, one launch each, opened and initialized.
 */
require('reflect-metadata');
const http = require('node:http');
const path = require('node:path');
const { ZipFile } = require('yazl');
const { runAutocannon, fmt, benchWorld, ROOT } = require('./lib');

const MANIFEST = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="bench" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>Bench</title><item identifier="i" identifierref="r"><title>SCO</title></item></organization></organizations>
  <resources><resource identifier="r" type="webcontent" adlcp:scormType="sco" href="index.html"><file href="index.html"/></resource></resources>
</manifest>`;

function zip() {
  const z = new ZipFile();
  z.addBuffer(Buffer.from(MANIFEST), 'imsmanifest.xml');
  z.addBuffer(Buffer.from('<!doctype html><title>SCO</title>'), 'index.html');
  z.end();
  return new Promise((resolve) => {
    const chunks = [];
    z.outputStream.on('data', (c) => chunks.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

async function main() {
  const argv = process.argv.slice(2);
  const opts = { learners: 500, duration: Number(process.env.BENCH_DURATION ?? 3), connections: 20, json: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--learners') opts.learners = Number(argv[++i]);
    else if (argv[i] === '--duration') opts.duration = Number(argv[++i]);
    else if (argv[i] === '--connections') opts.connections = Number(argv[++i]);
    else if (argv[i] === '--json') opts.json = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  const world = await benchWorld('scorm', 'SCORM bench', { ALLOW_PRIVATE_URLS: 'true' });
  const body = await zip();
  const server = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'application/zip' }).end(body));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { createWorker } = require(path.join(ROOT, 'dist/src/worker.js'));
  const { loadConfig } = require(path.join(ROOT, 'dist/src/core/config/config.js'));
  const worker = await createWorker(loadConfig(world.env));
  await worker.init();
  let failed = false;
  try {
    const api = await world.startApi(false);
    const auth = `Basic ${Buffer.from(`${world.org.api_key}:`).toString('base64')}`;
    const call = async (method, p, b) => {
      const res = await fetch(`${api.url}${p}`, {
        method,
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: b === undefined ? undefined : JSON.stringify(b),
        redirect: 'manual',
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
      return text ? JSON.parse(text) : null;
    };
    const pkg = await call('POST', '/v1/web-packages', { content_url: `http://127.0.0.1:${server.address().port}/p.zip`, web_package: { title: 'Bench' } });
    for (let i = 0; i < 600; i++) {
      const s = (await call('GET', `/v1/web-packages/${pkg.id}`)).state;
      if (s === 'READY') break;
      if (s === 'FAILED' || i === 599) throw new Error(`web package ${s}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const course = await call('POST', '/v1/courses', { title: 'SCORM bench', short_description: 'S', enforce_sequential_navigation: false });
    const lesson = await call('POST', '/v1/lessons', { course_id: course.id, order: 1, title: 'SCO', type: 'WEB_PACKAGE', content_web_package_id: pkg.id });
    const domain = world.org.domain_name;
    const pc = await call('POST', `/v1/domains/${domain}/published-courses`, { course: { id: course.id }, slug: `scorm-${world.run}` });
    const sessions = [];
    for (let i = 0; i < opts.learners; i++) {
      const du = await call('POST', `/v1/domains/${domain}/users`, { user: { email: `scorm-${i}@bench.test`, first_name: 'Ada', last_name: `L${i}` } });
      await call('POST', `/v1/domains/${domain}/published-courses/${pc.id}/enrollments`, { user: { id: du.user.id } });
      const launch = await call('POST', `/v1/lessons/${lesson.id}/launches`, { user: { id: du.user.id } });
      const opened = await fetch(launch.launch_url, { redirect: 'manual' });
      const session = opened.headers.get('location');
      const init = await fetch(`${api.url}${session}runtime/initialize`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      if ((await init.json()).value !== 'true') throw new Error('initialize failed');
      sessions.push(session);
    }
    let n = 0;
    let k = 0;
    const requests = [
      { method: 'POST', setupRequest: (r) => ({ ...r, path: `${sessions[n % sessions.length]}runtime/set`, body: JSON.stringify({ element: 'cmi.suspend_data', value: `state-${k++}` }) }) },
      { method: 'POST', setupRequest: (r) => ({ ...r, path: `${sessions[n++ % sessions.length]}runtime/commit`, body: '{}' }) },
    ];
    const run = (duration) => runAutocannon({ url: api.url, connections: opts.connections, duration, headers: { 'content-type': 'application/json' }, requests });
    await run(1);
    const r = await run(opts.duration);
    if (r.non2xx || r.errors) {
      failed = true;
      process.stderr.write(`${r.non2xx} non-2xx answers, ${r.errors} errors\n`);
    }
    const result = {
      name: `scorm: SetValue + Commit, ${opts.learners} learners`,
      learners: opts.learners,
      commitsPerSecond: Math.round(r.requests.average / 2),
      requestsPerSecond: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
    };
    console.log(`SCORM runtime, ${opts.learners} learners: ${fmt(result.commitsPerSecond)} commits/s (${fmt(result.requestsPerSecond)} runtime calls/s, p50 ${result.p50} ms, p99 ${result.p99} ms)`);
    if (opts.json) console.log(JSON.stringify(result));
  } finally {
    await worker.close();
    await new Promise((r) => server.close(r));
    await world.cleanup();
  }
  if (failed) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
