#!/usr/bin/env node
/* eslint-disable */
/**
 * `npm run bench`: runs the benchmarks one after the other (never in parallel: they measure the
 * machine). Each is its own script; add a new one to BENCHES.
 *
 *   npm run bench                   all of them
 *   npm run bench -- web-package    only the named ones
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const BENCHES = ['http', 'webhooks', 'web-package', 'v1-catalog', 'v2-students', 'progress', 'commerce'];

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const run = wanted.length ? BENCHES.filter((b) => wanted.includes(b)) : BENCHES;
let failed = 0;
for (const name of run) {
  process.stdout.write(`\n== ${name} ==\n`);
  if (!fs.existsSync(path.join(__dirname, `${name}.js`))) {
    process.stdout.write(`(missing: bench/${name}.js)\n`);
    failed++;
    continue;
  }
  const r = spawnSync(process.execPath, [path.join(__dirname, `${name}.js`)], { stdio: 'inherit', env: process.env });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
