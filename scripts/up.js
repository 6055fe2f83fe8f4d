#!/usr/bin/env node
'use strict';
/**
 * `npm run up`: install, build, create + migrate the database, then run the worker and the API
 * side by side in the foreground.
 *
 * - Dependencies: `npm ci`, skipped when node_modules already holds exactly what package-lock.json
 *   names (npm's own record of the installed tree, node_modules/.package-lock.json, agrees with it).
 * - Both processes get this process's environment (and read .env themselves).
 * - Ctrl-C / SIGTERM stop both gracefully; when either one exits on its own, the other is stopped
 *   too and `up` exits non-zero, so a supervisor sees the failure.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (r.status !== 0) {
    process.stderr.write(`up: \`${[cmd, ...args].join(' ')}\` failed\n`);
    process.exit(r.status || 1);
  }
}

/** True when node_modules matches package-lock.json (every locked package installed at its version). */
function installed() {
  try {
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')).packages;
    const have = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/.package-lock.json'), 'utf8')).packages;
    for (const [name, meta] of Object.entries(lock)) {
      if (name === '') continue;
      const got = have[name];
      if (got ? got.version !== meta.version : !meta.optional) return false;
    }
    return Object.keys(have).every((name) => name in lock);
  } catch {
    return false;
  }
}

if (!installed()) {
  // `npm ci` installs exactly the lock file (complete for every platform; see package.json overrides)
  run(npm, ['ci', '--no-audit', '--no-fund']);
}
run(npm, ['run', '--silent', 'build']);

// In a terminal, human-readable log lines (one per request) unless LOG_FORMAT is chosen in the
// environment or in .env; under a supervisor or piped to a file, the production JSON lines.
function chosenInDotEnv(name) {
  try {
    return fs
      .readFileSync(path.join(root, '.env'), 'utf8')
      .split(/\r?\n/)
      .some((l) => l.trim().startsWith(`${name}=`));
  } catch {
    return false;
  }
}
if (process.stdout.isTTY && !process.env.LOG_FORMAT && !chosenInDotEnv('LOG_FORMAT')) process.env.LOG_FORMAT = 'pretty';
// the first line says where things will be (each process says it again once it listens)
require('dotenv').config({ path: path.join(root, '.env'), quiet: true });
const port = process.env.PORT || '3000';
const metricsPort = process.env.METRICS_PORT || '9464';
process.stdout.write(`up: the API on http://localhost:${port} (docs at http://localhost:${port}/docs), the worker's metrics on :${metricsPort}; Ctrl-C stops both\n`);
run(process.execPath, ['dist/src/core/database/migrate.js']);

const children = new Map();
let stopping = false;
let exitCode = 0;

function start(name, file) {
  // own process group: a terminal's Ctrl-C reaches the children once, through stop() below
  const child = spawn(process.execPath, [file], { cwd: root, stdio: 'inherit', env: process.env, detached: true });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      process.stderr.write(`up: the ${name} exited (${signal ?? `code ${code}`}); stopping\n`);
      exitCode = code || 1;
      stop('SIGTERM');
    } else if (code) {
      exitCode = code; // it failed while stopping
    }
    if (children.size === 0) process.exit(exitCode);
  });
}

/** Signals each child once: a second SIGINT would cut a graceful stop short. */
function stop(signal) {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill(signal);
}

process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGHUP', () => stop('SIGTERM'));
// if this process dies anyway, do not leave the children behind
process.on('exit', () => {
  for (const child of children.values()) child.kill('SIGKILL');
});

start('worker', 'dist/src/worker.js');
start('API', 'dist/src/main.js');
