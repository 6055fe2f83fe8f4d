#!/usr/bin/env node
/* eslint-disable */
'use strict';
/**
 * Summary of a V8 CPU profile (`node --cpu-prof`, e.g. `node bench/http.js --cpu-prof DIR` or
 * `node bench/v2-students.js --cpu-prof DIR`): the functions with the most self time, and the
 * project files / packages with the most inclusive time spent under them.
 *
 *   node bench/profile-summary.js DIR/CPU.xxx.cpuprofile [--top 40]
 */
const fs = require('node:fs');

const file = process.argv[2];
const top = Number(process.argv[process.argv.indexOf('--top') + 1]) || 40;
const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const where = (cf) => {
  const url = cf.url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '');
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  return m ? m[1] : url || '(native)';
};
const fnSelf = new Map();
const placeIncl = new Map();
for (const [id, t] of self) {
  const n = byId.get(id);
  const key = `${n.callFrame.functionName || '(anonymous)'}  ${where(n.callFrame)}:${n.callFrame.lineNumber + 1}`;
  fnSelf.set(key, (fnSelf.get(key) ?? 0) + t);
  // inclusive time per place: count each place once per sample stack
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const w = where(byId.get(cur).callFrame);
    if (!seen.has(w)) {
      seen.add(w);
      placeIncl.set(w, (placeIncl.get(w) ?? 0) + t);
    }
  }
}
const pct = (t) => `${((100 * t) / total).toFixed(1)}%`.padStart(6);
process.stdout.write(`total ${(total / 1000).toFixed(0)} ms sampled\n\nself time by function:\n`);
for (const [k, t] of [...fnSelf].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(t)}  ${k}\n`);
process.stdout.write('\ninclusive time by file / package:\n');
for (const [k, t] of [...placeIncl].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(t)}  ${k}\n`);
