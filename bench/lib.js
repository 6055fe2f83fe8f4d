/* eslint-disable */
'use strict';
/**
 * Helpers shared by the benchmark scripts: child processes for the servers under test, free ports,
 * readiness, autocannon, and cleaning up the throw-away database and Redis keys of a run.
 */
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

/** Start `node <args>` in the project root; with captureStdout its output collects in child.output. */
function startChild(args, env, captureStdout = false) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', captureStdout ? 'pipe' : 'inherit', 'inherit'] });
  if (captureStdout) {
    child.output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => (child.output += d));
  }
  return child;
}

function stopChild(child) {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Wait until `url` answers 2xx; fails if the child exits first or after 60 s. */
async function waitFor(url, child, what) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up at ${url}`);
}

function runAutocannon(opts) {
  const autocannon = require('autocannon');
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

async function dropBenchDb(adminUrl, name) {
  const { Client } = require('pg');
  const c = new Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await c.end();
  }
}

/** Remove the keys a run wrote under its Redis prefix (rate limits, queues). */
async function dropRedisPrefix(url, prefix) {
  const Redis = require('ioredis');
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

function fmt(n, digits = 0) {
  return Number(n).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

module.exports = { ROOT, startChild, stopChild, freePort, waitFor, runAutocannon, dropBenchDb, dropRedisPrefix, fmt };
